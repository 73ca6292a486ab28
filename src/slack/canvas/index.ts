/**
 * The plan as a channel canvas (issue 37): the canvas markdown (render.ts, escape.ts) and how it is
 * kept current (keeper.ts) — turned on from the link settings, edited after each change through the
 * change funnel and the watch, and by the minute tick.
 */
export { canvasLink, canvasMention, canvasText } from './escape.js';
export {
  CANVAS_DEBOUNCE_MS,
  CANVAS_REFUSALS,
  type CanvasKeeper,
  type CanvasKeeperDeps,
  type CanvasOutcome,
  createCanvasKeeper,
} from './keeper.js';
export * from './render.js';
