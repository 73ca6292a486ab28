/**
 * The watch pass (issue 24 item 1). Each pass (the app's minute tick runs one, see src/app/jobs.ts)
 * walks the links with the watch on, claims those that are due (`store.watch.claim`: one replica
 * per link per interval), reads each claimed link's features — one `features.list` page per 500,
 * with the digest's access rule — and compares them with what it saw last time: a feature whose
 * `updatedAt` did not move is skipped; the others, the new ones and the gone ones are handed to the
 * Slack side (`WatchSink`) as deltas. What the sink says it finished is recorded as seen together
 * with the lease's release (`store.watch.complete`); the rest is found again next pass.
 *
 * A link's first pass is a baseline: everything is recorded, nothing is announced. A feature is
 * "gone" only when every page was read and the pages agree on the total: a listing cut short (a
 * page failed, the channel changed between pages) never makes a false deletion. A channel with more
 * than `maxFeatures` features is watched on its first ones (said once in the log per link).
 *
 * Failures of the service (refused, down) record nothing as seen and hand nothing over: the link
 * is given back (`fail`) due again one interval later, with one log line per organization per pass.
 * The store failing ends no pass and loses nothing: what could not be claimed is claimed by a later
 * pass, and a link whose outcome could not be recorded comes back once its lease runs out.
 *
 * Links come due at a stable offset within the interval (a hash of the link), so 2,000 links are
 * spread over it rather than all due in the same minute: each is read by the first tick at or after
 * its slot, and is due again at its next slot after that tick (`nextDue`), so it is read once per
 * interval, give or take a tick — never one interval in two. A link never looked at is read at
 * once when it was just linked (or rebound, or its watch turned on); links older than an interval
 * that were never looked at (a first deploy of the watch) have their baselines at their own slots
 * over the coming interval, not all in the first tick. Reads are bounded per planning
 * organization (`perOrganization`), links in progress per workspace (`perWorkspace`, workspaces
 * taking turns: src/limits.ts `createPassQueue`, as the digest's) and per pass (`maxInFlight`); links
 * are read from the store in keyset pages only as far ahead as the runs have room for (`readAhead`).
 * Reading a link may take half its lease, and Slack's side posts nothing past three quarters of it
 * (`withPostDeadline`, as the digest): another replica takes a link over only once its lease ran out.
 */
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { describeFailure } from '../digest/failure.js';
import type { PlanningAccess } from '../digest/index.js';
import { createPassQueue, drivePass, keyedLimit, withPostDeadline } from '../limits.js';
import { type Logger, withLogContext } from '../logger.js';
import type { WatchOutcome } from '../metrics.js';
import { type FeatureLite, isPlanningError, type PlanningClient } from '../planning/index.js';
import {
  type ChannelLink,
  type ChannelLinksRepo,
  MAX_WATCH_CLAIM_BATCH,
  type WatchClaim,
  type WatchRepo,
} from '../store/index.js';
import { changesBetween, type FeatureDelta, FeatureSeen, mayHaveChanged, seenOf } from './changes.js';
import type { WatchSink } from './sink.js';

/** Features the watch follows per linked channel at most; past it, the first ones. */
export const MAX_WATCHED_FEATURES = 2_000;
/** Features per `features.list` page (the service's default and the watch's). */
export const WATCH_PAGE_SIZE = 500;

/** The parts of the store the watch uses. */
export interface WatchStore {
  links: Pick<ChannelLinksRepo, 'listWatched'>;
  watch: Pick<WatchRepo, 'claim' | 'complete' | 'fail' | 'features'>;
}

/** Counts of what the watch did, per link (the app's `team_planning_watch_links_total`). */
export interface WatchMetrics {
  inc(labels: { outcome: WatchOutcome }): void;
}

