/**
 * The live task card, as pure builders: heading, feature, state, assignee and author, counts of the
 * minutes, and every button of the task. Each button carries the task's coordinates and what its
 * card showed, so a press made on a stale card is recognised (kit/press.ts) and any button knows
 * its task.
 */
import type { Button } from '@slack/types';
import { z } from 'zod';
import {
  actions,
  button,
  context,
  inline,
  joinMd,
  link,
  type Mrkdwn,
  md,
  mention,
  message,
  plural,
  SLACK_LIMITS,
  section,
} from '../../blockkit/index.js';
import { LIMITS, TASK_STATES, type TaskState } from '../../planning/models.js';
import { profileButton } from '../kit/people.js';
import type { Shown } from '../kit/press.js';
import { parseCarried, toWire, wireValue } from '../kit/round-trip.js';
import { TASK_ACTION, TASK_CARD_BLOCK_PREFIX, TASK_CARD_EVENT } from './ids.js';

/** Where a task lives in the service. */
export const TaskCoords = z.object({
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  featureId: z.string().min(1),
  taskId: z.string().min(1),
});

export type TaskCoords = z.infer<typeof TaskCoords>;

// ---------------------------------------------------------------------------------------------
// Card
// ---------------------------------------------------------------------------------------------

// The card itself is built below (liveTaskCard); here first: reading a card back.

/** A message as Slack hands it to a shortcut or an action. */
export interface CardLike {
  metadata?: { event_type?: string; event_payload?: unknown };
  blocks?: unknown[];
}

/** The task a card is about, or `undefined` when the message is not a task card. */
export function taskCoordsFromMessage(msg: CardLike | undefined): TaskCoords | undefined {
  if (!msg) return undefined;
  if (msg.metadata?.event_type === TASK_CARD_EVENT) {
    const parsed = TaskCoords.safeParse(msg.metadata.event_payload);
    if (parsed.success) return parsed.data;
  }
  for (const block of msg.blocks ?? []) {
    const b = block as { block_id?: string; elements?: { action_id?: string; value?: string }[] };
    if (b.block_id?.startsWith(TASK_CARD_BLOCK_PREFIX)) {
      const [teamId, channelId, featureId, taskId] = b.block_id
        .slice(TASK_CARD_BLOCK_PREFIX.length)
        .split('|');
      const parsed = TaskCoords.safeParse({ teamId, channelId, featureId, taskId });
      if (parsed.success) return parsed.data;
    }
    const feedback = b.elements?.find((e) => e.action_id === TASK_ACTION.feedbackOpen);
    if (feedback?.value) {
      const parsed = parseCoords(feedback.value);
      if (parsed) return parsed;
    }
  }
  return undefined;
}

/** Coordinates from a button value or private_metadata (JSON), or `undefined`. */
export function parseCoords(json: string): TaskCoords | undefined {
  return parseCarried(TaskCoords, json);
}

// ---------------------------------------------------------------------------------------------
// What a card shows
// ---------------------------------------------------------------------------------------------

/** A task as its card shows it: the service's facts, with people as Slack users where known. */
export interface TaskView {
  coords: TaskCoords;
  heading: string;
  state: TaskState;
  /** The assignee's planning user id (what a press compares), and their Slack id when connected. */
  assigneeUserId?: string;
  assigneeSlackId?: string;
  featureHeading?: string;
  authorSlackId?: string;
  /** Counts of the minute's entries; absent in lists (the service lists tasks without minutes). */
  minutes?: { discoveries: number; answered: number; waiting: number };
  /** The task's page in the service's web app, when the deployment set PLANNING_WEB_TASK_URL. */
  openUrl?: string;
}

/** What a press depends on: the task's state and assignee. */
export function taskShown(task: Pick<TaskView, 'state' | 'assigneeUserId'>): Shown {
  return { state: task.state, assignee: task.assigneeUserId ?? '' };
}

