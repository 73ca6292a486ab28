/**
 * The daily digest scheduler. Each pass (the app's minute tick runs one, see src/app/jobs.ts) walks
 * the links with the digest on, and for each one
 * whose local digest time has come today (see `time.ts`) it claims (link, local date) in the store —
 * the claim is what makes a digest exactly-once across replicas and restarts — then gathers,
 * composes, posts and records the outcome with the snapshot for tomorrow.
 *
 * Only digests that were expected are posted: one missed while it was due (the app down, a post
 * failed) is caught up within a bounded window of its time, but a day whose time came before the
 * link was made, turned on or rescheduled gets none (`digestFrom`): its first digest is at its next
 * time.
 *
 * Failures never post: a service error or a Slack error is recorded as failed with a retry time
 * (exponential backoff), and the store hands the claim out again after it. A later attempt first
 * looks for its own message in the channel history, because the process may have died between
 * posting and recording, or an earlier post timed out here and still reached Slack; the history
 * failing to read fails the attempt (nothing is posted blind; only an install without the history
 * scopes posts unchecked). A post whose outcome is unknown (timed out, connection reset, a 5xx) is
 * retried no earlier than `latePostMs` after it failed, so that a late landing is in the history by
 * the time the retry looks. Passing failures (timeouts, resets, 429s, 5xx, aborted reads: overload)
 * do not use up the day's `maxAttempts`; they back off and are retried until the catch-up window
 * ends. Lasting ones (channel_not_found, a refused token, a 4xx from the service) give the day up
 * after `maxAttempts`. The store itself failing (unreachable, restarting) ends no pass and loses
 * no claim: what could not be claimed or read is left to a later pass, a claim whose outcome could
 * not be recorded comes back once its lease runs out — each logged.
 *
 * Concurrency is bounded per Slack workspace (posts), per planning organization (reads) and per
 * pass (all workspaces together), and the due links are read in keyset pages only as far ahead as
 * the runs have room for: memory stays flat however many channels are linked. Links whose turn has
 * come are claimed together, one batch of statements for what can start now (`claimMany`).
 *
 * `onDue` tells other daily work which links are due as the pass walks them: the private
 * peer-grade notices (see peer-grades.ts) follow each workspace's first digest of the day that way.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createPassQueue, drivePass, keyedLimit, withPostDeadline } from '../limits.js';
import { type Logger, withLogContext } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { PlanningClient } from '../planning/index.js';
import {
  type ChannelLink,
  type ChannelLinksRepo,
  type ClaimResult,
  type DigestClaimsRepo,
  MAX_CLAIM_BATCH,
} from '../store/index.js';
import { type ComposedDigest, composeDigest, type DigestContext } from './compose.js';
import {
  describeFailure,
  isTransientFailure,
  LeaseNearlyOverError,
  PostOutcomeUnknownError,
  postMayHaveLanded,
  retryAfterMs,
} from './failure.js';
import { type GatherOptions, gatherDigestData } from './gather.js';
import { type DigestSlack, findPostedDigest, postDigest, slackErrorCode, type WebClient } from './slack.js';
import { type DigestData, previousDigest, serializeSnapshot } from './snapshot.js';
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
  digests: Pick<DigestClaimsRepo, 'claim' | 'claimMany' | 'complete' | 'lastPosted'>;
}

export interface DigestSchedulerDeps {
  store: DigestStore;
  /** The bot token that posts in a workspace (single-workspace token, or the installation's in OAuth mode). */
  botTokenFor(workspaceId: string): Promise<string | undefined>;
  /** The planning client that reads a link's data; undefined when the workspace has no usable token. */
  planningClientFor(link: ChannelLink): Promise<PlanningAccess | undefined>;
  logger: Logger;
  /**
   * The Slack client every workspace's digest goes through, with no token of its own: each call
   * carries the workspace's bot token (`Clients.slackBots`: through the one Slack sender).
   */
  slack: WebClient;
  /** Current time. Default `() => new Date()`. */
  clock?: () => Date;
  /** Unique per process. Default `host:pid:random`. */
  owner?: string;
  /** How long a claim protects one digest's work. Default 10 minutes. */
  leaseMs?: number;
  /**
   * Attempts per (link, local date) before giving the day up, not counting those that failed for a
   * passing reason (overload: those are retried until the catch-up window ends). Default 5.
   */
  maxAttempts?: number;
  /**
   * First retry delay after a failure, doubled per attempt, capped at 2 hours (15 minutes for a
   * passing failure). Default 5 minutes.
   */
  retryBaseMs?: number;
  /**
   * How long after a post whose outcome is unknown failed here (timed out, connection reset) it may
   * still land in Slack: its retry, and the retry's look in the channel history, come no earlier.
   * Default 2 minutes.
   */
  latePostMs?: number;
  /** Digests in progress at once per Slack workspace. Default 2. */
  perWorkspace?: number;
  /** Digests reading from one planning organization at once. Default 4. */
  perOrganization?: number;
  /** Digests in progress at once in one pass, all workspaces together. Default 200. */
  maxInFlight?: number;
  /** Due links read ahead of their runs, at most (their workspaces' turns wait). Default 2 000. */
  readAhead?: number;
  gather?: GatherOptions;
  /**
   * How long after its time a missed digest is still posted (same local day). Default
   * `DIGEST_CATCH_UP_MS` (4 hours).
   */
  catchUpMs?: number;
  /**
   * Told of every link whose digest is due in this pass, posted already or not, with its local
   * date, as the pass walks the links (the peer-grade notices learn each workspace's day from it).
   */
  onDue?: (link: ChannelLink, localDate: string) => void;
  /** Counts each attempt's outcome (posted, recovered, retried, failed). */
  metrics?: Pick<Metrics, 'digests'>;
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
  /**
   * The store failed while the pass read the links (unreachable, restarting): the links after
   * that point were not looked at, and `due` does not count them. The next pass reads them again.
   */
  unread: boolean;
}

