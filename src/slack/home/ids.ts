/** The Home tab's own wire ids: the notification preferences. */
export const HOME_ACTION = {
  /** Which DMs a person gets (checkboxes). */
  notifyKinds: 'notify_kinds',
  /** Quiet hours (selects). */
  quietStart: 'quiet_start',
  quietEnd: 'quiet_end',
  /** “Let workflow steps act for me” (a checkbox, off by default). */
  workflowActFor: 'workflow_act_for',
} as const;