/** What changed between two shown states of a task, as one phrase. */
export function describeTaskChange(before: Shown, after: Shown): Mrkdwn {
  const parts: Mrkdwn[] = [];
  if (before.state !== after.state) {
    parts.push(md`it is now *${after.state ?? '?'}* (it was *${before.state ?? '?'}*)`);
  }
  if (before.assignee !== after.assignee) {
    parts.push(after.assignee ? md`its assignee changed` : md`it is no longer assigned`);
  }
  return parts.length > 0 ? joinMd(parts, ' and ') : md`it changed`;
}

/**
 * What every button of a task carries, on the wire: its coordinates, `s` and `a` the state and
 * assignee its card showed, `to` the state a state button moves to, `l` pressed in a `/plan tasks`
 * list. Code reads it through {@link TaskButton}; this wire schema stays a plain object because
 * test/slack/wire-ids.test.ts widens it to show that its freeze can fail.
 */
export const TaskPress = TaskCoords.extend({
  s: z.enum(TASK_STATES),
  a: z.string(),
  to: z.enum(TASK_STATES).optional(),
  l: z.literal(1).optional(),
});

/** A task button's value as code reads it (see {@link TaskPress}). */
export interface TaskButton {
  coords: TaskCoords;
  /** What the card showed: the press applies only if the task still is so (kit/press.ts). */
  shown: { state: TaskState; assignee: string };
  /** The state a state button moves to. */
  to?: TaskState;
  /** Pressed in a `/plan tasks` list (an ephemeral message), not on a remembered card. */
  inList: boolean;
}

export const TaskButton = wireValue(
  TaskPress,
  ({ s, a, to, l, ...coords }): TaskButton => ({
    coords,
    shown: { state: s, assignee: a },
    ...(to !== undefined ? { to } : {}),
    inList: l === 1,
  }),
  ({ coords, shown, to, inList }) => ({
    teamId: coords.teamId,
    channelId: coords.channelId,
    featureId: coords.featureId,
    taskId: coords.taskId,
    s: shown.state,
    a: shown.assignee,
    ...(to ? { to } : {}),
    ...(inList ? { l: 1 as const } : {}),
  }),
);

export function pressValue(task: TaskView, extra: { to?: TaskState; list?: boolean } = {}): string {
  return toWire(TaskButton, {
    coords: TaskCoords.parse(task.coords),
    shown: { state: task.state, assignee: task.assigneeUserId ?? '' },
    ...(extra.to ? { to: extra.to } : {}),
    inList: Boolean(extra.list),
  });
}

// ---------------------------------------------------------------------------------------------
// State buttons
// ---------------------------------------------------------------------------------------------

interface Move {
  to: TaskState;
  label: string;
}

/**
 * Where a task can go from each state: forward along idle → in progress → in review → done, and
 * back (a task sent back from review starts the service's next iteration of its minute).
 */
export const TASK_MOVES: Readonly<Record<TaskState, { forward?: Move; back?: Move }>> = {
  idle: { forward: { to: 'in progress', label: 'Start' } },
  'in progress': {
    forward: { to: 'in review', label: 'Send to review' },
    back: { to: 'idle', label: 'Back to idle' },
  },
  'in review': {
    forward: { to: 'done', label: 'Mark done' },
    back: { to: 'in progress', label: 'Back to work' },
  },
  done: { back: { to: 'in progress', label: 'Reopen' } },
};

/**
 * The buttons that move a task from its current state (one forward, one back where it can go back).
 * Pure: the Home tab renders them for its tasks, and the card's listener answers them wherever.
 */
export function taskStateButtons(task: TaskView, options: { list?: boolean } = {}): Button[] {
  const { forward, back } = TASK_MOVES[task.state];
  const buttons: Button[] = [];
  if (forward) {
    buttons.push(
      button(forward.label, TASK_ACTION.stateForward, {
        value: pressValue(task, { to: forward.to, list: options.list }),
        style: 'primary',
      }),
    );
  }
  if (back) {
    buttons.push(
      button(back.label, TASK_ACTION.stateBack, {
        value: pressValue(task, { to: back.to, list: options.list }),
      }),
    );
  }
  return buttons;
}

