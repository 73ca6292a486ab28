/**
 * Every id the digest puts into Slack: the Slack app binds the action ids, the scheduler finds its
 * own messages again by the metadata event type.
 */

/** `metadata.event_type` of every digest message; its payload is `{ local_date, channel }`. */
export const DIGEST_EVENT_TYPE = 'planning_digest';

/** Buttons in the digest the Slack app binds. */
export const DIGEST_ACTIONS = {
  /** An Advance button; its value is an `AdvanceButtonValue` as JSON. */
  advanceFeature: 'digest_feature_advance',
} as const;

export const DIGEST_BLOCKS = {
  header: 'digest_header',
  unchanged: 'digest_unchanged',
  stages: 'digest_stages',
  newFeatures: 'digest_new',
  advanced: 'digest_advanced',
  canAdvance: 'digest_can_advance',
  inReview: 'digest_in_review',
  unassigned: 'digest_unassigned',
  feedback: 'digest_feedback',
  experiments: 'digest_experiments',
  footer: 'digest_footer',
} as const;
