/**
 * A task's Details modal (its details, notions and every minute entry, newest first within Slack's
 * block limit) and one's own entries there: edited in a form of their own, or deleted.
 */
import type { KnownBlock, ModalView } from '@slack/types';
import { z } from 'zod';
import {
  actions,
  button,
  context,
  header,
  inline,
  input,
  type Mrkdwn,
  md,
  mention,
  modal,
  quote,
  section,
  slackDate,
  textInput,
  truncate,
} from '../../blockkit/index.js';
import { LIMITS, NotFoundError } from '../../planning/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import type { SlackDeps } from '../kit/deps.js';
import { type FormOutput, form, minuteText, read } from '../kit/form.js';
import type { Acting } from '../kit/identity.js';
import { notice } from '../kit/messages.js';
import { formProblem, loadingView } from '../kit/modal.js';
import { peopleOf } from '../kit/people.js';
import { parseCarried, toCheckedWire, toWire, wireValue } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import { privateSurface, showFailure, viewSurface } from '../kit/surfaces.js';
import { TaskCoords, type TaskView, taskFacts } from './card.js';
import { TASK_ACTION, TASK_FIELD, TASK_VIEW } from './ids.js';
import { openTaskModal, readTaskView } from './live.js';

// ---------------------------------------------------------------------------------------------
// Details: the task and its minutes
// ---------------------------------------------------------------------------------------------

/** One entry of the minutes, with its author as a Slack user when connected. */
export interface MinuteEntry {
  kind: 'discovery' | 'feedback';
  id: string;
  /** UNIX seconds. */
  iat?: number;
  iteration?: number;
  authorSlackId?: string;
  /** Written by the viewer: Edit and Delete are offered. */
  own: boolean;
  text: string;
  issue?: string;
  reply?: string;
}

export interface TaskDetails extends TaskView {
  details?: string;
  notions: readonly string[];
  entries: readonly MinuteEntry[];
}

/** A minute entry as its buttons and edit form point at it, as code reads it (see {@link MinuteRef}). */
export interface MinuteRef {
  coords: TaskCoords;
  kind: MinuteEntry['kind'];
  /** The discovery's or the feedback's id. */
  id: string;
}

/** What a minute entry's Edit and Delete buttons carry; on the wire `k` is `d`(iscovery) or `f`(eedback). */
export const MinuteRef = wireValue(
  TaskCoords.extend({ k: z.enum(['d', 'f']), id: z.string().min(1) }),
  ({ k, id, ...coords }): MinuteRef => ({ coords, kind: k === 'd' ? 'discovery' : 'feedback', id }),
  ({ coords, kind, id }) => ({
    teamId: coords.teamId,
    channelId: coords.channelId,
    featureId: coords.featureId,
    taskId: coords.taskId,
    k: kind === 'discovery' ? ('d' as const) : ('f' as const),
    id,
  }),
);

export const DETAILS_TITLE = 'Task details';

/** Blocks an entry may take (section + its buttons); the rest of the modal's 100 is for the task. */
const ENTRY_BLOCKS_BUDGET = 90;

function when(iat: number | undefined): Mrkdwn {
  if (iat === undefined) return md``;
  const at = new Date(iat * 1000);
  // Slack shows the date in each viewer's own time zone; the fallback (notifications) says UTC.
  return md` · ${slackDate(at, '{date_short_pretty} at {time}', `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`)}`;
}

function entryText(e: MinuteEntry): Mrkdwn {
  const by = e.authorSlackId ? mention(e.authorSlackId) : md`someone not in Slack`;
  const iteration = e.iteration === undefined ? md`` : md` · iteration ${e.iteration}`;
  if (e.kind === 'discovery') {
    return md`:bulb: *Discovery* by ${by}${when(e.iat)}${iteration}\n${quote(truncate(e.text, LIMITS.minuteText))}`;
  }
  const issue = e.issue ? md` (${e.issue})` : md``;
  const reply = e.reply
    ? md`\n:leftwards_arrow_with_hook: Reply:\n${quote(truncate(e.reply, LIMITS.minuteText))}`
    : md`\n_Waiting for a reply._`;
  return md`:speech_balloon: *Feedback*${issue} by ${by}${when(e.iat)}${iteration}\n${quote(truncate(e.text, LIMITS.minuteText))}${reply}`;
}

/**
 * The Details modal: the task, its details and notions, then every discovery and feedback with its
 * reply, author and time; the viewer's own entries have Edit and Delete. However long the minutes
 * get, the modal stays within Slack's 100 blocks: the newest entries are shown, and a line says how
 * many older ones are not.
 */
