/**
 * Recognises a retried or double submission (Slack retries, a double click): the first caller of a
 * key gets 'new' and does the work; the others see it pending or its stored result. Keys are
 * global, so callers make them unique (e.g. `<workspaceId>:<view id>:<hash>`). Results are stored
 * as given: never put a secret in one.
 */
import { z } from 'zod';
import { type RepoContext, touched } from './context.js';
import { parseInput } from './errors.js';

export type BeginResult = { state: 'new' } | { state: 'pending' } | { state: 'done'; result: string };

export interface ProcessedInteractionsRepo {
  /** Atomically takes the key for `ttlMs` when it is new (or its earlier use expired). */
  begin(key: string, ttlMs: number): Promise<BeginResult>;
  /** Stores the outcome, so later submissions of the key get it back. False when the key is gone. */
  finish(key: string, result: string): Promise<boolean>;
  /** Forgets the key (after a failure), so the user can try again. */
  abandon(key: string): Promise<boolean>;
  /** Deletes expired keys; returns how many. */
  purgeExpired(): Promise<number>;
}

const beginInput = z.object({ key: z.string().min(1), ttlMs: z.number().int().positive() });

export function createProcessedInteractionsRepo({ db, now }: RepoContext): ProcessedInteractionsRepo {
  return {
    async begin(key, ttlMs) {
      parseInput(beginInput, { key, ttlMs }, 'interaction key');
      // A key can be abandoned between the writes and the read: decide again.
      for (let round = 1; ; round++) {
        const at = now();
        const fresh = { state: 'pending' as const, result: null, expires_at: at + ttlMs, created_at: at };
        const inserted = await db
          .insertInto('processed_interactions')
          .values({ key, ...fresh })
          .onConflict((oc) => oc.column('key').doNothing())
          .returning('key')
          .executeTakeFirst();
        if (inserted) return { state: 'new' };

        // An expired key counts as absent: take it over in place.
        const retaken = await db
          .updateTable('processed_interactions')
          .set(fresh)
          .where('key', '=', key)
          .where('expires_at', '<=', at)
          .returning('key')
          .executeTakeFirst();
        if (retaken) return { state: 'new' };

        const current = await db
          .selectFrom('processed_interactions')
          .select(['state', 'result'])
          .where('key', '=', key)
          .executeTakeFirst();
        if (current?.state === 'done') return { state: 'done', result: current.result ?? '' };
        if (current || round >= 3) return { state: 'pending' };
      }
    },

    async finish(key, result) {
      const updated = await db
        .updateTable('processed_interactions')
        .set({ state: 'done', result })
        .where('key', '=', key)
        .executeTakeFirst();
      return touched(updated);
    },

    async abandon(key) {
      return touched(await db.deleteFrom('processed_interactions').where('key', '=', key).executeTakeFirst());
    },

    async purgeExpired() {
      const result = await db
        .deleteFrom('processed_interactions')
        .where('expires_at', '<=', now())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
