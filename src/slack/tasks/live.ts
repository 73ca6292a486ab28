/**
 * What the tasks topic's use cases share: a task read as its card shows it (people as Slack users, the
 * feature's heading, the minute's counts), as the change funnel reads it (kit/changes/), as a live
 * card (kit/press.ts), and a task button that opens a form.
 */

import type { ModalView } from '@slack/types';
import { md } from '../../blockkit/index.js';
import type { TaskExpanded } from '../../planning/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import type { CardSources, OnCard, TaskFacts } from '../kit/changes/index.js';
import type { SlackDeps } from '../kit/deps.js';
import type { Acting, CardReader } from '../kit/identity.js';
import type { CardRef } from '../kit/live-cards.js';
import { loadModal, modalRequest, noticeView, openModal } from '../kit/modal.js';
import { slackUserOf } from '../kit/people.js';
import type { LiveCard } from '../kit/press.js';
import type { Services } from '../kit/services.js';
import { openUrl } from '../kit/web-links.js';
import {
  describeTaskChange,
  liveTaskCard,
  parseCoords,
  type TaskCoords,
  type TaskView,
  taskShown,
} from './card.js';

/** The ref of a task's cards in the store. */
export const taskRef = (workspaceId: string, taskId: string): CardRef => ({
  workspaceId,
  kind: 'task',
  entityId: taskId,
});

/** A task and its feature's heading, read with the reader's client. */
async function readTask(acting: CardReader, c: TaskCoords) {
  const [task, feature] = await Promise.all([
    acting.planning.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId),
    acting.planning.features.read(c.teamId, c.channelId, c.featureId).catch(() => undefined),
  ]);
  return { task, featureHeading: feature?.heading };
}

function counts(task: TaskExpanded): NonNullable<TaskView['minutes']> {
  const feedback = task.minute?.feedback ?? [];
  const answered = feedback.filter((f) => f.reply).length;
  return {
    discoveries: task.minute?.discoveries.length ?? 0,
    answered,
    waiting: feedback.length - answered,
  };
}

/** The task as its card shows it. */
export async function readTaskView(
  deps: Pick<SlackDeps, 'store' | 'config'>,
  acting: CardReader,
  c: TaskCoords,
): Promise<TaskView & { task: TaskExpanded }> {
  const [{ task, featureHeading }, origin] = await Promise.all([
    readTask(acting, c),
    deps.store.taskOrigins.get(acting.workspaceId, c.taskId),
  ]);
  const assigneeSlackId = await slackUserOf(deps, acting.workspaceId, task.assigneeUserId);
  return {
    task,
    coords: c,
    heading: task.heading ?? 'Untitled task',
    state: task.state,
    ...(task.assigneeUserId ? { assigneeUserId: task.assigneeUserId } : {}),
    ...(assigneeSlackId ? { assigneeSlackId } : {}),
    ...(featureHeading ? { featureHeading } : {}),
    ...(origin ? { authorSlackId: origin.authorSlackId } : {}),
    minutes: counts(task),
    ...openUrl(deps.config, 'task', c),
  };
}

/** The task as the change funnel is given it: its card, and what the DM rules read of it. */
export function taskOnCard(view: TaskView): OnCard<TaskFacts> {
  return {
    body: liveTaskCard(view),
    facts: {
      heading: view.heading,
      state: view.state,
      ...(view.assigneeUserId ? { assigneeUserId: view.assigneeUserId } : {}),
      ...(view.assigneeSlackId ? { assigneeSlackId: view.assigneeSlackId } : {}),
      ...(view.authorSlackId ? { authorSlackId: view.authorSlackId } : {}),
    },
  };
}

/** How the change funnel reads a task as its cards show it (given at composition, src/slack/changes.ts). */
export const taskCards =
  (deps: Pick<SlackDeps, 'store' | 'config'>): CardSources['task'] =>
  async (reader, place) =>
    taskOnCard(await readTaskView(deps, reader, place));

/** A task as a live card: read with the presser's own client, shown as the card. */
export function taskLiveCard(
  deps: Pick<SlackDeps, 'store' | 'config'>,
  workspaceId: string,
  c: TaskCoords,
): LiveCard<TaskView> {
  return {
    ref: taskRef(workspaceId, c.taskId),
    place: { teamId: c.teamId, channelId: c.channelId, featureId: c.featureId },
    noun: 'task',
    read: (acting) => readTaskView(deps, acting, c),
    known: (task) => ({ tasks: new Map([[c.taskId, taskOnCard(task)]]) }),
    shown: taskShown,
    describe: describeTaskChange,
  };
}

const STALE = md`This button no longer points at a task. Use \`/plan tasks\` to find it.`;

/**
 * A task button that opens a form: a loading modal at once, filled with what the acting user's
 * own client reads for the task the button carries.
 */
export async function openTaskModal(
  svc: Services,
  args: ActionArgs,
  action: string,
  title: string,
  build: (acting: Acting, coords: TaskCoords) => Promise<ModalView>,
) {
  const req = modalRequest(svc, args, args.body.trigger_id, action);
  const coords = parseCoords(actionValue(args.action) ?? '');
  if (!coords) {
    await openModal(req, noticeView(title, STALE));
    return;
  }
  await loadModal({ ...req, title }, (acting) => build(acting, coords));
}
