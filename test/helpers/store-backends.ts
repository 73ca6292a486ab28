/**
 * Runs one suite on both backends: SQLite in a temp dir and PostgreSQL in a fresh schema, a new
 * database for every test. Stores opened through the handle are closed after each test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe } from 'vitest';
import {
  createKeyring,
  type Keyring,
  openStore,
  type Store,
  type StoreOptions,
} from '../../src/store/index.js';
import { describeWithPostgres, type PgSchema, withPgSchema } from './postgres.js';

export type BackendName = 'sqlite' | 'postgres';

/** Where a store's data lives: what openStore needs besides the keyring. */
export type Location = Pick<StoreOptions, 'databaseUrl' | 'pgSchema' | 'sqliteFile'>;

export interface BackendHandle {
  name: BackendName;
  /** This test's fresh database. */
  location(): Location;
  /** For SQLite: the file's path. */
  sqliteFile(): string;
  /** Opens a store on this test's database (closed after the test). */
  open(options: Partial<StoreOptions> & { keyring: Keyring }): Promise<Store>;
}

export const newKey = (): string => randomBytes(32).toString('base64');
export const newKeyring = (): Keyring => createKeyring({ current: newKey() });

/** A clock tests move by hand. */
export function manualClock(start = Date.UTC(2025, 0, 6, 8, 0)) {
  const clock = {
    t: start,
    now: () => clock.t,
    advance: (ms: number) => {
      clock.t += ms;
    },
  };
  return clock;
}

function handle(name: BackendName): BackendHandle {
  let location: Location | undefined;
  let file = '';
  let cleanup: (() => Promise<void> | void) | undefined;
  const opened: Store[] = [];

  beforeEach(async () => {
    if (name === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'store-test-'));
      file = join(dir, 'planning.sqlite');
      location = { sqliteFile: file };
      cleanup = () => rmSync(dir, { recursive: true, force: true });
    } else {
      const pg: PgSchema = await withPgSchema('store');
      location = { databaseUrl: pg.url, pgSchema: pg.schema };
      cleanup = pg.drop;
    }
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
    await cleanup?.();
  });

  return {
    name,
    location: () => location!,
    sqliteFile: () => file,
    open: async (options) => {
      const store = await openStore({ ...location, ...options });
      opened.push(store);
      return store;
    },
  };
}

/** Declares `body` once per backend; PostgreSQL through describeWithPostgres (skip or fail when absent). */
export function forEachBackend(title: string, body: (backend: BackendHandle) => void): void {
  describe(`${title} [sqlite]`, () => body(handle('sqlite')));
  describeWithPostgres(`${title} [postgres]`, () => body(handle('postgres')));
}