// ---------------------------------------------------------------------------------------------
// The card
// ---------------------------------------------------------------------------------------------

export const STATE_ICON: Record<TaskState, string> = {
  idle: ':white_circle:',
  'in progress': ':large_blue_circle:',
  'in review': ':large_orange_circle:',
  done: ':large_green_circle:',
};

/** The block id of a card's first section, when the ids fit Slack's 255 characters. */
function cardBlockId(c: TaskCoords): string | undefined {
  const id = `${TASK_CARD_BLOCK_PREFIX}${[c.teamId, c.channelId, c.featureId, c.taskId].join('|')}`;
  return id.length <= SLACK_LIMITS.blockId ? id : undefined;
}

function assigneeText(task: TaskView): Mrkdwn {
  if (task.assigneeSlackId) return md`assigned to ${mention(task.assigneeSlackId)}`;
  if (task.assigneeUserId) return md`assigned (to someone not in Slack)`;
  return md`unassigned`;
}

/** One line: state, assignee, author. */
export function taskFacts(task: TaskView): Mrkdwn {
  const author = task.authorSlackId ? md` · created by ${mention(task.authorSlackId)}` : md``;
  return md`${STATE_ICON[task.state]} ${task.state} · ${assigneeText(task)}${author}`;
}

function minutesLine(m: NonNullable<TaskView['minutes']>): Mrkdwn {
  const feedback = m.answered + m.waiting;
  const split = feedback > 0 ? md` (${m.answered} answered, ${m.waiting} waiting)` : md``;
  return md`${plural(m.discoveries, 'discovery', 'discoveries')} · ${plural(feedback, 'feedback', 'feedback')}${split}`;
}

/** The delete confirmation, shown by Slack before the press is sent, or by the app (state.ts). */
export const DELETE_CONFIRM = {
  title: 'Delete this task?',
  text: md`The task, its discoveries and its feedback are deleted in the planning service for everyone. This cannot be undone.`,
  confirm: 'Delete',
  style: 'danger' as const,
};

/**
 * The live card: heading, feature, facts, counts, and every button of the task. `deletes` is given
 * where the card is one person's (an ephemeral list's row turned into the card): false leaves out
 * the Delete the app would refuse them, true offers it with Slack's confirmation. A shared card
 * shows Delete to everyone without a dialog: a press by someone who may not delete is told why at
 * once, and only who may gets the confirmation (state.ts).
 */
export function liveTaskCard(task: TaskView, viewer: { deletes?: boolean } = {}) {
  const coords = TaskCoords.parse(task.coords);
  const heading = inline(task.heading, LIMITS.heading);
  const value = pressValue(task);
  const lines: Mrkdwn[] = [
    ...(task.featureHeading ? [md`Feature: ${inline(task.featureHeading, 150)}`] : []),
    taskFacts(task),
    ...(task.minutes ? [minutesLine(task.minutes)] : []),
    ...(task.openUrl ? [link(task.openUrl, 'Open in Team Planning')] : []),
  ];
  const body = message(md`Task: ${heading} (${task.state})`, [
    section(md`:memo: *${heading}*`, { blockId: cardBlockId(coords) }),
    context(...lines),
    actions(
      undefined,
      ...taskStateButtons(task),
      button('Assign…', TASK_ACTION.assignOpen, { value }),
      button('Give feedback', TASK_ACTION.feedbackOpen, { value }),
      button('Log discovery', TASK_ACTION.discoveryOpen, { value }),
      button('Details', TASK_ACTION.detailsOpen, { value }),
      button('Edit', TASK_ACTION.editOpen, { value }),
      ...(viewer.deletes === undefined
        ? [button('Delete', TASK_ACTION.deleteAsk, { value })]
        : viewer.deletes
          ? [button('Delete', TASK_ACTION.delete, { value, confirm: DELETE_CONFIRM })]
          : []),
      // The assignee's planning profile (people topic), when they are someone in Slack.
      ...profileButton(task.assigneeSlackId),
    ),
  ]);
  return { ...body, metadata: { event_type: TASK_CARD_EVENT, event_payload: coords } };
}
