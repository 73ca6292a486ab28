/**
 * A task card's state buttons (forward and back): the task moves to the state the button names,
 * once (kit/press.ts: a stale card or a double click refreshes instead), every card of the task is
 * updated in place, and the assignee or author is told when the move concerns them.
 */
import { md } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { Acting } from '../kit/identity.js';
import { notice } from '../kit/messages.js';
import { actsAsOrgAdmin } from '../kit/planning-account.js';
import { pressCard } from '../kit/press.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { privateSurface } from '../kit/surfaces.js';
import { liveTaskCard, TaskButton, type TaskView } from './card.js';
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

export async function taskDeleteAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const press = parseCarried(TaskButton, actionValue(args.action));
  if (!press) {
    await privateSurface(args, planning.slackUserId).show(notice(STALE_BUTTON));
    return;
  }
  await pressCard(svc, args, taskLiveCard(svc.deps, planning.workspaceId, press.coords), {
    shown: press.shown,
    apply: async (task, acting) => {
      if (!(await mayDelete(svc, acting, task.coords.taskId))) {
        return {
          after: task,
          said: md`:no_entry: Only the task's author or an organization owner or admin can delete it; nothing was deleted.`,
        };
      }
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
    },
    ...(press.inList ? { pressedMessage: () => notice(md`:wastebasket: This task was deleted.`) } : {}),
  });
}
