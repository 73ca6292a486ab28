/**
 * "You received 2 new peer grades": a private, once-a-day count for the graded person. Peer grades
 * are anonymous in the service and the app keeps them so — the notice says how many, never who,
 * never when, never for which notion, and it never appears in a channel digest. It is sent by DM
 * at most once a day, after comparing the peer-evaluation counts of the person's own experiences
 * (read with their own token) with the counts stored at the last check.
 *
 * The daily check reuses the digest claims (exactly once per day across replicas) under the key
 * `peer-grades:<slack user id>`, with the counts as the snapshot. It runs when a workspace's first
 * digest of the day is due: the digest pass tells {@link createPeerGradeNotices} which links are
 * due, and the app's minute tick runs the notices right after that pass (src/app/jobs.ts).
 *
 * How the DM reaches the person is given by the app (`PeerGradeNotify`): like every DM about
 * planning it goes through the person's notification choices and quiet hours, which the digest
 * does not know about.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pLimit from 'p-limit';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { Experience, PlanningClient } from '../planning/index.js';
import type { ChannelLink, DigestClaimsRepo, IdentitiesRepo } from '../store/index.js';
import { describeFailure } from './failure.js';
import { parseStoredJson } from './snapshot.js';
import { localDateOf } from './time.js';

/** Peer-evaluation count per notion. */
export type PeerGradeCounts = Record<string, number>;
const PeerGradeCounts = z.record(z.string(), z.number().int().nonnegative());

/** The pseudo-channel under which a person's daily check is claimed. */
export const peerGradeKey = (slackUserId: string) => `peer-grades:${slackUserId}`;

/** Counts of peer grades per notion, from the person's own experiences. */
export function countPeerGrades(experiences: readonly Experience[]): PeerGradeCounts {
  const counts: PeerGradeCounts = {};
  for (const experience of experiences) {
    const key = experience.notion?.id ?? experience.id;
    counts[key] = (counts[key] ?? 0) + (experience.peerEval?.count ?? 0);
  }
  return counts;
}

/**
 * How many peer grades arrived since `previous`, and the DM text when there are any. Pure. The first
 * check (no previous counts) only sets the baseline: grades from before cannot be told apart.
 */
export function peerGradeNotice(
  previous: PeerGradeCounts | undefined,
  current: PeerGradeCounts,
): { newGrades: number; text?: string } {
  if (!previous) return { newGrades: 0 };
  let newGrades = 0;
  for (const [notion, count] of Object.entries(current))
    newGrades += Math.max(0, count - (previous[notion] ?? 0));
  if (newGrades === 0) return { newGrades };
  const grades = newGrades === 1 ? 'a new peer grade' : `${newGrades} new peer grades`;
  return {
    newGrades,
    text: `You received ${grades} since your last update. See your averages with \`/plan grades\`.`,
  };
}

/**
 * Sends one notice to a person of the workspace as a DM about planning: sent now, dropped because
 * they turned these notices off (`muted`), or kept until their quiet hours end (`held`). Throws
 * when Slack refuses.
 */
export type PeerGradeNotify = (
  slackUserId: string,
  body: { text: string },
) => Promise<'sent' | 'muted' | 'held' | 'unconfirmed'>;

export interface PeerGradeSenderDeps {
  store: {
    identities: Pick<IdentitiesRepo, 'listByWorkspace'>;
    digests: Pick<DigestClaimsRepo, 'claim' | 'complete' | 'lastPosted'>;
  };
  workspaceId: string;
  /** Delivers the notice; whether and when it reaches the person is the person's choice. */
  notify: PeerGradeNotify;
  /** A planning client acting as the person (their own token). */
  planningClientFor(token: string): PlanningClient;
  logger: Logger;
  owner: string;
  now?: Date;
  /** Whose calendar day counts as "once a day". Default UTC. */
  timeZone?: string;
  /** After a failure, how long before the person's check is tried again. Default 1 hour. */
  retryMs?: number;
}

export interface PeerGradeReport {
  checked: number;
  notified: number;
  failed: number;
}

