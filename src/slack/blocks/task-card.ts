/**
 * The live task card and the task's forms, as pure builders: the card (heading, state, assignee,
 * feature, counts of the minutes, and its buttons), the state buttons alone (the Home tab reuses
 * them), a task's line in a `/plan tasks` list, the Assign… picker with its plain-language fit, the
 * Log discovery, Edit and Details modals, and the edit form of one minute entry.
 *
 * Every button carries the task's coordinates and what the card showed (`s` state, `a` assignee), so
 * a press made on a stale card is recognised (see cards/press.ts) and any button knows its task.
 */
import type { Button, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  actions,
  button,
  context,
  header,
  inline,
  input,
  joinMd,
  type Mrkdwn,
  md,
  mention,
  message,
  modal,
  option,
  plural,
  quote,
  SLACK_LIMITS,
  section,
  slackDate,
  textInput,
  truncate,
} from '../../blockkit/index.js';
import { type Candidate, LIMITS, TASK_STATES, type TaskState } from '../../planning/models.js';
import type { Shown } from '../cards/index.js';
import {
  ACTION,
  FIELD,
  TASK_CARD_BLOCK_PREFIX,
  TASK_CARD_EVENT,
  TASK_LIST_BLOCK_PREFIX,
  VIEW,
} from '../ids.js';
import { TaskCoords } from './task.js';
import { formProblem } from './views.js';

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

/** What every button of a task carries: its coordinates and what its card showed. */
export const TaskPress = TaskCoords.extend({
  s: z.enum(TASK_STATES),
  a: z.string(),
  /** The state a state button moves to. */
  to: z.enum(TASK_STATES).optional(),
  /** Pressed in a `/plan tasks` list (an ephemeral message), not on a remembered card. */
  l: z.literal(1).optional(),
});
export type TaskPress = z.infer<typeof TaskPress>;

