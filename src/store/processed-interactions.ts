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
 * counting as absent. A lock is such a pending row whose result holds its holder's fence (a random
 * id), released by deleting the row only while it is still that holder's; nothing else tells them
 * apart. So replicas of the version that called both `interactions.begin`/`abandon` and
 * replicas of this one agree on every key during a deploy: same table, same keys, same expiry.
 *
 * Keys are global, so callers make them unique (e.g. `<workspaceId>:<view id>:<hash>`) and give each
 * use its own prefix; how long each use keeps its keys is named in keeps.ts. Outcomes are stored as
 * given: never put a secret in one. Callers use `run` and `with`: the rest of the app writes no
 * "take a key, work, record or give it back" of its own.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { compiledStatement } from './compiled.js';
import { type RepoContext, touched } from './context.js';
import { parseInput, StoreValidationError } from './errors.js';
import { type StoreLogger, silentLogger } from './logger.js';
import type { Database } from './schema.js';

/** A once key as its first caller or a later one finds it. */
export type OnceState = { state: 'new' } | { state: 'pending' } | { state: 'done'; result: string };

/**
 * The store failed while taking a once key: nothing was done, and whether it was done before is not
 * known. Thrown by {@link OnceRepo.run} so that callers can tell it from their work's own failures.
 */
