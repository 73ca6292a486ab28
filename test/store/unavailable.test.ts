/**
 * PostgreSQL going away under the app: backends terminated while queries run (pg_terminate_backend),
 * a server that accepts connections and never answers, a statement that runs too long. The process
 * survives (an unhandled 'error' event would end this test worker), the queries in flight fail with
 * a StoreUnavailableError, and the next queries succeed.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store, StoreUnavailableError } from '../../src/store/index.js';
import { describeWithPostgres, type PgSchema, TEST_DATABASE_URL, withPgSchema } from '../helpers/postgres.js';
import { eventually } from '../helpers/slack-harness.js';
import { newKeyring } from '../helpers/store-backends.js';
import { silentServer } from '../helpers/tcp.js';

/** Runs one statement as the test's own superuser connection. */
async function admin<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('a PostgreSQL server that accepts connections and never answers', () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    silent = await silentServer();
  });
  afterAll(() => silent.close());

  it('start-up fails with StoreUnavailableError (connect bound) instead of hanging', async () => {
    const error = await openStore({
      databaseUrl: `postgres://postgres@127.0.0.1:${silent.port}/test`,
      keyring: newKeyring(),
      connectTimeoutMs: 200,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).reason).toBe('timeout');
  });

  it('so does creating the store schema there', async () => {
    const error = await openStore({
      databaseUrl: `postgres://postgres:hunter2@127.0.0.1:${silent.port}/test`,
      pgSchema: 'anything',
      keyring: newKeyring(),
      connectTimeoutMs: 200,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).message)).not.toContain('hunter2');
  });
});

describeWithPostgres('PostgreSQL failing under a running store', () => {
  let pgSchema: PgSchema;
  let store: Store;
  let appName: string;
  beforeAll(async () => {
    pgSchema = await withPgSchema('unavailable');
    // A name of its own, so terminating "the app's backends" never touches another test's.
    appName = pgSchema.schema;
    const url = new URL(pgSchema.url);
    url.searchParams.set('application_name', appName);
    store = await openStore({
      databaseUrl: url.toString(),
      pgSchema: pgSchema.schema,
      keyring: newKeyring(),
      queryTimeoutMs: 1_000,
    });
  });
  afterEach(async () => {
    // Whatever a test did, the store answers again afterwards.
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
    expect(rows[0]?.one).toBe(1);
  });
  afterAll(async () => {
    await store?.close();
    await pgSchema?.drop();
  });

  const active = async () =>
    Number(
      (
        await admin<{ n: string }>(
          `select count(*) as n from pg_stat_activity where application_name = $1 and state = 'active'`,
          [appName],
        )
      )[0]?.n,
    );

  it('backends terminated while queries run: the process survives, those queries fail clearly, the next succeed', async () => {
    const inFlight = Array.from({ length: 8 }, (_, i) =>
      sql<{ n: number }>`select pg_sleep(0.5), ${i}::int as n`.execute(store.db),
    );
    // allSettled at once: every query is listened to before any of them can fail.
    const settled = Promise.allSettled(inFlight);
    await eventually(async () => (await active()) > 0, 'queries running on the server');
    const killed = await admin(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`,
      [appName],
    );
    expect(killed.length).toBeGreaterThan(0);
    const results = await settled;
    const failures = results.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expect(failure).toBeInstanceOf(StoreUnavailableError);

    // The next requests succeed: a read and a write through the repositories.
    await store.workspaces.setAdminToken('TNEXT', 'token-next', 'org-next');
    expect((await store.workspaces.get('TNEXT'))?.planningOrgId).toBe('org-next');
    const next = await Promise.allSettled(
      Array.from({ length: 8 }, () => sql<{ one: number }>`select 1 as one`.execute(store.db)),
    );
    expect(next.every((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('idle connections terminated: the next queries still succeed', async () => {
    await sql`select 1`.execute(store.db);
    await admin(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [
      appName,
    ]);
    const next = await Promise.allSettled(
      Array.from({ length: 4 }, () => sql<{ one: number }>`select 1 as one`.execute(store.db)),
    );
    // A connection found dead on first use may fail that one query (clearly); a retry succeeds.
    for (const r of next) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StoreUnavailableError);
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
    expect(rows[0]?.one).toBe(1);
  });

  it('a statement running past DATABASE_QUERY_TIMEOUT_MS fails with StoreUnavailableError (timeout)', async () => {
    const error = await sql`select pg_sleep(30)`.execute(store.db).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).reason).toBe('timeout');
  });

  it('a transaction whose connection is terminated fails clearly and leaves nothing behind', async () => {
    const attempt = store.db
      .transaction()
      .execute(async (trx) => {
        await sql`create table half_done (id int)`.execute(trx);
        await sql`select pg_sleep(0.5)`.execute(trx);
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    await eventually(async () => (await active()) > 0, 'the transaction running on the server');
    await admin(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [
      appName,
    ]);
    expect(await attempt).toBeInstanceOf(StoreUnavailableError);
    const left = await admin(
      `select 1 from information_schema.tables where table_schema = $1 and table_name = 'half_done'`,
      [pgSchema.schema],
    );
    expect(left).toHaveLength(0);
  });
});
