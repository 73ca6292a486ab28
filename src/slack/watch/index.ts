/**
 * The watch's Slack side (issue 24): what the watch of linked channels (src/watch/) found changed
 * outside Slack reaches the cards, their threads and the people concerned. The watch pass imports
 * nothing from slack/; the app gives it this sink (src/app/jobs.ts).
 */
export { createWatchSlackSide, type WatchSlackDeps } from './side.js';
