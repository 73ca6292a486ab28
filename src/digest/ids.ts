/**
 * Every id the digest puts into Slack. The digest owns them; the Slack app binds the Advance button
 * by importing them from here (the digest knows nothing of the Slack app).
 */
import { z } from 'zod';
import { type Confirm, inline, md } from '../blockkit/index.js';
import { FEATURE_STAGES, type FeatureStage } from '../planning/models.js';
import { STAGE_NAMES } from '../planning/stages.js';

/** `metadata.event_type` of every digest message; its payload is `{ local_date, channel }`. */
export const DIGEST_EVENT_TYPE = 'planning_digest';

/** Buttons in the digest the Slack app answers. */
export const DIGEST_ACTIONS = {
  /** Advance a feature; the value is an {@link AdvanceButtonValue}. */
  advanceFeature: 'digest_feature_advance',
} as const;

/**
 * The value of an Advance button: which feature to advance. One schema for the composer that writes
 * it and the listener that reads it back (it returns from Slack as text, so it is checked).
 */
export const AdvanceButtonValue = z.object({
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  featureId: z.string().min(1),
  /**
   * The stage the button was shown for: a press (or Slack's retry of it) on a feature that has
   * moved on since is refused instead of advancing it again. Digests posted before it existed lack it.
   */
  stage: z.enum(FEATURE_STAGES).optional(),
});
export type AdvanceButtonValue = z.infer<typeof AdvanceButtonValue>;

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

/**
 * The confirmation dialog of every Advance button — the digest's and the feature card's: it names
 * the stage the feature moves to.
 */
export function advanceConfirm(heading: string, next: FeatureStage): Confirm {
  return {
    title: `Advance to ${STAGE_NAMES[next]}?`,
    text: md`*${inline(heading, 150)}* moves to *${STAGE_NAMES[next]}*. A stage is never moved back.`,
    confirm: `Advance to ${STAGE_NAMES[next]}`,
    style: 'primary',
  };
}