export interface DigestScheduler {
  /**
   * Runs one pass as of `now` and resolves when every digest it started is posted or recorded. A
   * call while a pass is running gets that pass: one at a time per process.
   */
  tick(now?: Date): Promise<TickReport>;
}

const MAX_RETRY_DELAY_MS = 2 * 60 * 60 * 1000;
/** A passing failure is retried at least this often, so that the catch-up window holds many tries. */
const MAX_TRANSIENT_RETRY_DELAY_MS = 15 * 60 * 1000;

/** A link whose digest is due for a local date, waiting for its turn in a pass. */
interface Due {
  link: ChannelLink;
  localDate: string;
}

/** Creates a scheduler; nothing runs until `tick()`. */
export function createDigestScheduler(deps: DigestSchedulerDeps): DigestScheduler {
  const clock = deps.clock ?? (() => new Date());
  const owner = deps.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = deps.leaseMs ?? 10 * 60 * 1000;
  const retryBaseMs = deps.retryBaseMs ?? 5 * 60 * 1000;
  const maxAttempts = deps.maxAttempts ?? 5;
  const latePostMs = deps.latePostMs ?? 2 * 60 * 1000;
  const perWorkspace = deps.perWorkspace ?? 2;
  const maxInFlight = deps.maxInFlight ?? 200;
  const readAhead = deps.readAhead ?? 2_000;
  for (const [name, value] of Object.entries({ perWorkspace, maxInFlight, readAhead })) {
    // A bound below one would start nothing and end the pass with links left waiting.
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number ≥ 1`);
  }
  const byOrganization = keyedLimit(deps.perOrganization ?? 4);
  const log = deps.logger.child({ component: 'digest' });
  /** The local date last known done (posted or given up) per link: skips the store on later ticks. */
  const doneDate = new Map<string, string>();
  let current: Promise<TickReport> | undefined;

  async function tick(now = clock()): Promise<TickReport> {
    const report: TickReport = { due: 0, posted: 0, recovered: 0, failed: 0, notClaimed: 0, unread: false };
    const pass = createPass();
    const reading = await drivePass(pass, deps.store.links.listDigestEnabled()[Symbol.asyncIterator](), {
      readAhead,
      consider,
      start: claimAndRun,
    });
    report.unread = reading.unread;
    const listingError = reading.unread ? reading.error : undefined;
    if (report.unread)
      log.error(
        { err: listingError, ...report },
        'digest: the store failed while the links were read; the next pass reads them again',
      );
    else if (report.due > 0) log.info({ ...report }, 'digest: tick done');
    return report;

    function consider(link: ChannelLink) {
      let localDate: string | undefined;
      try {
        localDate = dueLocalDate(link, now, deps.catchUpMs);
      } catch (error) {
        log.error({ err: error, slackChannelId: link.slackChannelId }, 'digest: bad schedule on a link');
        return;
      }
      if (localDate !== undefined) deps.onDue?.(link, localDate);
      if (localDate === undefined || doneDate.get(linkKey(link)) === localDate) return;
      report.due += 1;
      pass.add({ link, localDate });
    }

    /** Claims what can start now in one batch, and starts what was claimed. */
    async function claimAndRun(batch: Due[]) {
      // Measured before claiming: the lease the store grants starts no earlier than this.
      const leaseEnd = Date.now() + leaseMs;
      let claims: ClaimResult[];
      try {
        claims = await deps.store.digests.claimMany(
          batch.map(({ link, localDate }) => ({
            workspaceId: link.workspaceId,
            slackChannelId: link.slackChannelId,
            localDate,
          })),
          { owner, leaseMs, maxAttempts },
        );
      } catch (error) {
        // The store itself failing (unreachable, restarting): a later pass claims them again. Any
        // claim the store made before the answer was lost is the lease's: it runs out, and the next
        // attempt looks in the channel history first.
        log.error(
          {
            err: error,
            claims: batch.length,
            workspaces: new Set(batch.map((d) => d.link.workspaceId)).size,
          },
          'digest: could not claim; a later pass tries again',
        );
        for (const due of batch) {
          report.failed += 1;
          pass.done(due);
        }
        return;
      }
      batch.forEach((due, i) => {
        const claim = claims[i] ?? { claimed: false, reason: 'held' };
        if (!claim.claimed) {
          notClaimed(due, claim.reason, report);
          pass.done(due);
          return;
        }
        // Every line of the run — the planning calls', the Slack clients' — names the link and date.
        withLogContext(where(due.link, due.localDate), () =>
          runLink(due.link, due.localDate, claim, leaseEnd, now, report),
        )
          .catch((error) => {
            // runLink records its own failures; this is the store itself failing.
            report.failed += 1;
            log.error({ err: error, ...where(due.link, due.localDate) }, 'digest: run failed');
          })
          .finally(() => pass.done(due));
      });
    }
  }

  /**
   * The digests of one pass: due links wait per workspace, and start while their workspace has
   * fewer than `perWorkspace` running and the pass fewer than `maxInFlight`.
   */
  function createPass() {
    return createPassQueue<Due>({
      keyOf: (due) => due.link.workspaceId,
      perKey: perWorkspace,
      maxInFlight,
      batch: MAX_CLAIM_BATCH,
    });
  }

  function notClaimed(due: Due, reason: 'posted' | 'held' | 'exhausted', report: TickReport) {
    report.notClaimed += 1;
    if (reason !== 'held') doneDate.set(linkKey(due.link), due.localDate);
    if (reason === 'exhausted')
      log.warn(where(due.link, due.localDate), 'digest: every attempt failed; skipping the day');
  }

  /**
   * One claimed digest: `claim` says which attempt it is, `leaseEnd` when its lease runs out at the
   * latest, `now` the instant the pass runs as of.
   */
  async function runLink(
    link: ChannelLink,
    localDate: string,
    claim: { attempt: number; transientFailures: number },
    leaseEnd: number,
    now: Date,
    report: TickReport,
  ): Promise<void> {
    const key = { workspaceId: link.workspaceId, slackChannelId: link.slackChannelId, localDate };
    const complete = (outcome: Parameters<DigestClaimsRepo['complete']>[0]['outcome']) =>
      deps.store.digests.complete({ ...key, owner, attempt: claim.attempt, outcome });
    try {
      const token = await deps.botTokenFor(link.workspaceId);
      if (!token) throw new DigestSetupError('no Slack bot token for this workspace');
      const slack: DigestSlack = { client: deps.slack, token };
      const last = await deps.store.digests.lastPosted(link.workspaceId, link.slackChannelId);
      const previous = previousDigest(last);

      if (claim.attempt > 1) {
        const ts = await findPostedDigest(
          slack,
          link.slackChannelId,
          localDate,
          startOfLocalDay(localDate, link.timeZone),
        ).catch((error: unknown) => {
          // Any other failure to read (a timeout, a reset, a 5xx) fails this attempt: posting without
          // having looked could repeat an earlier post that landed late. An install from before the
          // history scopes can never look: a rare double post after a crash is better than giving
          // up every later attempt of the day.
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
          deps.metrics?.digests.inc({ outcome: 'recovered' });
          doneDate.set(linkKey(link), localDate);
          log.info({ ...where(link, localDate), attempt: claim.attempt }, 'digest: found already posted');
          return;
        }
      }

      const access = await deps.planningClientFor(link);
      if (!access) throw new DigestSetupError('no planning token for this workspace or the link creator');
      // Held from here until it is posted (the workspace's posting turn may still be a while): the
      // message and the snapshot to record, not the service's answers it was composed from.
      const composed = readyToPost(
        await byOrganization(access.orgId, () =>
          gatherDigestData(access.client, link, {
            ...deps.gather,
            // Reading may use half the lease; the post must start in the next quarter (see postSafely).
            signal: AbortSignal.timeout(leaseMs / 2),
          }),
        ),
        { localDate, timeZone: link.timeZone, previous },
      );
      const ts = await postSafely(slack, link, localDate, composed, leaseEnd).catch((error: unknown) => {
        // It may have posted (now, or later from a queue on the way): the retry waits and looks.
        throw postMayHaveLanded(error) ? new PostOutcomeUnknownError(error) : error;
      });
      const recorded = await complete({
        status: 'posted',
        messageTs: ts,
        snapshot: composed.snapshot,
      });
      // Our lease ran out and another process holds the claim: its history check will find this post.
      if (!recorded)
        log.warn(where(link, localDate), 'digest: posted after losing the claim; left to its holder');
      report.posted += 1;
      deps.metrics?.digests.inc({ outcome: 'posted' });
      doneDate.set(linkKey(link), localDate);
      log.info(
        { ...where(link, localDate), attempt: claim.attempt, unchanged: composed.unchanged },
        'digest: posted',
      );
    } catch (error) {
      report.failed += 1;
      const transient = isTransientFailure(error);
      const delay = retryDelay(claim.attempt, error, transient);
      // The day is over for this link when its lasting failures reach the cap, or when a passing
      // failure's retry would come after the catch-up window (no later pass will claim it).
      const last = transient
        ? dueLocalDate(link, new Date(now.getTime() + delay), deps.catchUpMs) !== localDate
        : claim.attempt - claim.transientFailures >= maxAttempts;
      deps.metrics?.digests.inc({ outcome: last ? 'failed' : 'retried' });
      const reason = describeFailure(error);
      const retryAt = clock().getTime() + delay;
      const recorded = await complete({ status: 'failed', error: reason, retryAt, transient }).catch(
        (recordError: unknown) => {
          // The store is out of reach (the failure may be that very thing): the claim stays ours
          // until its lease runs out, then a later attempt — ours or another replica's — takes it,
          // looking in the channel history first.
          log.error(
            { err: recordError, ...where(link, localDate), attempt: claim.attempt, reason },
            'digest: failed, and the failure could not be recorded; retried once the lease runs out',
          );
          return undefined;
        },
      );
      if (recorded === undefined) return;
      log.warn(
        {
          ...where(link, localDate),
          attempt: claim.attempt,
          reason,
          transient,
          retryAt: new Date(retryAt).toISOString(),
          recorded,
        },
        last ? 'digest: failed for the last time today' : 'digest: failed; will retry',
      );
    }
  }

  /**
   * Posts unless the lease is nearly over: past it, another process may be posting the same digest.
   * The same deadline bounds the wait for the workspace's posting turn (src/limits.ts): a turn
   * that comes later fails the attempt before anything is sent, and the claim is given back with
   * a retry time (recorded as failed), instead of being posted after the lease was lost.
   */
  async function postSafely(
    slack: DigestSlack,
    link: ChannelLink,
    localDate: string,
    composed: Pick<ComposedDigest, 'text' | 'blocks'>,
    leaseEnd: number,
  ): Promise<string> {
    const deadline = leaseEnd - leaseMs / 4;
    if (Date.now() > deadline) throw new LeaseNearlyOverError();
    return withPostDeadline(deadline, () => postDigest(slack, link.slackChannelId, localDate, composed));
  }

  /** Backoff per attempt, at least what the failing side asked, and past a late post's landing. */
  function retryDelay(attempt: number, error: unknown, transient: boolean): number {
    const cap = transient ? MAX_TRANSIENT_RETRY_DELAY_MS : MAX_RETRY_DELAY_MS;
    const backoff = Math.min(cap, retryBaseMs * 2 ** (attempt - 1));
    const retryAfter = retryAfterMs(error);
    const landing = error instanceof PostOutcomeUnknownError ? latePostMs : 0;
    return Math.max(backoff, retryAfter ?? 0, landing);
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
  };
  return scheduler;
}

/** A composed digest as it waits for its post: the message, and its snapshot as the store keeps it. */
function readyToPost(data: DigestData, context: DigestContext) {
  const { text, blocks, unchanged, snapshot } = composeDigest(data, context);
  return { text, blocks, unchanged, snapshot: serializeSnapshot(snapshot) };
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
