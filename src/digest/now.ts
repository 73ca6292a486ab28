/**
 * `/plan digest now`: a digest posted at once. It is not the day's digest — no claim is used, the
 * schedule still posts later — but two "now"s for one channel never run together, across replicas
 * too: a store lock per channel, released when the post is done.
 */
import { type ChannelLink, type DigestClaimsRepo, LOCK_LEASE, type LocksRepo } from '../store/index.js';
import { composeDigest } from './compose.js';
import { type GatherOptions, gatherDigestData } from './gather.js';
import type { PlanningAccess } from './scheduler.js';
import { type DigestSlack, postDigest } from './slack.js';
import { previousDigest } from './snapshot.js';
import { localDateOf } from './time.js';

export interface DigestNowDeps {
  store: {
    digests: Pick<DigestClaimsRepo, 'lastPosted'>;
    locks: Pick<LocksRepo, 'with'>;
  };
  slack: DigestSlack;
  planning: PlanningAccess;
  now?: Date;
  /** How long the lock lives if the process dies mid-post. Default 2 minutes. */
  lockMs?: number;
  gather?: GatherOptions;
}

export type DigestNowResult = { status: 'posted'; ts: string; unchanged: boolean } | { status: 'busy' };

/** Posts the link's digest now, compared with the last scheduled one. */
export async function postDigestNow(link: ChannelLink, deps: DigestNowDeps): Promise<DigestNowResult> {
  const lock = `digest-now:${link.workspaceId}:${link.slackChannelId}`;
  const posted = await deps.store.locks.with(lock, deps.lockMs ?? LOCK_LEASE.digestNow, async () => {
    const localDate = localDateOf(deps.now ?? new Date(), link.timeZone);
    const last = await deps.store.digests.lastPosted(link.workspaceId, link.slackChannelId);
    const data = await gatherDigestData(deps.planning.client, link, deps.gather);
    const composed = composeDigest(data, {
      localDate,
      timeZone: link.timeZone,
      onDemand: true,
      previous: previousDigest(last),
    });
    const ts = await postDigest(deps.slack, link.slackChannelId, localDate, composed, { onDemand: true });
    return { status: 'posted' as const, ts, unchanged: composed.unchanged };
  });
  return posted.ran ? posted.value : { status: 'busy' };
}
