/** The tasks topic's wire ids: its shortcuts, forms, the live card's buttons and the card's markers. */
import { field } from '../kit/ids.js';

/** Message shortcuts (declared in the manifest). */
export const TASK_SHORTCUT = {
  createTask: 'create_task',
  /** A message becomes a discovery of a task. */
  logDiscovery: 'log_discovery',
} as const;

/** The task forms' callback ids. */
export const TASK_VIEW = {
  create: 'create_task',
  assign: 'task_assign',
  discovery: 'discovery',
  details: 'task_details',
  edit: 'task_edit',
  minuteEdit: 'minute_edit',
  /** Delete's confirmation, opened only for who may delete the task. */
  deleteConfirm: 'task_delete_confirm',
} as const;

/** The live task card's buttons (two state buttons need two ids in one block), and its lists'. */
export const TASK_ACTION = {
  stateForward: 'task_state_forward',
  stateBack: 'task_state_back',
  assignOpen: 'task_assign_open',
  discoveryOpen: 'task_discovery_open',
  detailsOpen: 'task_details_open',
  editOpen: 'task_edit_open',
  /** Delete with Slack's confirmation dialog: where the card is one person's (a list), and on cards posted before. */
  delete: 'task_delete',
  /** Delete on a shared card, without a dialog: who may not delete is told why, who may gets the confirmation. */
  deleteAsk: 'task_delete_ask',
  /** Give feedback, on the card (the feedback topic answers it). */
  feedbackOpen: 'feedback_open',
  /** Edit / Delete on one's own discovery or feedback in the Details modal. */
  minuteEditOpen: 'minute_edit_open',
  minuteDelete: 'minute_delete',
  /** The next page of `/plan tasks`. */
  more: 'tasks_more',
} as const;

/** The task forms' inputs. */
export const TASK_FIELD = {
  /** The feature of a new task (searchable among its planning channel's features). */
  feature: field('feature'),
  assignee: field('assignee'),
  candidate: field('candidate'),
  discovery: field('discovery'),
  discoveryTask: field('discovery_task'),
  notions: field('task_notions'),
  minuteText: field('minute_text'),
} as const;

/** Metadata event type carried by task cards (with the task's coordinates). */
export const TASK_CARD_EVENT = 'planning_task';
/** Block id prefix of a task card's first section: `task|<team>|<channel>|<feature>|<task>`. */
export const TASK_CARD_BLOCK_PREFIX = 'task|';
/** Block id prefix of a task's actions in a `/plan tasks` list (one block per task). */
export const TASK_LIST_BLOCK_PREFIX = 'task_actions|';
