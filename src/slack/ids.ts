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
  /** Tasks (issue 12): a message becomes a discovery of a task. */
  logDiscovery: 'log_discovery',
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
  /** The admin modal (/plan admin, the Home tab's admin button) and the section views it pushes. */
  admin: 'admin',
  adminSection: 'admin_section',
  /** Admin forms: an invitation (new or edited), sharing one, one name, a Slack person, a Slack channel to link. */
  adminInvitation: 'admin_invitation',
  adminShare: 'admin_share',
  adminName: 'admin_name',
  adminPerson: 'admin_person',
  adminLinkPick: 'admin_link_pick',
  // Tasks (issue 12): the task card's forms.
  taskAssign: 'task_assign',
  discovery: 'discovery',
  taskDetails: 'task_details',
  taskEdit: 'task_edit',
  minuteEdit: 'minute_edit',
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
  // Tasks (issue 12): the live task card's buttons (two state buttons need two ids in one block).
  taskStateForward: 'task_state_forward',
  taskStateBack: 'task_state_back',
  taskAssignOpen: 'task_assign_open',
  taskDiscoveryOpen: 'task_discovery_open',
  taskDetailsOpen: 'task_details_open',
  taskEditOpen: 'task_edit_open',
  taskDelete: 'task_delete',
  /** Edit / Delete on one's own discovery or feedback in the Details modal. */
  minuteEditOpen: 'minute_edit_open',
  minuteDelete: 'minute_delete',
  /** The next page of `/plan tasks`. */
  tasksMore: 'tasks_more',
  // Account and Home tab (issue 14).
  /** Closes the person's own planning account and disconnects (behind a confirmation). */
  accountClose: 'account_close',
  /** Disconnects (the Home tab's button; /plan disconnect does the same). */
  disconnect: 'disconnect',
  /** The Home tab's notification kinds (checkboxes) and quiet hours (selects). */
  notifyKinds: 'notify_kinds',
  quietStart: 'quiet_start',
  quietEnd: 'quiet_end',
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

/**
 * The admin modal's buttons. Each verb has its own id (one block holds several buttons, and action
 * ids are unique within a block); what it acts on travels in the button's value.
 */
export const ADMIN_ACTION = {
  /**
   * Navigation: a section of the root view (pushed); within a section view, going to another place
   * (a page, a team's channels, a channel's members, back) updates the view in place.
   */
  section: 'admin_section',
  pagePrevious: 'admin_page_previous',
  pageNext: 'admin_page_next',
  open: 'admin_open_place',
  back: 'admin_back',
  /** Opens one of the admin forms (pushed): `admin_form_<form>`, the value says for what. */
  form: 'admin_form',
  /** Changes applied at once (confirmed where they destroy), once however often they are sent. */
  closeAccount: 'admin_close_account',
  regenerate: 'admin_regenerate',
  revokeInvitation: 'admin_revoke_invitation',
  deleteTeam: 'admin_delete_team',
  deleteChannel: 'admin_delete_channel',
  deleteNotion: 'admin_delete_notion',
  removeChannelMember: 'admin_remove_channel_member',
  addProspect: 'admin_add_prospect',
  checkout: 'admin_checkout',
  changePlan: 'admin_change_plan',
  cancelSubscription: 'admin_cancel_subscription',
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
  /** Admin forms. */
  inviteTeam: field('invite_team'),
  inviteName: field('invite_name'),
  inviteRole: field('invite_role'),
  inviteDays: field('invite_days'),
  inviteUses: field('invite_uses'),
  shareChannel: field('share_channel'),
  sharePerson: field('share_person'),
  name: field('name'),
  description: field('description'),
  person: field('person'),
  slackChannel: field('slack_channel'),
  /** The admin sections' search box (dispatches on Enter). */
  search: field('admin_search'),
  // Tasks (issue 12).
  candidate: field('candidate'),
  discovery: field('discovery'),
  discoveryTask: field('discovery_task'),
  taskNotions: field('task_notions'),
  minuteText: field('minute_text'),
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

/** Block id prefix of a task's actions in a `/plan tasks` list (one block per task). */
export const TASK_LIST_BLOCK_PREFIX = 'task_actions|';
/** Metadata event type carried by feature cards (with the feature's coordinates). */
export const FEATURE_CARD_EVENT = 'planning_feature';
/** Block id prefix of a feature card's first section: `feature|<team>|<channel>|<feature>`. */
export const FEATURE_CARD_BLOCK_PREFIX = 'feature|';