export function taskDetailsModal(task: TaskDetails): ModalView {
  const coords = TaskCoords.parse(task.coords);
  const top: KnownBlock[] = [
    section(md`:memo: *${inline(task.heading, LIMITS.heading)}*`),
    context(
      ...(task.featureHeading ? [md`Feature: ${inline(task.featureHeading, 150)}`] : []),
      taskFacts(task),
    ),
    ...(task.details ? [section(quote(truncate(task.details, LIMITS.details)))] : []),
    ...(task.notions.length > 0
      ? [context(md`Notions: ${task.notions.map((n) => truncate(n, LIMITS.notion)).join(', ')}`)]
      : []),
    header('Minutes'),
  ];
  if (task.entries.length === 0) {
    top.push(context(md`No discoveries or feedback yet.`));
    return modal({
      callbackId: TASK_VIEW.details,
      title: DETAILS_TITLE,
      privateMetadata: JSON.stringify(coords),
      blocks: top,
    });
  }
  // Newest first, as many as fit.
  const newest = [...task.entries].sort((a, b) => (b.iat ?? 0) - (a.iat ?? 0));
  const entryBlocks: KnownBlock[] = [];
  let shown = 0;
  for (const e of newest) {
    const blocks: KnownBlock[] = [section(entryText(e))];
    if (e.own) {
      const value = toWire(MinuteRef, { coords, kind: e.kind, id: e.id });
      blocks.push(
        actions(
          undefined,
          button('Edit', TASK_ACTION.minuteEditOpen, { value }),
          button('Delete', TASK_ACTION.minuteDelete, {
            value,
            style: 'danger',
            confirm: {
              title: `Delete this ${e.kind}?`,
              text: md`It is removed from the task's minutes for everyone.`,
              confirm: 'Delete',
              style: 'danger',
            },
          }),
        ),
      );
    }
    if (entryBlocks.length + blocks.length > ENTRY_BLOCKS_BUDGET - 1) break;
    entryBlocks.push(...blocks);
    shown += 1;
  }
  const left = newest.length - shown;
  return modal({
    callbackId: TASK_VIEW.details,
    title: DETAILS_TITLE,
    privateMetadata: JSON.stringify(coords),
    blocks: [...top, ...entryBlocks, ...(left > 0 ? [context(md`…and ${left} older not shown.`)] : [])],
  });
}

