/**
 * A task card's state buttons (forward and back): the task moves to the state the button names,
 * once (kit/press.ts: a stale card or a double click refreshes instead), every card of the task is
 * updated in place, and the assignee or author is told when the move concerns them.
 */
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { type Mrkdwn, md, modal, section } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { Acting } from '../kit/identity.js';
import { notice } from '../kit/messages.js';
import { formProblem, modalRequest, noticeView, openModal } from '../kit/modal.js';
import { actsAsOrgAdmin } from '../kit/planning-account.js';
import { applyPress, messagePressedOn, type Press, pressCard } from '../kit/press.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import { privateSurface, showFailure } from '../kit/surfaces.js';
import { DELETE_CONFIRM, liveTaskCard, TaskButton, type TaskView } from './card.js';
import { TASK_VIEW } from './ids.js';
import { taskLiveCard } from './live.js';

export const STALE_BUTTON = md`This button is out of date: use the task's card, or \`/plan tasks\` for fresh ones.`;

export async function taskStateAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const press = parseCarried(TaskButton, actionValue(args.action));
  if (!press?.to) {
    await privateSurface(args, planning.slackUserId).show(notice(STALE_BUTTON));
    return;
  }
  const to = press.to;
  const card = taskLiveCard(svc.deps, planning.workspaceId, press.coords);
  await pressCard(svc, args, card, {
    shown: press.shown,
    apply: async (task, acting) => {
      const { teamId, channelId, featureId, taskId } = task.coords;
      const updated = await acting.planning.tasks.update(teamId, channelId, featureId, taskId, {
        state: to,
      });
      // The service answers with the task as it now is; its minutes did not change: no second read.
      const after = {
        ...task,
        state: updated.state,
        ...(updated.heading ? { heading: updated.heading } : {}),
      };
      // The feature's cards count its tasks by state; the assignee or author hears of it (kit/changes).
      return {
        after,
        changes: [{ kind: 'taskState', taskId, heading: after.heading, from: task.state, to: after.state }],
      };
    },
    // Pressed in a `/plan tasks` list (the presser's alone): the task's card in its place, with the
    // buttons they may use.
    ...(press.inList && args.respond
      ? {
          redraw: async (after: TaskView | undefined) => {
            const shown = after
              ? liveTaskCard(after, {
                  deletes: await mayDelete(svc, await planning.acting(), after.coords.taskId),
                })
              : notice(md`This task was deleted.`);
            await args.respond?.({ replace_original: true, ...shown });
          },
        }
      : {}),
  });
  // Pressed on the Home tab (its task rows carry these buttons): the tab shows the task as it is now.
  if (args.body.view?.type === 'home') await svc.home.refresh(args.client, planning);
}

/** The service does not say who created a task: the app remembers it (store/task-origins). */
async function mayDelete(svc: Services, acting: Acting, taskId: string): Promise<boolean> {
  const origin = await svc.deps.store.taskOrigins.get(acting.workspaceId, taskId);
  if (origin?.authorSlackId === acting.slackUserId) return true;
  return actsAsOrgAdmin(acting);
}

/** Why Delete is refused to someone who is neither the task's author nor an organization owner or admin. */
const MAY_NOT_DELETE = md`:no_entry: Only the task's author or an organization owner or admin can delete it; nothing was deleted.`;

/** Delete under the task's press lock (kit/press.ts): refused to whoever may not, else the task and its cards go. */
function deletePress(svc: Services): Press<TaskView>['apply'] {
  return async (task, acting) => {
    if (!(await mayDelete(svc, acting, task.coords.taskId))) return { after: task, said: MAY_NOT_DELETE };
    const { teamId, channelId, featureId, taskId } = task.coords;
    await acting.planning.tasks.delete(teamId, channelId, featureId, taskId);
    await svc.deps.store.taskOrigins
      .forget(acting.workspaceId, taskId)
      .catch((error: unknown) => svc.deps.logger.warn({ err: error }, 'could not forget a task origin'));
    // The feature's cards count its tasks by state.
    return {
      after: 'deleted' as const,
      said: md`:wastebasket: Task deleted.`,
      changes: [{ kind: 'taskRemoved', taskId, heading: task.heading }],
    };
  };
}