export interface WatchDeps {
  store: WatchStore;
  /** Which token reads a link's features (the digest's rule: `planningAccessFor`); none → skipped. */
  planningAccessFor(link: ChannelLink): Promise<PlanningAccess | undefined>;
  /** Where each link's changes go (the Slack side). */
  sink: WatchSink;
  logger: Logger;
  /** How often each link is looked at, ms. */
  intervalMs: number;
  /** How often a pass runs (the app's jobs tick every minute), ms. Default 60 000. */
  tickMs?: number;
  /** Current time. Default `() => new Date()`. */
  clock?: () => Date;
  /** Unique per process. Default `host:pid:random`. */
  owner?: string;
  /** How long a claim protects one link's pass. Default 10 minutes. */
  leaseMs?: number;
  /** Links reading from one planning organization at once. Default 4. */
  perOrganization?: number;
  /** Links in progress at once per Slack workspace (their turns alternate in a pass). Default 4. */
  perWorkspace?: number;
  /** Links in progress at once in one pass. Default 100. */
  maxInFlight?: number;
  /** Links read ahead of their runs, at most. Default 2 000. */
  readAhead?: number;
  /** Features per page. Default {@link WATCH_PAGE_SIZE}. */
  pageSize?: number;
  /** Features watched per link at most. Default {@link MAX_WATCHED_FEATURES}. */
  maxFeatures?: number;
  metrics?: WatchMetrics;
}

/** What one tick did, for logs, tests and the benchmark. */
export interface WatchReport {
  /** Links due as far as this process knew, claimed or not. */
  due: number;
  /** Links whose pass was recorded (changed or not). */
  seen: number;
  /** Of those, links with at least one delta handed to the sink. */
  changed: number;
  /** Deltas handed to the sink. */
  deltas: number;
  /** Links given back with an error (service refused or down, Slack side failed). */
  failed: number;
  /** Links given back for want of a planning token. */
  skipped: number;
  /** Claims refused: not due yet or held by another replica. */
  notClaimed: number;
  /** The store failed while the links were read; the rest is the next pass's. */
  unread: boolean;
}

export interface Watch {
  /** Runs one pass as of `now`; a call while a pass runs gets that pass (one at a time per process). */
  tick(now?: Date): Promise<WatchReport>;
}

/** A feature as the watch last saw it, and when (epoch ms: when that pass began reading). */
export interface WatchedFeature {
  seen: FeatureSeen;
  seenAt: number;
}

/** How one link's listing ended. */
interface Listing {
  features: FeatureLite[];
  /** full: every page, consistent; truncated: past maxFeatures; partial: a later page failed or moved. */
  state: 'full' | 'truncated' | 'partial';
  /** Why a listing is partial. */
  problem?: unknown;
}