export class OnceKeyUnavailableError extends Error {
  override name = 'OnceKeyUnavailableError';
  constructor(cause: unknown) {
    super(`the once key could not be taken: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** What {@link OnceRepo.run} came to. */
export type OnceRun<T> =
  /** Done: by this call (`first`), or by an earlier one whose recorded outcome this is. */
  | { state: 'done'; value: T; first: boolean }
  /** Another caller holds the key and is doing the work now: this one did nothing. */
  | { state: 'pending'; first: false };

export interface OnceOptions<T> {
  /**
   * What a failure of the work leaves (default `'release'`):
   * - `'release'`: the key is given back and the error rethrown — nothing was done, a later call
   *   may try again;
   * - `'keep'`: the key stays taken until it expires and the error is rethrown — the work may have
   *   been done in part, and must not be tried again before then;
   * - a function: the error becomes the outcome — recorded, replayed to later callers and returned
   *   as done (a failure told again to a retry, as a workflow step's is).
   */
  onFailure?: 'release' | 'keep' | ((error: unknown) => T);
  /**
   * Whether a finished outcome gives the key back instead of recording it (default never): an
   * outcome that means "nothing done, not now" (a held DM whose quiet hours moved).
   */
  releaseIf?: (value: T) => boolean;
  /** How the outcome is stored and read back (default JSON). Never put a secret in an outcome. */
  codec?: { encode(value: T): string; decode(text: string): T };
}

export interface OnceRepo {
  /**
   * Does `work` once for `key` however often it is asked for, across replicas: the first caller
   * takes the key for `ttlMs` and does the work; a caller meanwhile gets `pending`; a later one gets
   * the recorded outcome back (`first: false`) until the key expires. An outcome that cannot be
   * recorded after the work is logged and still returned: the work is done either way. Rejects with
   * {@link OnceKeyUnavailableError} when the key cannot be taken (nothing done), else with what the
   * work threw (see {@link OnceOptions.onFailure}).
   */
  run<T>(key: string, ttlMs: number, work: () => Promise<T>, options?: OnceOptions<T>): Promise<OnceRun<T>>;
  /**
   * The primitive under {@link run} (the store's own tests use it): takes the key for `ttlMs` when
   * it is new (or its earlier use expired): 'new' means do the work; 'pending' that another caller
   * is doing it; 'done' gives back the outcome it recorded.
   */
  begin(key: string, ttlMs: number): Promise<OnceState>;
  /** Records the outcome, so later callers of the key get it back. False when the key is gone. */
  finish(key: string, result: string): Promise<boolean>;
  /**
   * Forgets the key, so the work can be done again: after `run`, when what it did was undone later
   * (a link preview that could not be posted gives its turn back).
   */
  abandon(key: string): Promise<boolean>;
  /** Deletes every expired key of the table — once keys and lock leases alike; returns how many. */
  purgeExpired(): Promise<number>;
}

/** What {@link LocksRepo.with} came to. */
export type Locked<T> = { ran: true; value: T } | { ran: false };

export interface LocksRepo {
  /**
   * Runs `work` holding the lock `key`, across replicas: taken for `leaseMs` (the bound on a holder
   * that dies), released when `work` settles, whatever it did. Held by someone else: `ran: false`,
   * at once. The release is fenced: it frees this holder's lock only, never one another holder took
   * after this one's lease ran out. A release that fails is logged; the lease frees the lock in the end.
   */
  with<T>(key: string, leaseMs: number, work: () => Promise<T>): Promise<Locked<T>>;
  /** Takes the lock for `leaseMs` when nobody holds it (or its lease ran out): the holder's fence, else undefined. */
  acquire(key: string, leaseMs: number): Promise<string | undefined>;
  /** Releases the lock taken with {@link acquire} by `holder`; false when it was not held by it. */
  release(key: string, holder: string): Promise<boolean>;
}

const takeInput = z.object({ key: z.string().min(1), ttlMs: z.number().int().positive() });

/** A free key taken (a row inserted, its key returned), else nothing: every press and submission's first statement. */
const takeFree = compiledStatement(
  4,
  (db, key: string, holder: string | null, expiresAt: number, createdAt: number) =>
    db
      .insertInto('processed_interactions')
      .values({ key, state: 'pending', result: holder, expires_at: expiresAt, created_at: createdAt })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('key'),
);

/** A lock given back: its row deleted only while it is still this holder's (fenced). */
const releaseHeld = compiledStatement(2, (db, key: string, holder: string) =>
  db
    .deleteFrom('processed_interactions')
    .where('key', '=', key)
    .where('state', '=', 'pending')
    .where('result', '=', holder),
);

/**
 * Takes `key` for `ttlMs` as every version of the app does (see the module's comment). A lock's
 * `holder` is kept in the pending row's result, which a pending once key leaves empty: versions
 * that do not know it see a pending key, as before.
 */
async function take(
  db: Kysely<Database>,
  now: () => number,
  key: string,
  ttlMs: number,
  what: string,
  holder: string | null = null,
): Promise<OnceState> {
  parseInput(takeInput, { key, ttlMs }, what);
  // A key can be given up between the writes and the read: decide again.
  for (let round = 1; ; round++) {
    const at = now();
    const fresh = { state: 'pending' as const, result: holder, expires_at: at + ttlMs, created_at: at };
    if ((await takeFree.run(db, key, holder, at + ttlMs, at)).rows.length > 0) return { state: 'new' };

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

/** What a log line says of a key: its use (the prefix before the first colon), never the ids after it. */
const useOf = (key: string) => key.split(':', 1)[0];

const JSON_CODEC = { encode: (value: unknown) => JSON.stringify(value) ?? 'null', decode: JSON.parse };

export function createOnceRepo({ db, now }: RepoContext, logger: StoreLogger = silentLogger): OnceRepo {
  const repo: OnceRepo = {
    async run<T>(key: string, ttlMs: number, work: () => Promise<T>, options: OnceOptions<T> = {}) {
      const codec = (options.codec ?? JSON_CODEC) as NonNullable<OnceOptions<T>['codec']>;
      const claim = await repo.begin(key, ttlMs).catch((error: unknown) => {
        throw error instanceof StoreValidationError ? error : new OnceKeyUnavailableError(error);
      });
      if (claim.state === 'pending') return { state: 'pending', first: false };
      if (claim.state === 'done') return { state: 'done', value: codec.decode(claim.result), first: false };
      let value: T;
      try {
        value = await work();
      } catch (error) {
        const { onFailure = 'release' } = options;
        if (typeof onFailure !== 'function') {
          if (onFailure === 'release') {
            await repo.abandon(key).catch((release: unknown) => {
              logger.warn(
                `once key "${useOf(key)}:…" not given back after a failure (it expires): ${String(release)}`,
              );
            });
          }
          throw error;
        }
        value = onFailure(error);
      }
      if (options.releaseIf?.(value)) {
        await repo.abandon(key).catch((release: unknown) => {
          logger.warn(`once key "${useOf(key)}:…" not given back (it expires): ${String(release)}`);
        });
        return { state: 'done', value, first: true };
      }
      // Done: nothing may undo it now. A later caller that cannot find the outcome only does nothing.
      await repo.finish(key, codec.encode(value)).catch((record: unknown) => {
        logger.warn(`once key "${useOf(key)}:…" done but its outcome not recorded: ${String(record)}`);
      });
      return { state: 'done', value, first: true };
    },

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
  return repo;
}

export function createLocksRepo({ db, now }: RepoContext, logger: StoreLogger = silentLogger): LocksRepo {
  const repo: LocksRepo = {
    async acquire(key, leaseMs) {
      const holder = randomUUID();
      // A lock is never finished, so a key held by someone else is always pending here.
      return (await take(db, now, key, leaseMs, 'lock key', holder)).state === 'new' ? holder : undefined;
    },

    async release(key, holder) {
      const { numAffectedRows } = await releaseHeld.run(db, key, holder);
      return (numAffectedRows ?? 0n) > 0n;
    },

    async with(key, leaseMs, work) {
      const holder = await repo.acquire(key, leaseMs);
      if (!holder) return { ran: false };
      try {
        return { ran: true, value: await work() };
      } finally {
        await repo.release(key, holder).catch((error: unknown) => {
          logger.warn(`lock "${useOf(key)}:…" not released (its lease frees it): ${String(error)}`);
        });
      }
    },
  };
  return repo;
}
