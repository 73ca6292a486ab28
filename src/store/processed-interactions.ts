/**
 * The `processed_interactions` table holds keys that expire. It serves two needs, each through its
 * own repository so callers say which one they mean:
 *
 * - {@link OnceRepo} (`store.once`): work done once however often it is asked for — a form
 *   submission or an admin operation retried by Slack or double clicked, a held DM, a profile
 *   version applied. The first caller of a key does the work and records its outcome; later ones
 *   see it pending, or get the outcome back until the key expires.
 * - {@link LocksRepo} (`store.locks`): work that one replica does at a time — a card press on one
 *   entity, `/plan digest now` in one channel, provisioning one person. The lease bounds how long a
 *   lock outlives a process that died holding it.
 *
 * Both take a key the same way: a `pending` row that expires after the given time, an expired row
 * counting as absent. A lock is such a pending row, released by deleting it; nothing else tells
 * them apart. So replicas of the version that called both `interactions.begin`/`abandon` and
 * replicas of this one agree on every key during a deploy: same table, same keys, same expiry.
 *
 * Keys are global, so callers make them unique (e.g. `<workspaceId>:<view id>:<hash>`) and give each
 * use its own prefix. Outcomes are stored as given: never put a secret in one.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { type RepoContext, touched } from './context.js';
import { parseInput } from './errors.js';
import type { Database } from './schema.js';

/** A once key as its first caller or a later one finds it. */
export type OnceState = { state: 'new' } | { state: 'pending' } | { state: 'done'; result: string };

export interface OnceRepo {
  /**
   * Takes the key for `ttlMs` when it is new (or its earlier use expired): 'new' means do the work;
   * 'pending' that another caller is doing it; 'done' gives back the outcome it recorded.
   */
  begin(key: string, ttlMs: number): Promise<OnceState>;
  /** Records the outcome, so later callers of the key get it back. False when the key is gone. */
  finish(key: string, result: string): Promise<boolean>;
  /** Forgets the key (after a failure), so the work can be tried again. */
  abandon(key: string): Promise<boolean>;
  /** Deletes every expired key of the table — once keys and lock leases alike; returns how many. */
  purgeExpired(): Promise<number>;
}

export interface LocksRepo {
  /** Takes the lock for `leaseMs` when nobody holds it (or its lease ran out); false when held. */
  acquire(key: string, leaseMs: number): Promise<boolean>;
  /** Releases a lock taken with {@link acquire}; false when it was not held. */
  release(key: string): Promise<boolean>;
}

const takeInput = z.object({ key: z.string().min(1), ttlMs: z.number().int().positive() });

/** Takes `key` for `ttlMs` as every version of the app does (see the module's comment). */
async function take(
  db: Kysely<Database>,
  now: () => number,
  key: string,
  ttlMs: number,
  what: string,
): Promise<OnceState> {
  parseInput(takeInput, { key, ttlMs }, what);
  // A key can be given up between the writes and the read: decide again.
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
}

async function forget(db: Kysely<Database>, key: string): Promise<boolean> {
  return touched(await db.deleteFrom('processed_interactions').where('key', '=', key).executeTakeFirst());
}

export function createOnceRepo({ db, now }: RepoContext): OnceRepo {
  return {
    begin: (key, ttlMs) => take(db, now, key, ttlMs, 'once key'),

    async finish(key, result) {
      const updated = await db
        .updateTable('processed_interactions')
        .set({ state: 'done', result })
        .where('key', '=', key)
        .executeTakeFirst();
      return touched(updated);
    },

    abandon: (key) => forget(db, key),

    async purgeExpired() {
      const result = await db
        .deleteFrom('processed_interactions')
        .where('expires_at', '<=', now())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export function createLocksRepo({ db, now }: RepoContext): LocksRepo {
  return {
    // A lock is never finished, so a key held by someone else is always pending here.
    acquire: async (key, leaseMs) => (await take(db, now, key, leaseMs, 'lock key')).state === 'new',
    release: (key) => forget(db, key),
  };
}
