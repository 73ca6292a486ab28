/** What other topics use of the features topic: its routes, the feature card's ids and live cards. */
export { type FeatureCoords, featureCard, parseFeatureButton } from './card.js';
export { FEATURE_ACTION } from './ids.js';
export {
  advanceAs,
  featureAdvancedDm,
  featureRef,
  postFeatureCard,
  pressAdvance,
  type Req,
  readFeatureView,
  readOnly,
  refreshFeatureCards,
  request,
  stale,
} from './live.js';
export { featureRoutes } from './routes.js';