/** The edit form of one's own discovery or feedback. */
export function minuteEditModal(form: { ref: MinuteRef; text: string; problem?: Mrkdwn }): ModalView {
  const what = form.ref.kind;
  return modal({
    callbackId: TASK_VIEW.minuteEdit,
    title: what === 'discovery' ? 'Edit discovery' : 'Edit feedback',
    submit: 'Save',
    close: 'Cancel',
    privateMetadata: toCheckedWire(MinuteRef, form.ref),
    blocks: [
      input(
        what === 'discovery' ? 'Discovery' : 'Feedback',
        TASK_FIELD.minuteText.block,
        textInput(TASK_FIELD.minuteText.action, {
          multiline: true,
          max: LIMITS.minuteText,
          value: form.text,
        }),
      ),
      context(md`Only the text of your ${what} changes.`),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

export const taskDetailsOpenAction = (svc: Services, args: ActionArgs) =>
  openTaskModal(svc, args, 'task details open', DETAILS_TITLE, async (acting, c) =>
    taskDetailsModal((await readTaskDetails(svc.deps, acting, c)).details),
  );

const GONE = md`That entry no longer exists (it was deleted).`;

export async function minuteEditOpenAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const ref = parseCarried(MinuteRef, actionValue(args.action));
  const title = ref?.kind === 'discovery' ? 'Edit discovery' : 'Edit feedback';
  let viewId: string | undefined;
  try {
    const pushed = await args.client.views.push({
      trigger_id: args.body.trigger_id,
      view: loadingView(title),
    });
    viewId = pushed.view?.id;
    if (!ref || !viewId)
      throw new NotFoundError('stale minute button', { operation: 'tasks.read', method: 'GET', path: '' });
    const { task } = await readTaskDetails(svc.deps, await planning.acting(), ref.coords);
    const entry =
      ref.kind === 'discovery'
        ? task.minute?.discoveries.find((d) => d.id === ref.id)?.details
        : task.minute?.feedback.find((f) => f.id === ref.id)?.message;
    if (entry === undefined)
      throw new NotFoundError('minute entry gone', { operation: 'tasks.read', method: 'GET', path: '' });
    await args.client.views.update({ view_id: viewId, view: minuteEditModal({ ref, text: entry }) });
  } catch (error) {
    const surface = viewId
      ? viewSurface(args.client, viewId, title)
      : privateSurface(args, planning.slackUserId);
    await showFailure(svc.deps, surface, error, {
      action: 'minute edit open',
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}

export async function minuteDeleteAction(svc: Services, args: ActionArgs) {
  const planning = planningOf(args.context);
  const surface = privateSurface(args, planning.slackUserId);
  const ref = parseCarried(MinuteRef, actionValue(args.action));
  if (!ref) {
    await surface.show(notice(GONE));
    return;
  }
  try {
    const acting = await planning.acting();
    const { tasks } = acting.planning;
    try {
      const { teamId, channelId, featureId, taskId } = ref.coords;
      if (ref.kind === 'discovery') await tasks.discoveryDelete(teamId, channelId, featureId, taskId, ref.id);
      else await tasks.feedbackDelete(teamId, channelId, featureId, taskId, ref.id);
    } catch (error) {
      // Already gone (a retry, a double click): nothing left to do but show the minutes as they are.
      if (!(error instanceof NotFoundError)) throw error;
    }
    const viewId = args.body.view?.id;
    if (viewId) {
      const { details } = await readTaskDetails(svc.deps, acting, ref.coords);
      await args.client.views.update({ view_id: viewId, view: taskDetailsModal(details) });
    }
    await svc.changes.changed({
      ...madeFromSlack(acting, args.client, ref.coords),
      tasks: [ref.coords.taskId],
    });
  } catch (error) {
    await showFailure(svc.deps, surface, error, {
      action: 'minute delete',
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}

const MinuteForm = form({
  ref: read.metadata(TASK_FIELD.minuteText, MinuteRef),
  text: read.value(TASK_FIELD.minuteText, minuteText('text')),
});

type MinuteForm = FormOutput<typeof MinuteForm>;

export const minuteEditSubmission = submission<MinuteForm>({
  action: 'minute-edit',
  title: 'Edit entry',
  working: 'Saving…',
  parse: MinuteForm.parse,
  retry: (data, problem) => minuteEditModal({ ref: data.ref, text: data.text, problem }),
  run: async (svc, { ref: r, text }, args) => {
    const acting = await planningOf(args.context).acting();
    const { planning } = acting;
    const { teamId, channelId, featureId, taskId } = r.coords;
    if (r.kind === 'discovery') {
      await planning.tasks.discoveryUpdate(teamId, channelId, featureId, taskId, r.id, { details: text });
    } else {
      await planning.tasks.feedbackUpdate(teamId, channelId, featureId, taskId, r.id, { message: text });
    }
    // Pushed over the Details modal: the Details under it show the edit when the person goes back.
    const under = args.view.previous_view_id;
    if (under) {
      try {
        const { details } = await readTaskDetails(svc.deps, acting, r.coords);
        await args.client.views.update({ view_id: under, view: taskDetailsModal(details) });
      } catch (error) {
        svc.deps.logger.warn({ action: 'minute edit', err: error }, 'could not redraw the task details');
      }
    }
    return { text: md`:white_check_mark: Your ${r.kind} is saved.` };
  },
});

/** The task with its minutes as the Details modal shows them to `acting`. */
export async function readTaskDetails(
  deps: Pick<SlackDeps, 'store' | 'config'>,
  acting: Acting,
  c: TaskCoords,
) {
  const view = await readTaskView(deps, acting, c);
  const { task } = view;
  const discoveries = task.minute?.discoveries ?? [];
  const feedback = task.minute?.feedback ?? [];
  const people = await peopleOf(deps, acting.workspaceId, [
    ...discoveries.map((d) => d.authorUserId),
    ...feedback.map((f) => f.authorUserId),
  ]);
  const me = acting.identity.planningUserId;
  /** What every entry shows, whichever its kind: when, by whom, whether it is the viewer's own. */
  const entry = (e: { id: string; iat?: number; iteration?: number; authorUserId?: string }) => {
    const authorSlackId = people.slackUserOf(e.authorUserId);
    return {
      id: e.id,
      iat: e.iat,
      iteration: e.iteration,
      ...(authorSlackId ? { authorSlackId } : {}),
      own: e.authorUserId === me,
    };
  };
  const entries: MinuteEntry[] = [
    ...discoveries.map((d): MinuteEntry => ({ kind: 'discovery', ...entry(d), text: d.details ?? '' })),
    ...feedback.map(
      (f): MinuteEntry => ({
        kind: 'feedback',
        ...entry(f),
        text: f.message ?? '',
        ...(f.issue ? { issue: f.issue } : {}),
        ...(f.reply ? { reply: f.reply } : {}),
      }),
    ),
  ];
  const details: TaskDetails = {
    ...view,
    ...(task.details ? { details: task.details } : {}),
    notions: task.notions.map((n) => n.value ?? n.id),
    entries,
  };
  return { details, task };
}
