/**
 * Deletes what the store no longer needs, so tables do not grow for ever: once keys whose retry
 * window is over and locks whose lease ran out, digest claims older than `keepDays` (each link's latest posted digest
 * stays: the next digest compares against it), cards posted longer ago than `cardDays` (and thread
 * replies recorded as discoveries as long ago), and notes of
 * what Slack did older than a day (the watch reads only notes made since its last look, minutes ago). Runs once at start and then every `intervalMs`;
 * replicas doing it at the same time only delete the same rows.
 */
import type { DigestClaimsRepo } from './digest-claims.js';
import type { StoreLogger } from './logger.js';
import type { PostedCardsRepo } from './posted-cards.js';
import type { OnceRepo } from './processed-interactions.js';
import type { SlackNotesRepo } from './slack-notes.js';
import type { ThreadDiscoveriesRepo } from './thread-discoveries.js';

export interface HousekeepingOptions {
  /** Between runs, ms. Default one hour. */
  intervalMs?: number;
  /** Digest claims of dates older than this many days go. Default 30. */
  keepDays?: number;
  /** Cards posted longer ago than this many days are no longer updated. Default 180; replies
   * recorded as discoveries as long ago are no longer followed either. */
  cardDays?: number;
}

export interface HousekeepingResult {
  /** Expired once keys and lock leases (one table). */
  keys: number;
  digestClaims: number;
  cards: number;
  slackNotes: number;
  threadDiscoveries: number;
}

export interface Housekeeping {
  /** One run now. */
  runOnce(): Promise<HousekeepingResult>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startHousekeeping(
  store: {
    once: Pick<OnceRepo, 'purgeExpired'>;
    digests: Pick<DigestClaimsRepo, 'purgeOlderThan'>;
    cards: Pick<PostedCardsRepo, 'purgeOlderThan'>;
    slackNotes: Pick<SlackNotesRepo, 'purgeOlderThan'>;
    threadDiscoveries: Pick<ThreadDiscoveriesRepo, 'purgeOlderThan'>;
  },
  logger: StoreLogger,
  options: HousekeepingOptions = {},
): Housekeeping {
  let running: Promise<unknown> = Promise.resolve();
  const runOnce = async (): Promise<HousekeepingResult> => {
    const result = {
      keys: await store.once.purgeExpired(),
      digestClaims: await store.digests.purgeOlderThan(options.keepDays ?? 30),
      cards: await store.cards.purgeOlderThan(options.cardDays ?? 180),
      slackNotes: await store.slackNotes.purgeOlderThan(1),
      threadDiscoveries: await store.threadDiscoveries.purgeOlderThan(options.cardDays ?? 180),
    };
    if (Object.values(result).some((n) => n > 0)) {
      logger.info(
        `Store housekeeping: removed ${result.keys} expired once keys and locks, ${result.digestClaims} old digest claims, ${result.cards} old cards, ${result.slackNotes} old notes of what Slack did, ${result.threadDiscoveries} old thread replies recorded as discoveries`,
      );
    }
    return result;
  };
  const run = () => {
    running = runOnce().catch((error: unknown) =>
      logger.warn(`Store housekeeping failed (retried next hour): ${(error as Error).message}`),
    );
  };
  run();
  const timer = setInterval(run, options.intervalMs ?? 3_600_000);
  timer.unref();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
