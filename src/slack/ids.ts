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
  // Features (issue 13): a new feature from anywhere; a message as evidence for an experiment.
  newFeature: 'new_feature',
  logEvidence: 'log_evidence',
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
  // Features (issue 13): new/edit feature, add/edit assumption, delete assumption, experiment, evidence.
  feature: 'feature',
  assumption: 'assumption',
  assumptionDelete: 'assumption_delete',
  experiment: 'experiment',
  evidence: 'evidence',
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
  // Feature cards (issue 13): their buttons, the assumption menu, and deep-context results.
  featureAdvance: 'feature_advance',
  featureAddAssumption: 'feature_add_assumption',
  featureAddTask: 'feature_add_task',
  featureEdit: 'feature_edit',
  featureDelete: 'feature_delete',
  featureDetails: 'feature_details',
  /** The overflow menu of an assumption on a feature card: edit, experiment, delete. */
  assumptionMenu: 'assumption_menu',
  deepContextRead: 'deep_context_read',
  deepContextDelete: 'deep_context_delete',
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
  // Feature, assumption, experiment and evidence forms (issue 13).
  priority: field('priority'),
  focus: field('focus'),
  assumption: field('assumption'),
  experimentState: field('experiment_state'),
  confirmed: field('confirmed'),
  participants: field('participants'),
  /** The feature select of the evidence form (its options are any stage but deep context). */
  evidenceFeature: field('evidence_feature'),
} as const;

/** Metadata event type carried by task cards (with the task's coordinates). */
export const TASK_CARD_EVENT = 'planning_task';
/** Block id prefix of a task card's first section: `task|<team>|<channel>|<feature>|<task>`. */
export const TASK_CARD_BLOCK_PREFIX = 'task|';

/** Metadata event type carried by feature cards (with the feature's coordinates). */
export const FEATURE_CARD_EVENT = 'planning_feature';
/** Block id prefix of a feature card's first section: `feature|<team>|<channel>|<feature>`. */
export const FEATURE_CARD_BLOCK_PREFIX = 'feature|';
