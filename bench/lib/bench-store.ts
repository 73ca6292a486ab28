/**
 * The store of a benchmark that runs the app's jobs (bench:digest, bench:watch): PostgreSQL in a
 * fresh schema of `databaseUrl` (dropped by `cleanup`), or SQLite in a temporary folder (removed by
 * `cleanup`) when none is given. `now` is the store's clock (the benchmarks move it). Its place
 * (`BenchStorePlace`) lets another process open the same store: bench:digest seeds it in one.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';

export interface BenchStore {
  store: Store;
  /** "PostgreSQL" or "SQLite (file)", for the results. */
  label: string;
  cleanup(): Promise<void>;
}

/** Where a bench's store lives and the key its secrets are sealed with: what opens it again. */
export type BenchStorePlace = { key: string } & ({ databaseUrl: string; schema: string } | { dir: string });

/** A place for a fresh store (nothing made yet), and how to remove what is made there. */
export async function newBenchStorePlace(options: {
  /** Names the schema or the folder (`bench_digest`…). */
  name: string;
  databaseUrl?: string | undefined;
}): Promise<{ place: BenchStorePlace; cleanup(): Promise<void> }> {
  const key = randomBytes(32).toString('base64');
  const { databaseUrl, name } = options;
  if (databaseUrl) {
    const schema = `${name}_${randomBytes(4).toString('hex')}`;
    const drop = async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    };
    return { place: { key, databaseUrl, schema }, cleanup: drop };
  }
  const dir = await mkdtemp(join(tmpdir(), `${name.replaceAll('_', '-')}-`));
  return { place: { key, dir }, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Opens the store at `place` (made and migrated by the first to open it). */
export async function openBenchStoreAt(
  place: BenchStorePlace,
  now: () => number,
): Promise<Omit<BenchStore, 'cleanup'>> {
  const keyring = createKeyring({ current: place.key });
  if ('dir' in place) {
    return { store: await openStore({ dataDir: place.dir, keyring, now }), label: 'SQLite (file)' };
  }
  const store = await openStore({ databaseUrl: place.databaseUrl, pgSchema: place.schema, keyring, now });
  return { store, label: 'PostgreSQL' };
}

export async function openBenchStore(options: {
  /** Names the schema or the folder (`bench_digest`…). */
  name: string;
  databaseUrl?: string | undefined;
  now: () => number;
}): Promise<BenchStore> {
  const { place, cleanup } = await newBenchStorePlace(options);
  return { ...(await openBenchStoreAt(place, options.now)), cleanup };
}
