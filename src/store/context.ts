/** What every repository is built from: the database, the keyring and the clock. */
import type { DeleteResult, Kysely, QueryResult, UpdateResult } from 'kysely';
import type { Keyring } from './crypto.js';
import type { Database } from './schema.js';

export interface RepoContext {
  db: Kysely<Database>;
  keyring: Keyring;
  /** Epoch milliseconds; injected so tests control leases and expiry. */
  now: () => number;
}

/** Booleans are stored as 0/1 (see schema.ts). */
export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: number): boolean => value !== 0;

/** Whether an update or delete touched any row (built, or compiled once: src/store/compiled.ts). */
export const touched = (result: UpdateResult | DeleteResult | QueryResult<unknown>): boolean =>
  ('numUpdatedRows' in result
    ? result.numUpdatedRows
    : 'numDeletedRows' in result
      ? result.numDeletedRows
      : (result.numAffectedRows ?? 0n)) > 0n;
