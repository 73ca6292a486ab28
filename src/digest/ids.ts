/**
 * Every id the digest puts into Slack. The ones the Slack app binds or looks for live with all the
 * app's ids in src/slack/ids.ts; the block ids only matter to the digest message itself.
 */
import { DIGEST_ACTION, DIGEST_EVENT } from '../slack/ids.js';

/** `metadata.event_type` of every digest message; its payload is `{ local_date, channel }`. */
export const DIGEST_EVENT_TYPE = DIGEST_EVENT;
/** Buttons in the digest the Slack app binds. */
export const DIGEST_ACTIONS = DIGEST_ACTION;

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
