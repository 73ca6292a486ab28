/**
 * The watch of linked channels (issue 24): the pass that reads each linked channel's features at an
 * interval and compares them with what it saw (pass.ts), what it keeps and compares (changes.ts),
 * and where it hands the changes (sink.ts: the Slack side implements it, so nothing here imports
 * from src/slack/). The app's minute tick (src/app/jobs.ts) runs the pass.
 */
export * from './changes.js';
export {
  compare,
  createWatch,
  MAX_WATCHED_FEATURES,
  nextDue,
  WATCH_PAGE_SIZE,
  type Watch,
  type WatchDeps,
  type WatchedFeature,
  type WatchMetrics,
  type WatchReport,
  type WatchStore,
} from './pass.js';
export type { WatchSink, WatchTurn } from './sink.js';
