/** What other topics use of the features topic: its routes, the feature card's ids and live cards. */
export { type FeatureCoords, featureCard, parseFeatureButton } from './card.js';
export { FEATURE_ACTION } from './ids.js';
export {
  advanceAs,
  featureCards,
  featureOnCard,
  featureRef,
  postFeatureCard,
  pressAdvance,
  type Req,
  readFeatureView,
  readOnly,
  request,
  stale,
} from './live.js';
export { featureRoutes } from './routes.js';