/** Delete after Slack's confirmation dialog: in a list (the presser's own), and on cards posted before Delete asked first. */
export async function taskDeleteAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const press = parseCarried(TaskButton, actionValue(args.action));
  if (!press) {
    await privateSurface(args, planning.slackUserId).show(notice(STALE_BUTTON));
    return;
  }
  await pressCard(svc, args, taskLiveCard(svc.deps, planning.workspaceId, press.coords), {
    shown: press.shown,
    apply: deletePress(svc),
    ...(press.inList ? { pressedMessage: () => notice(md`:wastebasket: This task was deleted.`) } : {}),
  });
}

/** What Delete's confirmation carries: the pressed button's value as it was, and the card it was pressed on. */
export const DeleteConfirmMeta = z.object({
  press: z.string().min(1),
  on: z.object({ channel: z.string().min(1), ts: z.string().min(1) }).optional(),
});
export type DeleteConfirmMeta = z.infer<typeof DeleteConfirmMeta>;

const DELETE_TITLE = 'Delete task';

export function deleteConfirmModal(meta: DeleteConfirmMeta, problem?: Mrkdwn): ModalView {
  return modal({
    callbackId: TASK_VIEW.deleteConfirm,
    title: DELETE_TITLE,
    submit: DELETE_CONFIRM.confirm,
    close: 'Cancel',
    privateMetadata: JSON.stringify(DeleteConfirmMeta.parse(meta)),
    blocks: [
      section(md`*${DELETE_CONFIRM.title}*`),
      section(DELETE_CONFIRM.text),
      ...(problem ? [formProblem(problem)] : []),
    ],
  });
}

/**
 * Delete on a shared card, shown to everyone: whoever may not delete the task is told why at once,
 * with no dialog; whoever may gets the confirmation (a modal: a button's own dialog would be shown
 * to everyone, before the app could tell). The decision reads one stored row, and the person's
 * role only for someone other than the author, so the modal still opens within the trigger's life.
 */
export async function taskDeleteAskAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const surface = privateSurface(args, planning.slackUserId);
  const value = actionValue(args.action);
  const press = parseCarried(TaskButton, value);
  if (!press || !value) {
    await surface.show(notice(STALE_BUTTON));
    return;
  }
  let allowed: boolean;
  try {
    allowed = await mayDelete(svc, await planning.acting(), press.coords.taskId);
  } catch (error) {
    await showFailure(svc.deps, surface, error, {
      action: 'task delete ask',
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
    return;
  }
  if (!allowed) {
    await surface.show(notice(MAY_NOT_DELETE));
    return;
  }
  const on = messagePressedOn(args);
  await openModal(
    modalRequest(svc, args, args.body.trigger_id, 'task delete confirm open'),
    deleteConfirmModal({ press: value, ...(on ? { on } : {}) }),
  );
}

/**
 * The confirmation submitted: the same press as Delete's (kit/press.ts: once, under the task's lock,
 * refused again if the person may no longer delete it, stale if the task changed meanwhile).
 */
export const taskDeleteConfirmSubmission = submission<DeleteConfirmMeta | undefined>({
  action: 'task-delete',
  title: DELETE_TITLE,
  working: 'Deleting the task…',
  parse: (_values, privateMetadata) => ({ ok: true, data: parseCarried(DeleteConfirmMeta, privateMetadata) }),
  retry: (data, problem) => (data ? deleteConfirmModal(data, problem) : noticeView(DELETE_TITLE, problem)),
  run: async (svc, meta, args) => {
    const press = meta && parseCarried(TaskButton, meta.press);
    if (!meta || !press) return { text: STALE_BUTTON };
    const planning = planningOf(args.context);
    const said = await applyPress(
      svc,
      {
        planning,
        client: args.client,
        ...(meta.on ? { on: meta.on } : {}),
        replacePressed: async () => false,
      },
      taskLiveCard(svc.deps, planning.workspaceId, press.coords),
      { shown: press.shown, apply: deletePress(svc) },
    );
    return { text: said ?? md`:wastebasket: Task deleted.` };
  },
});
