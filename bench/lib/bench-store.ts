/**
 * The store of a benchmark that runs the app's jobs (bench:digest, bench:watch): PostgreSQL in a
 * fresh schema of `databaseUrl` (dropped by `cleanup`), or SQLite in a temporary folder (removed by
 * `cleanup`) when none is given. `now` is the store's clock (the benchmarks move it).
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

export async function openBenchStore(options: {
  /** Names the schema or the folder (`bench_digest`…). */
  name: string;
  databaseUrl?: string | undefined;
  now: () => number;
}): Promise<BenchStore> {
  const keyring = createKeyring({ current: randomBytes(32).toString('base64') });
  const { databaseUrl, now, name } = options;
  if (databaseUrl) {
    const schema = `${name}_${randomBytes(4).toString('hex')}`;
    const store = await openStore({ databaseUrl, pgSchema: schema, keyring, now });
    const drop = async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    };
    return { store, label: 'PostgreSQL', cleanup: drop };
  }
  const dir = await mkdtemp(join(tmpdir(), `${name.replaceAll('_', '-')}-`));
  const store = await openStore({ dataDir: dir, keyring, now });
  return { store, label: 'SQLite (file)', cleanup: () => rm(dir, { recursive: true, force: true }) };
}