function pressValue(task: TaskView, extra: { to?: TaskState; list?: boolean } = {}): string {
  const value: TaskPress = {
    ...TaskCoords.parse(task.coords),
    s: task.state,
    a: task.assigneeUserId ?? '',
    ...(extra.to ? { to: extra.to } : {}),
    ...(extra.list ? { l: 1 as const } : {}),
  };
  return JSON.stringify(value);
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
      button(forward.label, ACTION.taskStateForward, {
        value: pressValue(task, { to: forward.to, list: options.list }),
        style: 'primary',
      }),
    );
  }
  if (back) {
    buttons.push(
      button(back.label, ACTION.taskStateBack, {
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

/** The delete confirmation, shown by Slack before the press is sent. */
const DELETE_CONFIRM = {
  title: 'Delete this task?',
  text: md`The task, its discoveries and its feedback are deleted in the planning service for everyone. This cannot be undone.`,
  confirm: 'Delete',
  style: 'danger' as const,
};

/** The live card: heading, feature, facts, counts, and every button of the task. */
export function liveTaskCard(task: TaskView) {
  const coords = TaskCoords.parse(task.coords);
  const heading = inline(task.heading, LIMITS.heading);
  const value = pressValue(task);
  const lines: Mrkdwn[] = [
    ...(task.featureHeading ? [md`Feature: ${inline(task.featureHeading, 150)}`] : []),
    taskFacts(task),
    ...(task.minutes ? [minutesLine(task.minutes)] : []),
  ];
  const body = message(md`Task: ${heading} (${task.state})`, [
    section(md`:memo: *${heading}*`, { blockId: cardBlockId(coords) }),
    context(...lines),
    actions(
      undefined,
      ...taskStateButtons(task),
      button('Assign…', ACTION.taskAssignOpen, { value }),
      button('Give feedback', ACTION.feedbackOpen, { value }),
      button('Log discovery', ACTION.taskDiscoveryOpen, { value }),
      button('Details', ACTION.taskDetailsOpen, { value }),
      button('Edit', ACTION.taskEditOpen, { value }),
      button('Delete', ACTION.taskDelete, { value, confirm: DELETE_CONFIRM }),
    ),
  ]);
  return { ...body, metadata: { event_type: TASK_CARD_EVENT, event_payload: coords } };
}

// ---------------------------------------------------------------------------------------------
// `/plan tasks`
// ---------------------------------------------------------------------------------------------

/** Which tasks `/plan tasks` lists. */
export type TaskFilter =
  | { kind: 'all' | 'mine' | 'review' | 'unassigned' }
  | { kind: 'words'; words: string };

/** `mine`, `review`, `unassigned`, other words (searched in headings), or nothing (all). */
export function parseTaskFilter(args: string): TaskFilter {
  const words = args.trim().replace(/\s+/g, ' ');
  const lower = words.toLowerCase();
  if (lower === '') return { kind: 'all' };
  if (lower === 'mine' || lower === 'review' || lower === 'unassigned') return { kind: lower };
  return { kind: 'words', words: truncate(words, 100) };
}

/** Tasks per page of `/plan tasks`: two blocks each, well under Slack's 50 per message. */
export const TASKS_PAGE_SIZE = 10;

/** What the More button carries to show the next page. */
export const TasksMore = z.object({ q: z.string().max(100), p: z.number().int().min(1) });
export type TasksMore = z.infer<typeof TasksMore>;

function filterTitle(filter: TaskFilter): string {
  switch (filter.kind) {
    case 'all':
      return 'Tasks';
    case 'mine':
      return 'Your tasks';
    case 'review':
      return 'Tasks in review';
    case 'unassigned':
      return 'Unassigned tasks';
    case 'words':
      return `Tasks matching “${filter.words}”`;
  }
}

/** A page of tasks, each with its state buttons, Assign… and Details; More when there are more. */
export function tasksListMessage(
  tasks: readonly TaskView[],
  filter: TaskFilter,
  page: number,
  query: string,
): ReturnType<typeof message> {
  const title = filterTitle(filter);
  if (tasks.length === 0) {
    const none = md`*${title}*: none.`;
    return message(none, [section(none)]);
  }
  const pages = Math.ceil(tasks.length / TASKS_PAGE_SIZE);
  const current = Math.min(Math.max(1, page), pages);
  const shown = tasks.slice((current - 1) * TASKS_PAGE_SIZE, current * TASKS_PAGE_SIZE);
  const blocks: KnownBlock[] = [header(`${title} (${tasks.length})`)];
  shown.forEach((task, i) => {
    const feature = task.featureHeading ? md` · ${inline(task.featureHeading, 80)}` : md``;
    const value = pressValue(task, { list: true });
    blocks.push(
      section(md`*${inline(task.heading, LIMITS.heading)}*\n${taskFacts(task)}${feature}`),
      actions(
        `${TASK_LIST_BLOCK_PREFIX}${i}`,
        ...taskStateButtons(task, { list: true }),
        button('Assign…', ACTION.taskAssignOpen, { value }),
        button('Details', ACTION.taskDetailsOpen, { value }),
      ),
    );
  });
  if (current < pages) {
    const more: TasksMore = { q: query, p: current + 1 };
    blocks.push(
      context(md`Page ${current} of ${pages}.`),
      actions(undefined, button('More', ACTION.tasksMore, { value: JSON.stringify(more) })),
    );
  }
  return message(md`${title}: ${plural(tasks.length, 'task')}`, blocks);
}

// ---------------------------------------------------------------------------------------------
// Assign…
// ---------------------------------------------------------------------------------------------

/** The Yerkes-Dodson score in plain language: 90+ a great fit, 40+ a good fit. */
export function fitLabel(score: number | undefined): string {
  if (score === undefined) return 'fit unknown';
  if (score >= 90) return 'great fit';
  if (score >= 40) return 'good fit';
  return 'weak fit';
}

/** A candidate as one option: name, fit, load of features. */
export function candidateOption(c: Candidate): PlainTextOption {
  const load = c.userFeatures === undefined ? '' : ` · ${plural(c.userFeatures, 'feature')} on their plate`;
  const score = c.ydScore === undefined ? '' : ` (${Math.round(c.ydScore)})`;
  return option(`${c.userName ?? c.userId} — ${fitLabel(c.ydScore)}${score}${load}`, c.userId);
}

/** Candidates best first (the service ranks them; sorted again so the order never depends on it). */
export function rankCandidates(candidates: readonly Candidate[]): Candidate[] {
  return [...candidates].sort((a, b) => (b.ydScore ?? -1) - (a.ydScore ?? -1));
}

/** The value of "Assign to me" in the picker. */
export const ASSIGN_ME = 'me';

export const ASSIGN_TITLE = 'Assign task';

export function assignModal(form: {
  coords: TaskCoords;
  heading: string;
  candidates: readonly Candidate[];
  problem?: Mrkdwn;
}): ModalView {
  const ranked = rankCandidates(form.candidates);
  // The picker holds at most 100 options: "Assign to me" and the 99 best candidates.
  const options = [option('Assign to me', ASSIGN_ME), ...ranked.slice(0, 99).map(candidateOption)];
  return modal({
    callbackId: VIEW.taskAssign,
    title: ASSIGN_TITLE,
    submit: 'Assign',
    close: 'Cancel',
    privateMetadata: JSON.stringify(TaskCoords.parse(form.coords)),
    blocks: [
      section(md`Who should do *${inline(form.heading, LIMITS.heading)}*?`),
      input(
        'Candidates (best fit first)',
        FIELD.candidate.block,
        { type: 'static_select', action_id: FIELD.candidate.action, options },
        { optional: true, hint: 'Fit weighs their grades on the task’s notions against how busy they are.' },
      ),
      input(
        'Or anyone in the workspace',
        FIELD.assignee.block,
        { type: 'users_select', action_id: FIELD.assignee.action },
        { optional: true, hint: 'They are set up in the planning service if they are not yet.' },
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Log discovery
// ---------------------------------------------------------------------------------------------

/** What the discovery modal remembers: the task when known, else the planning channel to pick from. */
export const DiscoveryMeta = z.object({
  c: TaskCoords.optional(),
  l: z.object({ teamId: z.string(), channelId: z.string() }).optional(),
});
export type DiscoveryMeta = z.infer<typeof DiscoveryMeta>;

export const DISCOVERY_TITLE = 'Log discovery';

/** A picked task in the discovery select: `<featureId>|<taskId>`. */
export function taskOptionValue(featureId: string, taskId: string): string {
  return `${featureId}|${taskId}`;
}
export function parseTaskOptionValue(value: string): { featureId: string; taskId: string } | undefined {
  const [featureId, taskId, ...rest] = value.split('|');
  return featureId && taskId && rest.length === 0 ? { featureId, taskId } : undefined;
}

export function discoveryModal(form: {
  meta: DiscoveryMeta;
  heading?: string;
  text: string;
  picked?: { value: string; label: string };
  problem?: Mrkdwn;
}): ModalView {
  const where: KnownBlock[] = form.meta.c
    ? [section(md`On task *${inline(form.heading ?? 'this task', LIMITS.heading)}*`)]
    : [
        input('Task', FIELD.discoveryTask.block, {
          type: 'external_select',
          action_id: FIELD.discoveryTask.action,
          min_query_length: 0,
          placeholder: { type: 'plain_text', text: "Search this channel's tasks" },
          ...(form.picked ? { initial_option: option(form.picked.label, form.picked.value) } : {}),
        }),
      ];
  return modal({
    callbackId: VIEW.discovery,
    title: DISCOVERY_TITLE,
    submit: 'Log',
    close: 'Cancel',
    privateMetadata: JSON.stringify(DiscoveryMeta.parse(form.meta)),
    blocks: [
      ...where,
      input(
        'Discovery',
        FIELD.discovery.block,
        textInput(FIELD.discovery.action, { multiline: true, max: LIMITS.minuteText, value: form.text }),
      ),
      context(md`Discoveries go in the task's minutes, for the current iteration.`),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

/** The confirmation posted in the task card's thread. */
export function discoveryLogged(by: string, heading: string, text: string) {
  const line = md`:bulb: ${mention(by)} logged a discovery on *${inline(heading, LIMITS.heading)}*:`;
  return message(line, [section(line), section(quote(truncate(text, LIMITS.minuteText)))]);
}

// ---------------------------------------------------------------------------------------------
// Edit
// ---------------------------------------------------------------------------------------------

export const EDIT_TITLE = 'Edit task';

export function taskEditModal(form: {
  coords: TaskCoords;
  heading: string;
  details?: string;
  notions: readonly { id: string; value?: string }[];
  problem?: Mrkdwn;
}): ModalView {
  const initial = form.notions.slice(0, SLACK_LIMITS.options).map((n) => option(n.value ?? n.id, n.id));
  return modal({
    callbackId: VIEW.taskEdit,
    title: EDIT_TITLE,
    submit: 'Save',
    close: 'Cancel',
    privateMetadata: JSON.stringify(TaskCoords.parse(form.coords)),
    blocks: [
      input(
        'Heading',
        FIELD.heading.block,
        textInput(FIELD.heading.action, { max: LIMITS.heading, value: form.heading }),
      ),
      input(
        'Details',
        FIELD.details.block,
        textInput(FIELD.details.action, { multiline: true, max: LIMITS.details, value: form.details }),
        { optional: true },
      ),
      input(
        'Notions',
        FIELD.taskNotions.block,
        {
          type: 'multi_external_select',
          action_id: FIELD.taskNotions.action,
          min_query_length: 0,
          ...(initial.length > 0 ? { initial_options: initial } : {}),
        },
        { optional: true, hint: 'What the task needs to know; candidates are ranked on them.' },
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

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

/** What a minute entry's Edit and Delete buttons carry. */
export const MinuteRef = TaskCoords.extend({ k: z.enum(['d', 'f']), id: z.string().min(1) });
export type MinuteRef = z.infer<typeof MinuteRef>;

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
      callbackId: VIEW.taskDetails,
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
      const ref: MinuteRef = { ...coords, k: e.kind === 'discovery' ? 'd' : 'f', id: e.id };
      const value = JSON.stringify(ref);
      blocks.push(
        actions(
          undefined,
          button('Edit', ACTION.minuteEditOpen, { value }),
          button('Delete', ACTION.minuteDelete, {
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
    callbackId: VIEW.taskDetails,
    title: DETAILS_TITLE,
    privateMetadata: JSON.stringify(coords),
    blocks: [...top, ...entryBlocks, ...(left > 0 ? [context(md`…and ${left} older not shown.`)] : [])],
  });
}

/** The edit form of one's own discovery or feedback. */
export function minuteEditModal(form: { ref: MinuteRef; text: string; problem?: Mrkdwn }): ModalView {
  const what = form.ref.k === 'd' ? 'discovery' : 'feedback';
  return modal({
    callbackId: VIEW.minuteEdit,
    title: form.ref.k === 'd' ? 'Edit discovery' : 'Edit feedback',
    submit: 'Save',
    close: 'Cancel',
    privateMetadata: JSON.stringify(MinuteRef.parse(form.ref)),
    blocks: [
      input(
        form.ref.k === 'd' ? 'Discovery' : 'Feedback',
        FIELD.minuteText.block,
        textInput(FIELD.minuteText.action, { multiline: true, max: LIMITS.minuteText, value: form.text }),
      ),
      context(md`Only the text of your ${what} changes.`),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}
