/**
 * The daily digest: settings parser, pure composer, time-zone logic, the exactly-once scheduler,
 * `/plan digest now`, and the private peer-grade notice. main.ts starts the scheduler from here.
 */
import { createDigestScheduler, type DigestSchedulerDeps, type TickReport } from './scheduler.js';

export { type PlanningAccessOptions, planningAccessFor } from './access.js';
export { DIGEST_USAGE, DIGEST_USAGE_LINES, type DigestCommand, parseDigestCommand } from './command.js';
export { type ComposedDigest, composeDigest, type DigestContext } from './compose.js';
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
  type PeerGradeCounts,
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

export interface RunningDigestScheduler {
  /** Stops waking up and waits for the pass in progress (digests in flight are posted and recorded). */
  stop(): Promise<void>;
  /** One pass now (or as of `now`); resolves with what it did. */
  tick(now?: Date): Promise<TickReport>;
}

/**
 * Starts the digest scheduler: it wakes every minute (`intervalMs`) and posts each linked channel's
 * digest once per local day.
 *
 * @example
 * const clients = createClients({ planningUrl, slackApiUrl: config.SLACK_API_URL, logger });
 * const digest = startDigestScheduler({
 *   store, logger,
 *   botTokenFor: async () => config.SLACK_BOT_TOKEN,
 *   planningClientFor: planningAccessFor({ store, clients, adminToken: config.PLANNING_ADMIN_TOKEN }),
 *   slackClientFor: clients.slack,
 * });
 * // on shutdown
 * await digest.stop();
 */
export function startDigestScheduler(deps: DigestSchedulerDeps): RunningDigestScheduler {
  const scheduler = createDigestScheduler(deps);
  scheduler.start();
  return { stop: () => scheduler.stop(), tick: (now) => scheduler.tick(now) };
}
