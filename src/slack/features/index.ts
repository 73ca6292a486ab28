/**
 * What other topics use of the features topic: the feature card's ids and coordinates, Advance as a
 * press (the digest's button, a workflow step), a feature card posted (a step), the form helpers
 * Add task shares, the card's buttons (the assistant's answer about a feature), and how the change funnel reads a feature (src/slack/changes.ts).
 */
export { type FeatureCoords, featureButtons, parseFeatureButton } from './card.js';
export { FEATURE_ACTION } from './ids.js';
export {
  advanceAs,
  featureCards,
  postFeatureCard,
  pressAdvance,
  type Req,
  readOnly,
  request,
  stale,
} from './live.js';
