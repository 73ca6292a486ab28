/**
 * The daily digest: settings parser, pure composer, time-zone logic, the exactly-once scheduler,
 * `/plan digest now`, and the private peer-grade notice. It imports nothing from src/slack/: what
 * it posts goes through a Slack Web API client, and a notice's DM through a function, both given
 * by the app, whose minute tick (src/app/jobs.ts) runs the scheduler and the notices.
 */

export { type PlanningAccessOptions, planningAccessFor } from './access.js';
export { DIGEST_USAGE, DIGEST_USAGE_LINES, type DigestCommand, parseDigestCommand } from './command.js';
export { type ComposedDigest, composeDigest, type DigestContext, digestWithRowNow } from './compose.js';
export { type GatherOptions, gatherDigestData } from './gather.js';
export {
  AdvanceButtonValue,
  advanceConfirm,
  DIGEST_ACTIONS,
  DIGEST_BLOCKS,
  DIGEST_EVENT_TYPE,
} from './ids.js';
export { type DigestNowDeps, type DigestNowResult, postDigestNow } from './now.js';
export {
  countPeerGrades,
  createPeerGradeNotices,
  type PeerGradeCounts,
  type PeerGradeNotices,
  type PeerGradeNoticesDeps,
  type PeerGradeNotify,
  type PeerGradeSenderDeps,
  peerGradeNotice,
  sendPeerGradeNotices,
} from './peer-grades.js';
export {
  createDigestScheduler,
  type DigestScheduler,
  type DigestSchedulerDeps,
  DigestSetupError,
  type DigestStore,
  type PlanningAccess,
  type TickReport,
} from './scheduler.js';
export { buildSnapshot, type DigestData, type DigestSnapshot, type PreviousDigest } from './snapshot.js';
export { type DigestTiming, digestInstant, dueLocalDate, formatLocal, nextRun } from './time.js';
