/**
 * The DMs a change calls for, decided in one place whoever made it — a press, a form, a workflow
 * step or someone outside Slack (the watch) — and sent through kit/notify.ts (each person's
 * choices and quiet hours):
 * - a feature moved on to a later stage: its author;
 * - a task assigned: its new assignee;
 * - a task moved to *in review*: its assignee; to *done*: the person who created it from Slack.
 * Nobody is told of what they did themselves. A DM names who did it, with their planning profile
 * one press away; made outside Slack, it says so.
 */
import type { WebClient } from '@slack/web-api';
import { inline, link, type Mrkdwn, md, mention, message, section } from '../../../blockkit/index.js';
import { FEATURE_STAGES, LIMITS } from '../../../planning/index.js';
import { STAGE_NAMES } from '../../../planning/stages.js';
import type { FeatureChange } from '../../../watch/changes.js';
import type { SlackDeps } from '../deps.js';
import type { NotificationKind, NotifyBody } from '../dm-kinds.js';
import { profileActions, slackUserOf } from '../people.js';
import type { FeatureFacts, TaskFacts } from './change.js';

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
export type TaskChange = { kind: 'assigned' } | { kind: 'moved'; to: TaskFacts['state'] };

/**
 * Who gets a DM about a change to a task, and what it says; undefined when nobody does. `actorSlackId`
 * is who made it from Slack; without one the change was made elsewhere and the DM says so.
 */
export function taskChangeDm(
  actorSlackId: string | undefined,
  task: Pick<TaskFacts, 'heading' | 'assigneeSlackId' | 'authorSlackId'>,
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
 * The DM telling a feature's author it advanced: who advanced it from Slack, or (no one given) that
 * it was advanced outside Slack.
 */
export function featureAdvancedDm(
  feature: Pick<FeatureFacts, 'id' | 'heading' | 'stage'>,
  actorSlackId: string | undefined,
): Mrkdwn {
  const by = actorSlackId ? md`advanced by ${mention(actorSlackId)}` : md`advanced outside Slack`;
  return md`:arrow_forward: Your feature *${feature.heading ?? feature.id}* moved to *${STAGE_NAMES[feature.stage]}* (${by}).`;
}

/** A DM a change calls for: to whom, about what, saying what. */
export interface DueDm {
  to: string;
  kind: NotificationKind;
  body: NotifyBody;
}

/**
 * The DM `change` calls for, or undefined. `task` and `feature` are the objects' facts as they are
 * now (undefined: not known, and nobody is told what cannot be said).
 */
export async function dmFor(
  deps: Pick<SlackDeps, 'store'>,
  client: WebClient,
  workspaceId: string,
  actorSlackId: string | undefined,
  change: FeatureChange,
  facts: { task?: TaskFacts; feature?: FeatureFacts },
): Promise<DueDm | undefined> {
  if (change.kind === 'stage') {
    const { feature } = facts;
    const advanced = FEATURE_STAGES.indexOf(change.to) > FEATURE_STAGES.indexOf(change.from);
    if (!advanced || !feature) return undefined;
    const author = await slackUserOf(deps, workspaceId, feature.authorUserId);
    if (!author || author === actorSlackId) return undefined;
    const text = featureAdvancedDm({ ...feature, stage: change.to }, actorSlackId);
    // The DM names who advanced it: their planning profile is one press away.
    return {
      to: author,
      kind: 'featureAdvanced',
      body: message(text, [section(text), ...profileActions(actorSlackId)]),
    };
  }
  if (change.kind !== 'taskAssignee' && change.kind !== 'taskState') return undefined;
  const { task } = facts;
  if (!task) return undefined;
  if (change.kind === 'taskAssignee' && !change.to) return undefined;
  const dm = taskChangeDm(
    actorSlackId,
    task,
    change.kind === 'taskAssignee' ? { kind: 'assigned' } : { kind: 'moved', to: change.to },
  );
  if (!dm) return undefined;
  const permalink = await cardLink(deps, client, workspaceId, change.taskId);
  return { to: dm.to, kind: dm.kind, body: taskDm(dm.text, permalink, actorSlackId) };
}
