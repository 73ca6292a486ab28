/**
 * The workflows topic's wire ids: each Workflow Builder step's callback id and its parameters'
 * names. Workflows built on a step keep them: they never change once shipped.
 */
export const WORKFLOW_STEP = {
  createTask: 'create_task',
  logDiscovery: 'log_discovery',
  postFeatureStatus: 'post_feature_status',
  advanceFeature: 'advance_feature',
} as const;

/** Input and output names, shared by the steps that take or give the same thing. */
export const STEP_PARAM = {
  channel: 'channel',
  planningTeam: 'planning_team_id',
  planningChannel: 'planning_channel_id',
  feature: 'feature',
  heading: 'heading',
  details: 'details',
  assignee: 'assignee',
  actAs: 'act_as',
  /** Who ran the workflow, as Slack gives it from the trigger (`interactor.id`). */
  interactivity: 'interactivity',
  taskId: 'task_id',
  discovery: 'discovery',
  permalink: 'card_permalink',
  stage: 'stage',
} as const;
