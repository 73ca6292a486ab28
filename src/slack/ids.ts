/**
 * Every callback_id, action_id and block_id the app uses, in one place: the manifest, the block
 * builders and the listener indexes all read them from here, so a rename cannot split them.
 */

/** The one slash command. */
export const COMMAND = '/plan';

/** Shortcut callback ids (declared in the manifest). */
export const SHORTCUT = {
  createTask: 'create_task',
  giveFeedback: 'give_feedback',
  gradePeer: 'grade_peer',
} as const;

/** Modal callback ids. */
export const VIEW = {
  /** A modal that is still loading or showing a result: it has nothing to submit. */
  info: 'info',
  connect: 'connect',
  connectAdmin: 'connect_admin',
  link: 'link',
  createTask: 'create_task',
  feedback: 'feedback',
  reply: 'reply',
  grade: 'grade',
} as const;

/** Action ids of buttons and selects outside input blocks (and of dispatching inputs). */
export const ACTION = {
  connectOpen: 'connect_open',
  feedbackOpen: 'feedback_open',
  replyOpen: 'reply_open',
  /** Picking a team refreshes the channel select (link and create-task modals). */
  teamPicked: 'team_picked',
  /** Opens the admin modal (the Home tab's admin section renders it; /plan admin opens the same). */
  adminOpen: 'admin_open',
  // Account and Home tab (issue 14).
  /** Closes the person's own planning account and disconnects (behind a confirmation). */
  accountClose: 'account_close',
  /** Disconnects (the Home tab's button; /plan disconnect does the same). */
  disconnect: 'disconnect',
  /** The Home tab's notification kinds (checkboxes) and quiet hours (selects). */
  notifyKinds: 'notify_kinds',
  quietStart: 'quiet_start',
  quietEnd: 'quiet_end',
} as const;

/** One input of a form: the block that holds it and the element's action id. */
export interface Field {
  readonly block: string;
  readonly action: string;
}

const field = (name: string): Field => ({ block: name, action: `${name}_input` });

/** Inputs, by form. Block ids are unique within each modal. */
export const FIELD = {
  token: field('token'),
  team: { block: 'team', action: ACTION.teamPicked } as Field,
  channel: field('channel'),
  digestTime: field('digest_time'),
  timeZone: field('time_zone'),
  digestOptions: field('digest_options'),
  feature: field('feature'),
  heading: field('heading'),
  details: field('details'),
  assignee: field('assignee'),
  issue: field('issue'),
  message: field('message'),
  reply: field('reply'),
  peer: field('peer'),
  notion: field('notion'),
  grade: field('grade'),
} as const;

/** Metadata event type carried by task cards (with the task's coordinates). */
export const TASK_CARD_EVENT = 'planning_task';
/** Block id prefix of a task card's first section: `task|<team>|<channel>|<feature>|<task>`. */
export const TASK_CARD_BLOCK_PREFIX = 'task|';
