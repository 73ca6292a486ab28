/**
 * The change funnel (funnel.ts): what follows a change of a task or a feature — its cards, notes for
 * the watch, DMs, thread activity — in one place. Flows describe their change (change.ts) and call
 * `svc.changes.changed(…)`; the watch's Slack side does the same for what it saw. Nothing outside
 * this folder updates a card, writes a note or sends a DM about a change (.dependency-cruiser.cjs).
 */
export { type Who, whoFrom } from './activity.js';
export {
  type CanvasReflection,
  type CardSources,
  type ChangeDm,
  type ChangeOrigin,
  type FeatureFacts,
  type FeaturePlace,
  type KnownCards,
  type MinuteEntry,
  madeFromSlack,
  type OnCard,
  type PlanningChange,
  type Reflected,
  type TaskFacts,
} from './change.js';
export { type ChangeFunnel, createChangeFunnel, type FunnelDeps } from './funnel.js';
