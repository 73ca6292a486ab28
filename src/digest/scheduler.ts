/**
 * The daily digest scheduler. Every minute it walks the links with the digest on, and for each one
 * whose local digest time has come today (see `time.ts`) it claims (link, local date) in the store —
 * the claim is what makes a digest exactly-once across replicas and restarts — then gathers,
 * composes, posts and records the outcome with the snapshot for tomorrow.
 *
 * Failures never post: a service error or a Slack error is recorded as failed with a retry time
 * (exponential backoff), and the store hands the claim out again after it. A later attempt first
 * looks for its own message in the channel history, because the process may have died between
 * posting and recording.
 *
 * Concurrency is bounded per Slack workspace (posts) and per planning organization (reads).
 *
 * With `peerGrades` set, a workspace's connected people also get their private peer-grade notice
 * (see peer-grades.ts) once a day, in the pass where the workspace's first digest of the day is due.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../logger.js';
import type { PlanningClient } from '../planning/index.js';
import type {
  ChannelLink,
  ChannelLinksRepo,
  DigestClaimsRepo,
  IdentitiesRepo,
  NotificationsRepo,
} from '../store/index.js';
import { composeDigest } from './compose.js';
import { describeFailure, retryAfterMs } from './failure.js';
import { type GatherOptions, gatherDigestData } from './gather.js';
import { keyedLimit } from './limit.js';
import { sendPeerGradeNotices } from './peer-grades.js';
import { findPostedDigest, postDigest, slackErrorCode, type WebClient } from './slack.js';
import { previousDigest, serializeSnapshot } from './snapshot.js';
import { dueLocalDate, startOfLocalDay } from './time.js';

/** Which planning token reads a link's data, and the organization it belongs to. */
export interface PlanningAccess {
  client: PlanningClient;
  /** Key of the per-organization limit. */
  orgId: string;
}

/** The parts of the store the scheduler uses. */
export interface DigestStore {
  links: Pick<ChannelLinksRepo, 'listDigestEnabled'>;
  digests: Pick<DigestClaimsRepo, 'claim' | 'complete' | 'lastPosted'>;
}

export interface DigestSchedulerDeps {
  store: DigestStore;
  /** The bot token that posts in a workspace (single-workspace token, or the installation's in OAuth mode). */
  botTokenFor(workspaceId: string): Promise<string | undefined>;
  /** The planning client that reads a link's data; undefined when the workspace has no usable token. */
  planningClientFor(link: ChannelLink): Promise<PlanningAccess | undefined>;
  logger: Logger;
  /** A Slack client for a bot token (`Clients.slack`: no blind resends, 429 surfaced). */
  slackClientFor(botToken: string): WebClient;
  /** Current time. Default `() => new Date()`. */
  clock?: () => Date;
  /** Between wake-ups, ms. Default 60 000. */
  intervalMs?: number;
  /** Replaces setInterval (tests); returns a function that cancels it. */
  setTimer?: (run: () => void, intervalMs: number) => () => void;
  /** Waits for Slack's Retry-After (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
  /** Unique per process. Default `host:pid:random`. */
  owner?: string;
  /** How long a claim protects one digest's work. Default 10 minutes. */
  leaseMs?: number;
  /** Attempts per (link, local date) before giving the day up. Default 5. */
  maxAttempts?: number;
  /** First retry delay after a failure, doubled per attempt, capped at 2 hours. Default 5 minutes. */
  retryBaseMs?: number;
  /** Digests in progress at once per Slack workspace. Default 2. */
  perWorkspace?: number;
  /** Digests reading from one planning organization at once. Default 4. */
  perOrganization?: number;
  gather?: GatherOptions;
  /** Daily private peer-grade notices; off when absent. */
  peerGrades?: {
    identities: Pick<IdentitiesRepo, 'listByWorkspace'>;
    /** Each person's notification preferences (the notice is a DM like any other). */
    notifications: Pick<NotificationsRepo, 'prefs' | 'enqueue'>;
    /** A planning client acting as one person, with their own token. */
    planningClientFor(token: string): PlanningClient;
  };
  /**
   * Other minute-grained work run at the end of every pass (the DMs held back by quiet hours, see
   * src/slack/notify.ts), so the process keeps one timer. Its failures are logged, never thrown.
   */
  everyTick?: (now: Date) => Promise<unknown>;
}