/** Checks every connected person of a workspace once today and DMs those with new peer grades. */
export async function sendPeerGradeNotices(deps: PeerGradeSenderDeps): Promise<PeerGradeReport> {
  const now = deps.now ?? new Date();
  const localDate = localDateOf(now, deps.timeZone ?? 'UTC');
  const report: PeerGradeReport = { checked: 0, notified: 0, failed: 0 };
  const limit = pLimit(4);
  const identities = (await deps.store.identities.listByWorkspace(deps.workspaceId)).filter((i) => i.valid);
  await Promise.all(
    identities.map((identity) =>
      limit(async () => {
        const key = {
          workspaceId: deps.workspaceId,
          slackChannelId: peerGradeKey(identity.slackUserId),
          localDate,
        };
        const claim = await deps.store.digests.claim({ ...key, owner: deps.owner, leaseMs: 5 * 60_000 });
        if (!claim.claimed) return;
        const complete = (outcome: Parameters<DigestClaimsRepo['complete']>[0]['outcome']) =>
          deps.store.digests.complete({ ...key, owner: deps.owner, attempt: claim.attempt, outcome });
        try {
          const experiences: Experience[] = [];
          for await (const experience of deps.planningClientFor(identity.token).experiences.list()) {
            experiences.push(experience);
          }
          const current = countPeerGrades(experiences);
          const last = await deps.store.digests.lastPosted(deps.workspaceId, key.slackChannelId);
          const notice = peerGradeNotice(parseStoredJson(PeerGradeCounts, last?.snapshot), current);
          let messageTs = 'none';
          if (notice.text) {
            const outcome = await deps.notify(identity.slackUserId, { text: notice.text });
            // The claim only needs to know the day is done; the DM's ts is not kept.
            messageTs = outcome;
            if (outcome !== 'muted') report.notified += 1;
          }
          report.checked += 1;
          await complete({ status: 'posted', messageTs, snapshot: JSON.stringify(current) });
        } catch (error) {
          report.failed += 1;
          const reason = describeFailure(error);
          await complete({
            status: 'failed',
            error: reason,
            retryAt: now.getTime() + (deps.retryMs ?? 3_600_000),
          });
          deps.logger.warn(
            { workspaceId: deps.workspaceId, slackUserId: identity.slackUserId, reason },
            'peer grades: check failed',
          );
        }
      }),
    ),
  );
  return report;
}

export interface PeerGradeNoticesDeps {
  store: PeerGradeSenderDeps['store'];
  /**
   * How notices reach a workspace's people (the app's DMs, with the workspace's bot), with quiet
   * hours read as of `now`; undefined when the workspace has no bot token: it is skipped, as its
   * digests already report that.
   */
  notifierFor(workspaceId: string, now: Date): Promise<PeerGradeNotify | undefined>;
  /** A planning client acting as one person, with their own token. */
  planningClientFor(token: string): PlanningClient;
  logger: Logger;
  /** Unique per process. Default `host:pid:random`. */
  owner?: string;
}

/** The daily peer-grade notices as a job of the minute tick. */
export interface PeerGradeNotices {
  /**
   * Tells that a link's digest is due for `localDate` (the digest scheduler's `onDue`): its
   * workspace's check becomes due for that date, in that link's zone, unless already done.
   */
  linkDue(link: Pick<ChannelLink, 'workspaceId' | 'timeZone'>, localDate: string): void;
  /** Checks every workspace found due since the last run; resolves when each check is recorded. */
  run(now: Date): Promise<void>;
}

/**
 * Each workspace's people are checked once a day, in the pass where the workspace's first digest of
 * the day is due. The per-person claims make it once a day across replicas; this process also
 * remembers the workspaces it has checked today so that later passes skip the store.
 */
export function createPeerGradeNotices(deps: PeerGradeNoticesDeps): PeerGradeNotices {
  const owner = deps.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const log = deps.logger.child({ component: 'digest' });
  /** Workspaces whose check is due: the local date and zone of their first due link. */
  let due = new Map<string, { localDate: string; timeZone: string }>();
  /** The local date each workspace's check last completed without failures. */
  const checked = new Map<string, string>();

  async function check(workspaceId: string, day: { localDate: string; timeZone: string }, now: Date) {
    const notify = await deps.notifierFor(workspaceId, now);
    if (!notify) return;
    const result = await sendPeerGradeNotices({
      store: deps.store,
      workspaceId,
      notify,
      planningClientFor: deps.planningClientFor,
      logger: deps.logger,
      owner,
      now,
      timeZone: day.timeZone,
    });
    // People whose check failed are retried by a later pass, once their claim's retry time is reached.
    if (result.failed === 0) checked.set(workspaceId, day.localDate);
    if (result.checked + result.failed > 0) log.info({ workspaceId, ...result }, 'peer grades: checked');
  }

  return {
    linkDue(link, localDate) {
      if (checked.get(link.workspaceId) === localDate || due.has(link.workspaceId)) return;
      due.set(link.workspaceId, { localDate, timeZone: link.timeZone });
    },
    async run(now) {
      const workspaces = due;
      due = new Map();
      await Promise.all(
        [...workspaces].map(([workspaceId, day]) =>
          check(workspaceId, day, now).catch((error) =>
            log.error({ err: error, workspaceId }, 'peer grades: pass failed'),
          ),
        ),
      );
    },
  };
}
