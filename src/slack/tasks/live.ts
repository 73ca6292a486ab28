/**
 * What the tasks topic's use cases share: a task read as its card shows it (people as Slack users, the
 * feature's heading, the minute's counts), the task as a live card (kit/press.ts), updating every
 * card of a task after a change made from Slack, the DMs a change sends, and who may delete a task.
 */

import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { inline, link, type Mrkdwn, md, mention, message, section } from '../../blockkit/index.js';
import { LIMITS, type TaskExpanded } from '../../planning/index.js';
import { taskNotes } from '../../watch/changes.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import type { SlackDeps } from '../kit/deps.js';
import type { Acting, CardReader } from '../kit/identity.js';
import { type CardRef, updateCards } from '../kit/live-cards.js';
import { loadModal, modalRequest, noticeView, openModal } from '../kit/modal.js';
import { notify } from '../kit/notify.js';
import { profileActions, slackUserOf } from '../kit/people.js';
import type { LiveCard } from '../kit/press.js';
import type { Services } from '../kit/services.js';
import { noteFromSlack } from '../kit/slack-notes.js';
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

/** A task as a live card: read with the presser's own client, rendered as the card. */
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
    render: (task) => liveTaskCard(task),
    shown: taskShown,
    describe: describeTaskChange,
    notes: (task) => taskNotes({ id: task.coords.taskId, ...task }),
  };
}

/**
 * After a change made from Slack: reads the task again, puts it in every card posted for it (best
 * effort, like updateCards) and notes what the cards now show — its state and assignee, and `notes`
 * the caller made (a minute's entry) — so the watch does not echo it (kit/slack-notes.ts).
 */
export async function refreshTaskCards(
  deps: SlackDeps,
  client: WebClient,
  acting: Acting,
  c: TaskCoords,
  notes: readonly string[] = [],
): Promise<TaskView | undefined> {
  try {
    const view = await readTaskView(deps, acting, c);
    await updateCards(deps, client, taskRef(acting.workspaceId, c.taskId), liveTaskCard(view));
    await noteFromSlack(deps, acting.workspaceId, [...taskNotes(view.task), ...notes]);
    return view;
  } catch (error) {
    deps.logger.warn({ action: 'task cards refresh', err: error }, 'could not refresh the task cards');
    return undefined;
  }
}

/** A link to the task's first card, for DMs (none when it has no card or Slack refuses). */
export async function cardLink(
  deps: Pick<SlackDeps, 'store'>,
  client: WebClient,
  workspaceId: string,
  taskId: string,
): Promise<string | undefined> {
  const [card] = await deps.store.cards.list(workspaceId, 'task', taskId);
  if (!card) return undefined;
  try {
    const { permalink } = await client.chat.getPermalink({
      channel: card.slackChannelId,
      message_ts: card.messageTs,
    });
    return permalink;
  } catch {
    return undefined;
  }
}

/** What a change did to a task, for the DMs it sends. */
export type TaskChange = { kind: 'assigned' } | { kind: 'moved'; to: TaskView['state'] };

/**
 * Who gets a DM about a change, and what it says; undefined when nobody does. `actorSlackId` is who
 * made it from Slack; without one the change was made elsewhere (the service's web app, another
 * tool: src/slack/watch/) and the DM says so.
 */
export function taskChangeDm(
  actorSlackId: string | undefined,
  task: Pick<TaskView, 'heading' | 'assigneeSlackId' | 'authorSlackId'>,
  change: TaskChange,
): { to: string; kind: 'assigned' | 'taskMoved'; text: Mrkdwn } | undefined {
  const heading = inline(task.heading, LIMITS.heading);
  const by = actorSlackId ? mention(actorSlackId) : undefined;
  if (change.kind === 'assigned') {
    if (!task.assigneeSlackId || task.assigneeSlackId === actorSlackId) return undefined;
    return {
      to: task.assigneeSlackId,
      kind: 'assigned',
      text: by
        ? md`:raising_hand: ${by} assigned you the task *${heading}*.`
        : md`:raising_hand: You were assigned the task *${heading}* (outside Slack).`,
    };
  }
  if (change.to === 'in review') {
    if (!task.assigneeSlackId || task.assigneeSlackId === actorSlackId) return undefined;
    return {
      to: task.assigneeSlackId,
      kind: 'taskMoved',
      text: by
        ? md`:large_orange_circle: ${by} moved your task *${heading}* to *in review*.`
        : md`:large_orange_circle: Your task *${heading}* moved to *in review* (outside Slack).`,
    };
  }
  if (change.to === 'done') {
    if (!task.authorSlackId || task.authorSlackId === actorSlackId) return undefined;
    return {
      to: task.authorSlackId,
      kind: 'taskMoved',
      text: by
        ? md`:large_green_circle: ${by} marked your task *${heading}* done.`
        : md`:large_green_circle: Your task *${heading}* was marked done (outside Slack).`,
    };
  }
  return undefined;
}

/**
 * The DM about a task, with a link to its card when there is one, and the planning profile of the
 * person it names as having made the change.
 */
export function taskDm(text: Mrkdwn, permalink: string | undefined, actorSlackId?: string) {
  const full = permalink ? md`${text} ${link(permalink, 'Open the card')}` : text;
  return message(text, [section(full), ...profileActions(actorSlackId)]);
}

/**
 * Sends the DM a change calls for (see {@link taskChangeDm}). Best effort: the change is made; a
 * DM that fails is logged.
 */
export async function notifyTaskChange(
  deps: SlackDeps,
  client: WebClient,
  workspaceId: string,
  actorSlackId: string,
  task: TaskView,
  change: TaskChange,
): Promise<void> {
  const dm = taskChangeDm(actorSlackId, task, change);
  if (!dm) return;
  try {
    const permalink = await cardLink(deps, client, workspaceId, task.coords.taskId);
    await notify(
      deps,
      client,
      { workspaceId, slackUserId: dm.to },
      dm.kind,
      taskDm(dm.text, permalink, actorSlackId),
    );
  } catch (error) {
    deps.logger.warn({ action: `task ${change.kind} notify`, err: error }, 'could not send a task DM');
  }
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
