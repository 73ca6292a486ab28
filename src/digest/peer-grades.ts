/**
 * "You received 2 new peer grades": a private, once-a-day count for the graded person. Peer grades
 * are anonymous in the service and the app keeps them so — the notice says how many, never who,
 * never when, never for which notion, and it never appears in a channel digest. It is sent by DM
 * at most once a day, after comparing the peer-evaluation counts of the person's own experiences
 * (read with their own token) with the counts stored at the last check.
 *
 * The daily check reuses the digest claims (exactly once per day across replicas) under the key
 * `peer-grades:<slack user id>`, with the counts as the snapshot.
 */
import pLimit from 'p-limit';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import type { Experience, PlanningClient } from '../planning/index.js';
import { notify } from '../slack/kit/notify.js';
import type { DigestClaimsRepo, IdentitiesRepo, NotificationsRepo } from '../store/index.js';
import { describeFailure } from './failure.js';
import type { WebClient } from './slack.js';
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

export interface PeerGradeSenderDeps {
  store: {
    identities: Pick<IdentitiesRepo, 'listByWorkspace'>;
    digests: Pick<DigestClaimsRepo, 'claim' | 'complete' | 'lastPosted'>;
    /** The person's notification preferences decide whether (and when) the DM goes. */
    notifications: Pick<NotificationsRepo, 'prefs' | 'enqueue'>;
  };
  workspaceId: string;
  slack: WebClient;
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
            const outcome = await notify(
              { store: deps.store, now: () => now.getTime() },
              deps.slack,
              { workspaceId: deps.workspaceId, slackUserId: identity.slackUserId },
              'peerGrades',
              { text: notice.text },
            );
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