/** Creates the watch; nothing runs until `tick()`. */
export function createWatch(deps: WatchDeps): Watch {
  const clock = deps.clock ?? (() => new Date());
  const owner = deps.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = deps.leaseMs ?? 10 * 60 * 1000;
  const maxInFlight = deps.maxInFlight ?? 100;
  const perWorkspace = deps.perWorkspace ?? 4;
  const readAhead = deps.readAhead ?? 2_000;
  const pageSize = deps.pageSize ?? WATCH_PAGE_SIZE;
  const maxFeatures = deps.maxFeatures ?? MAX_WATCHED_FEATURES;
  const { intervalMs } = deps;
  const tickMs = deps.tickMs ?? 60_000;
  for (const [name, value] of Object.entries({
    tickMs,
    maxInFlight,
    perWorkspace,
    readAhead,
    pageSize,
    maxFeatures,
    intervalMs,
  })) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number ≥ 1`);
  }
  const byOrganization = keyedLimit(deps.perOrganization ?? 4);
  const log = deps.logger.child({ component: 'watch' });
  /** When each link comes due, as far as this process learned: skips the store until then. */
  const dueAt = new Map<string, number>();
  /** Links already said to have more features than are watched (said once per process). */
  const saidTooMany = new Set<string>();
  let current: Promise<WatchReport> | undefined;

  async function tick(now: Date): Promise<WatchReport> {
    const report: WatchReport = {
      due: 0,
      seen: 0,
      changed: 0,
      deltas: 0,
      failed: 0,
      skipped: 0,
      notClaimed: 0,
      unread: false,
    };
    const at = now.getTime();
    /** Failures of one kind and place (an organization, a workspace), logged once at the end. */
    const failures = new Map<string, { fields: Record<string, unknown>; message: string; links: number }>();
    const failed = (key: string, fields: Record<string, unknown>, message: string) => {
      const entry = failures.get(key);
      if (entry) entry.links += 1;
      else failures.set(key, { fields, message, links: 1 });
    };
    /** Access per (workspace, link creator) for this pass: a workspace's links share one lookup. */
    const access = new Map<string, Promise<PlanningAccess | undefined>>();
    const accessFor = (link: ChannelLink) => {
      const key = `${link.workspaceId}\u0000${link.createdBy}`;
      let found = access.get(key);
      if (!found) {
        found = deps.planningAccessFor(link);
        access.set(key, found);
      }
      return found;
    };

    const pass = createPassQueue<ChannelLink>({
      keyOf: (link) => link.workspaceId,
      perKey: perWorkspace,
      maxInFlight,
      batch: MAX_WATCH_CLAIM_BATCH,
    });
    const listed = new Set<string>();
    const reading = await drivePass(pass, deps.store.links.listWatched()[Symbol.asyncIterator](), {
      readAhead,
      consider(link) {
        const key = linkKey(link);
        listed.add(key);
        if ((dueAt.get(key) ?? 0) <= at) {
          report.due += 1;
          pass.add(link);
        }
      },
      start: claimAndRun,
    });
    report.unread = reading.unread;
    const listingError = reading.unread ? reading.error : undefined;

    // Links no longer watched (unlinked, turned off) are forgotten once a whole listing showed it.
    if (!report.unread) for (const key of dueAt.keys()) if (!listed.has(key)) dueAt.delete(key);

    for (const { fields, message, links: count } of failures.values())
      log.warn({ ...fields, links: count }, message);
    if (report.unread)
      log.error(
        { err: listingError, ...report },
        'watch: the store failed while the links were read; the next pass reads them again',
      );
    else if (report.seen + report.failed + report.skipped > 0) log.info({ ...report }, 'watch: pass done');
    return report;

    async function claimAndRun(batch: ChannelLink[]) {
      // Measured before claiming: the lease the store grants starts no earlier than this.
      const leaseEnd = Date.now() + leaseMs;
      let claims: WatchClaim[];
      try {
        claims = await deps.store.watch.claim(
          batch.map((l) => ({
            workspaceId: l.workspaceId,
            slackChannelId: l.slackChannelId,
            // Never looked at: a link made (rebound, turned on) within the interval now; one that
            // predates the watch (a first deploy) at its own slot, so baselines are spread too.
            firstAt: at - l.updatedAt.getTime() < intervalMs ? at : slotAfter(l, at, intervalMs),
          })),
          { owner, leaseMs },
        );
      } catch (error) {
        log.error(
          { err: error, claims: batch.length },
          'watch: could not claim links; a later pass tries again',
        );
        for (const link of batch) pass.done(link);
        return;
      }
      batch.forEach((link, i) => {
        const claim = claims[i] ?? { claimed: false };
        if (!claim.claimed) {
          report.notClaimed += 1;
          if (claim.dueAt !== undefined) dueAt.set(linkKey(link), claim.dueAt);
          pass.done(link);
          return;
        }
        withLogContext(where(link), () => runLink(link, claim.seenAt, leaseEnd))
          .catch((error: unknown) => {
            // runLink gives back its own failures; this is the store failing as it did.
            report.failed += 1;
            log.error(
              { err: error, ...where(link) },
              'watch: could not record the link’s pass; retried once its lease runs out',
            );
          })
          .finally(() => pass.done(link));
      });
    }

    /**
     * One claimed link: `lastSeenAt` absent on its first pass (a baseline); `leaseEnd` when its
     * lease runs out at the latest (epoch ms, real time: the posting limiter's).
     */
    async function runLink(link: ChannelLink, lastSeenAt: number | undefined, leaseEnd: number) {
      const key = { workspaceId: link.workspaceId, slackChannelId: link.slackChannelId };
      // From the tick that found it due, not from when its turn came: a link read late in a long
      // pass keeps its slot.
      const nextAt = nextDue(link, at, intervalMs, tickMs);
      const giveBack = async (error: string, outcome: 'failed' | 'skipped' = 'failed') => {
        await deps.store.watch.fail(key, owner, { nextAt, error });
        report[outcome] += 1;
        deps.metrics?.inc({ outcome });
        dueAt.set(linkKey(link), nextAt);
      };

      const planning = await accessFor(link);
      if (!planning) {
        log.warn(where(link), 'watch: no planning token for this workspace or the link creator; skipped');
        await giveBack('no planning token for this workspace or the link creator', 'skipped');
        return;
      }

      // What was seen is as of when the reading began: a change made while it runs is found next time.
      const began = clock().getTime();
      const stored = await seenBefore(link);
      let listing: Listing;
      try {
        // Reading may use half the lease; Slack's side gets the next quarter (see below).
        const signal = AbortSignal.timeout(Math.max(1, leaseEnd - leaseMs / 2 - Date.now()));
        listing = await byOrganization(planning.orgId, () => listFeatures(planning.client, link, signal));
      } catch (error) {
        if (!isPlanningError(error)) throw error;
        failed(
          `service\u0000${planning.orgId}`,
          { orgId: planning.orgId, reason: describeFailure(error) },
          'watch: the planning service failed; nothing recorded as seen, tried again next interval',
        );
        await giveBack(describeFailure(error));
        return;
      }
      if (listing.state === 'partial') {
        if (lastSeenAt === undefined) {
          // A baseline must be whole: otherwise the features not read would later look new.
          failed(
            `service\u0000${planning.orgId}`,
            { orgId: planning.orgId, reason: describeFailure(listing.problem) },
            'watch: the planning service failed; nothing recorded as seen, tried again next interval',
          );
          await giveBack(describeFailure(listing.problem));
          return;
        }
        failed(
          `partial\u0000${planning.orgId}`,
          { orgId: planning.orgId, reason: describeFailure(listing.problem) },
          'watch: a listing stopped before its last page; changes read were handed over, no feature taken for deleted',
        );
      }
      if (listing.state === 'truncated' && !saidTooMany.has(linkKey(link))) {
        if (saidTooMany.size < 10_000) saidTooMany.add(linkKey(link));
        log.warn(
          { ...where(link), watched: maxFeatures },
          `watch: the channel has more than ${maxFeatures} features; only its first ${maxFeatures} are watched`,
        );
      }

      const { deltas, save, drop } = compare(stored, listing, lastSeenAt === undefined);
      let done: ReadonlySet<string> = new Set();
      if (deltas.length > 0) {
        try {
          // Past the lease another replica may take the link and hand the same changes over: a post
          // whose turn comes after this deadline is refused before it is sent (src/limits.ts), and
          // the sink leaves that feature for the next pass.
          done = await withPostDeadline(leaseEnd - leaseMs / 4, () =>
            deps.sink.apply({ link, planning: planning.client, deltas, now: new Date(began) }),
          );
        } catch (error) {
          failed(
            `sink\u0000${link.workspaceId}`,
            { workspaceId: link.workspaceId, reason: describeFailure(error) },
            'watch: Slack could not be brought up to date; nothing recorded as seen, tried again next interval',
          );
          await giveBack(`sink: ${describeFailure(error)}`);
          return;
        }
      }
      for (const delta of deltas) {
        if (!done.has(delta.featureId)) continue;
        if (delta.after) save.push(delta.after);
        else drop.push(delta.featureId);
      }
      const recorded = await deps.store.watch.complete(key, owner, { seenAt: began, nextAt, save, drop });
      dueAt.set(linkKey(link), nextAt);
      if (!recorded) {
        log.warn(where(link), 'watch: lost the link’s lease before recording; left to its holder');
        return;
      }
      report.seen += 1;
      report.deltas += deltas.length;
      if (deltas.length > 0) report.changed += 1;
      deps.metrics?.inc({ outcome: deltas.length > 0 ? 'changed' : 'seen' });
    }
  }

  /**
   * What the watch saw of the link's features. A record that does not parse (written by another
   * version, damaged) is unseen — logged, never thrown.
   */
  async function seenBefore(link: ChannelLink): Promise<Map<string, WatchedFeature>> {
    const rows = await deps.store.watch.features(link.workspaceId, link.slackChannelId);
    const seen = new Map<string, WatchedFeature>();
    let unreadable = 0;
    for (const [featureId, row] of rows) {
      const parsed = FeatureSeen.safeParse(row.seen);
      if (parsed.success && parsed.data.id === featureId)
        seen.set(featureId, { seen: parsed.data, seenAt: row.seenAt });
      else unreadable += 1;
    }
    if (unreadable > 0)
      log.warn(
        { ...where(link), unreadable },
        'watch: stored features of the link did not parse; treated as unseen',
      );
    return seen;
  }

  /** Every page of the channel's features, up to `maxFeatures`; a failing first page throws. */
  async function listFeatures(
    client: PlanningClient,
    link: ChannelLink,
    signal: AbortSignal,
  ): Promise<Listing> {
    const byId = new Map<string, FeatureLite>();
    const totals = new Set<number>();
    let read = 0;
    try {
      const pages = client.features.list(link.teamId, link.channelId, { pageSize }, { signal }).pages();
      for await (const page of pages) {
        if (page.total !== undefined) totals.add(page.total);
        for (const feature of page.features) {
          read += 1;
          if (byId.size >= maxFeatures) return { features: [...byId.values()], state: 'truncated' };
          byId.set(feature.id, feature);
        }
      }
    } catch (error) {
      if (read === 0) throw error;
      return { features: [...byId.values()], state: 'partial', problem: error };
    }
    // Pages read by offset: a feature added or deleted between two pages shifts the rest, and one
    // can be missed. Only a listing whose pages agree on the total shows every feature.
    const [total] = totals;
    if (totals.size > 1 || (total !== undefined && total !== byId.size) || read !== byId.size)
      return {
        features: [...byId.values()],
        state: 'partial',
        problem: new Error('the channel changed between pages'),
      };
    return { features: [...byId.values()], state: 'full' };
  }

  const watch: Watch = {
    tick(now) {
      // One pass at a time per process: a pass that outlives the tick is not doubled.
      if (current) return current;
      current = tick(now ?? clock()).finally(() => {
        current = undefined;
      });
      return current;
    },
  };
  return watch;
}

/**
 * What changed since the last look. On a baseline (the link's first pass) every feature is recorded
 * and none announced; in a truncated listing, features coming into the watched window are recorded
 * silently and those leaving it are forgotten (they may still exist).
 */
export function compare(
  stored: ReadonlyMap<string, WatchedFeature>,
  listing: Pick<Listing, 'features' | 'state'>,
  baseline: boolean,
): { deltas: FeatureDelta[]; save: FeatureSeen[]; drop: string[] } {
  const deltas: FeatureDelta[] = [];
  const save: FeatureSeen[] = [];
  const drop: string[] = [];
  const listed = new Set<string>();
  for (const feature of listing.features) {
    listed.add(feature.id);
    const after = seenOf(feature);
    const before = stored.get(feature.id);
    if (before) {
      if (!mayHaveChanged(before.seen, after)) continue;
      deltas.push({
        featureId: feature.id,
        before: before.seen,
        after,
        feature,
        seenAt: before.seenAt,
        changes: changesBetween(before.seen, after),
      });
    } else if (baseline || listing.state === 'truncated') save.push(after);
    else deltas.push({ featureId: feature.id, after, feature, changes: [] });
  }
  for (const [featureId, before] of stored) {
    if (listed.has(featureId)) continue;
    if (listing.state === 'full')
      deltas.push({ featureId, before: before.seen, seenAt: before.seenAt, changes: [] });
    else if (listing.state === 'truncated') drop.push(featureId);
  }
  return { deltas, save, drop };
}

/**
 * When a link read by the tick at `now` is next due: its next slot (its own offset within the
 * interval, a hash of the link), so links spread over the interval and each keeps its rhythm. A
 * tick reads a link at or after its slot, up to one tick late (half a tick more for a tick that
 * wakes late): the next slot is the first one more than the interval less one and a half ticks on,
 * which is the slot one interval after the one just read — read by the tick one interval later,
 * never one interval in two. A link read later than that (a baseline, a store or process down)
 * goes back to its slot, at least that long after.
 */
export function nextDue(
  link: Pick<ChannelLink, 'workspaceId' | 'slackChannelId'>,
  now: number,
  intervalMs: number,
  tickMs = 60_000,
): number {
  return slotAfter(link, now + Math.max(0, intervalMs - 1.5 * tickMs), intervalMs);
}

/** The link's first slot strictly after `time`: its own offset within the interval (a hash of the link). */
function slotAfter(
  link: Pick<ChannelLink, 'workspaceId' | 'slackChannelId'>,
  time: number,
  intervalMs: number,
): number {
  const offset = createHash('sha256').update(linkKey(link)).digest().readUIntBE(0, 6) % intervalMs;
  return Math.floor((time - offset) / intervalMs + 1) * intervalMs + offset;
}

function linkKey(link: Pick<ChannelLink, 'workspaceId' | 'slackChannelId'>): string {
  return `${link.workspaceId}\u0000${link.slackChannelId}`;
}

function where(link: ChannelLink) {
  return { workspaceId: link.workspaceId, slackChannelId: link.slackChannelId };
}