/** What one tick did, for logs, tests and the benchmark. */
export interface TickReport {
  /** Links whose digest was due and not known to be done. */
  due: number;
  posted: number;
  /** Found already posted in the channel history after a crash, and recorded. */
  recovered: number;
  failed: number;
  /** Claims refused: posted elsewhere, held by another process, waiting to retry, or given up. */
  notClaimed: number;
}

export interface DigestScheduler {
  /** Runs one pass as of `now` and resolves when every digest it started is posted or recorded. */
  tick(now?: Date): Promise<TickReport>;
  /** Wakes every `intervalMs`; a wake-up while a pass is still running is skipped. */
  start(): void;
  /** Stops waking up and waits for the pass in progress. */
  stop(): Promise<void>;
}

const MAX_RETRY_DELAY_MS = 2 * 60 * 60 * 1000;

/** Creates a scheduler; nothing runs until `start()` or `tick()`. */
export function createDigestScheduler(deps: DigestSchedulerDeps): DigestScheduler {
  const clock = deps.clock ?? (() => new Date());
  const owner = deps.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = deps.leaseMs ?? 10 * 60 * 1000;
  const retryBaseMs = deps.retryBaseMs ?? 5 * 60 * 1000;
  const maxAttempts = deps.maxAttempts ?? 5;
  const byWorkspace = keyedLimit(deps.perWorkspace ?? 2);
  const byOrganization = keyedLimit(deps.perOrganization ?? 4);
  const log = deps.logger.child({ component: 'digest' });
  /** The local date last known done (posted or given up) per link: skips the store on later ticks. */
  const doneDate = new Map<string, string>();
  /** The local date each workspace's peer-grade check last completed without failures. */
  const peerGradesDate = new Map<string, string>();
  const slackClient = deps.slackClientFor;
  let current: Promise<TickReport> | undefined;
  let cancelTimer: (() => void) | undefined;

  async function tick(now = clock()): Promise<TickReport> {
    const report: TickReport = { due: 0, posted: 0, recovered: 0, failed: 0, notClaimed: 0 };
    const runs: Promise<void>[] = [];
    /** Workspaces whose peer-grade check is due: the local date and zone of their first due link. */
    const peerGradesDue = new Map<string, { localDate: string; timeZone: string }>();
    for await (const link of deps.store.links.listDigestEnabled()) {
      let localDate: string | undefined;
      try {
        localDate = dueLocalDate(link, now);
      } catch (error) {
        log.error({ err: error, slackChannelId: link.slackChannelId }, 'digest: bad schedule on a link');
        continue;
      }
      if (
        deps.peerGrades &&
        localDate !== undefined &&
        peerGradesDate.get(link.workspaceId) !== localDate &&
        !peerGradesDue.has(link.workspaceId)
      ) {
        peerGradesDue.set(link.workspaceId, { localDate, timeZone: link.timeZone });
      }
      const key = linkKey(link);
      if (localDate === undefined || doneDate.get(key) === localDate) continue;
      report.due += 1;
      const date = localDate;
      runs.push(
        byWorkspace(link.workspaceId, () => runLink(link, date, report)).catch((error) => {
          // runLink records its own failures; this is the store itself failing.
          report.failed += 1;
          log.error({ err: error, ...where(link, date) }, 'digest: run failed');
        }),
      );
    }
    await Promise.all(runs);
    if (report.due > 0) log.info({ ...report }, 'digest: tick done');
    await Promise.all(
      [...peerGradesDue].map(([workspaceId, day]) =>
        byWorkspace(workspaceId, () => runPeerGrades(workspaceId, day, now)).catch((error) =>
          log.error({ err: error, workspaceId }, 'peer grades: pass failed'),
        ),
      ),
    );
    await deps.everyTick?.(now).catch((error) => log.error({ err: error }, 'digest: per-tick work failed'));
    return report;
  }

  /** One workspace's daily peer-grade check; per-person claims make it once a day across replicas. */
  async function runPeerGrades(
    workspaceId: string,
    day: { localDate: string; timeZone: string },
    now: Date,
  ): Promise<void> {
    const peerGrades = deps.peerGrades;
    if (!peerGrades) return;
    const token = await deps.botTokenFor(workspaceId);
    if (!token) return; // the workspace's digests already report the missing token
    const result = await sendPeerGradeNotices({
      store: {
        identities: peerGrades.identities,
        digests: deps.store.digests,
        notifications: peerGrades.notifications,
      },
      workspaceId,
      slack: slackClient(token),
      planningClientFor: peerGrades.planningClientFor,
      logger: deps.logger,
      owner,
      now,
      timeZone: day.timeZone,
    });
    // People whose check failed are retried by a later pass, once their claim's retry time is reached.
    if (result.failed === 0) peerGradesDate.set(workspaceId, day.localDate);
    if (result.checked + result.failed > 0) log.info({ workspaceId, ...result }, 'peer grades: checked');
  }

  async function runLink(link: ChannelLink, localDate: string, report: TickReport): Promise<void> {
    const key = { workspaceId: link.workspaceId, slackChannelId: link.slackChannelId, localDate };
    const claim = await deps.store.digests.claim({ ...key, owner, leaseMs, maxAttempts });
    if (!claim.claimed) {
      report.notClaimed += 1;
      if (claim.reason !== 'held') doneDate.set(linkKey(link), localDate);
      if (claim.reason === 'exhausted')
        log.warn(where(link, localDate), 'digest: every attempt failed; skipping the day');
      return;
    }
    const leaseEnd = Date.now() + leaseMs;
    const complete = (outcome: Parameters<DigestClaimsRepo['complete']>[0]['outcome']) =>
      deps.store.digests.complete({ ...key, owner, attempt: claim.attempt, outcome });
    try {
      const token = await deps.botTokenFor(link.workspaceId);
      if (!token) throw new DigestSetupError('no Slack bot token for this workspace');
      const slack = slackClient(token);
      const last = await deps.store.digests.lastPosted(link.workspaceId, link.slackChannelId);
      const previous = previousDigest(last);

      if (claim.attempt > 1) {
        const ts = await findPostedDigest(
          slack,
          link.slackChannelId,
          localDate,
          startOfLocalDay(localDate, link.timeZone),
        ).catch((error: unknown) => {
          // An install from before the history scopes cannot look: a rare double post after a crash
          // is better than giving up every later attempt of the day.
          const code = slackErrorCode(error);
          if (code !== 'missing_scope' && code !== 'not_in_channel') throw error;
          log.warn(
            { ...where(link, localDate), attempt: claim.attempt, code },
            'digest: cannot read the channel history to look for an earlier post; posting anyway ' +
              '(reinstall the app to grant channels:history, groups:history and channels:join)',
          );
          return undefined;
        });
        if (ts) {
          // Posted by an attempt that died before recording it. Its snapshot is lost; carrying the
          // previous one forward keeps tomorrow's "advanced since" complete rather than empty.
          await complete({ status: 'posted', messageTs: ts, snapshot: last?.snapshot });
          report.recovered += 1;
          doneDate.set(linkKey(link), localDate);
          log.info({ ...where(link, localDate), attempt: claim.attempt }, 'digest: found already posted');
          return;
        }
      }

      const access = await deps.planningClientFor(link);
      if (!access) throw new DigestSetupError('no planning token for this workspace or the link creator');
      const data = await byOrganization(access.orgId, () =>
        gatherDigestData(access.client, link, {
          ...deps.gather,
          // Reading may use half the lease; the post must start in the next quarter (see postSafely).
          signal: AbortSignal.timeout(leaseMs / 2),
        }),
      );
      const composed = composeDigest(data, { localDate, timeZone: link.timeZone, previous });
      const ts = await postSafely(slack, link, localDate, composed, leaseEnd);
      const recorded = await complete({
        status: 'posted',
        messageTs: ts,
        snapshot: serializeSnapshot(composed.snapshot),
      });
      // Our lease ran out and another process holds the claim: its history check will find this post.
      if (!recorded)
        log.warn(where(link, localDate), 'digest: posted after losing the claim; left to its holder');
      report.posted += 1;
      doneDate.set(linkKey(link), localDate);
      log.info(
        { ...where(link, localDate), attempt: claim.attempt, unchanged: composed.unchanged },
        'digest: posted',
      );
    } catch (error) {
      report.failed += 1;
      const reason = describeFailure(error);
      const retryAt = clock().getTime() + retryDelay(claim.attempt, error);
      const recorded = await complete({ status: 'failed', error: reason, retryAt });
      log.warn(
        {
          ...where(link, localDate),
          attempt: claim.attempt,
          reason,
          retryAt: new Date(retryAt).toISOString(),
          recorded,
        },
        claim.attempt >= maxAttempts
          ? 'digest: failed for the last time today'
          : 'digest: failed; will retry',
      );
    }
  }

  /** Posts unless the lease is nearly over: past it, another process may be posting the same digest. */
  async function postSafely(
    slack: WebClient,
    link: ChannelLink,
    localDate: string,
    composed: ReturnType<typeof composeDigest>,
    leaseEnd: number,
  ): Promise<string> {
    const deadline = leaseEnd - leaseMs / 4;
    if (Date.now() > deadline) throw new Error('lease nearly expired before posting');
    return postDigest(slack, link.slackChannelId, localDate, composed, {
      deadline,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      onRateLimited: (seconds) =>
        log.warn(
          { ...where(link, localDate), retryAfterSeconds: seconds },
          'digest: Slack rate limit; waiting',
        ),
    });
  }

  function retryDelay(attempt: number, error: unknown): number {
    const backoff = Math.min(MAX_RETRY_DELAY_MS, retryBaseMs * 2 ** (attempt - 1));
    const retryAfter = retryAfterMs(error);
    return Math.max(backoff, retryAfter ?? 0);
  }

  const scheduler: DigestScheduler = {
    tick(now) {
      // One pass at a time per process: a pass that outlives the interval is not doubled.
      if (current) return current;
      current = tick(now).finally(() => {
        current = undefined;
      });
      return current;
    },
    start() {
      if (cancelTimer) return;
      const wake = () => {
        if (current) {
          log.debug('digest: previous pass still running; skipping this wake-up');
          return;
        }
        scheduler.tick().catch((error) => log.error({ err: error }, 'digest: pass failed'));
      };
      const interval = deps.intervalMs ?? 60_000;
      cancelTimer = deps.setTimer
        ? deps.setTimer(wake, interval)
        : (() => {
            const handle = setInterval(wake, interval);
            handle.unref();
            return () => clearInterval(handle);
          })();
    },
    async stop() {
      cancelTimer?.();
      cancelTimer = undefined;
      await current?.catch(() => undefined);
    },
  };
  return scheduler;
}

/** A digest that cannot run for want of configuration (a token), rather than a passing failure. */
export class DigestSetupError extends Error {
  override name = 'DigestSetupError';
}

function linkKey(link: Pick<ChannelLink, 'workspaceId' | 'slackChannelId'>): string {
  return `${link.workspaceId}\u0000${link.slackChannelId}`;
}

function where(link: ChannelLink, localDate: string) {
  return { workspaceId: link.workspaceId, slackChannelId: link.slackChannelId, localDate };
}
