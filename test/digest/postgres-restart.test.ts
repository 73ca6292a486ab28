/**
 * PostgreSQL restarting in the middle of a morning's digests (issue 26, "Bad input and failures"),
 * without restarting the shared test server: two schedulers, each with a store of its own on one
 * schema, reach PostgreSQL through a loopback proxy. Once a third of the digests are posted, the
 * "restart" begins: the proxy refuses new connections (nothing listens, as while a server is down)
 * and every backend of the two stores is terminated server-side (pg_terminate_backend, the admin
 * shutdown a restart sends), picked by an application_name of the test's own so no other test's
 * connections are touched. The schedulers keep ticking through it; once the proxy listens again
 * they reconnect, and the day ends with each channel's digest posted once.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import type { DigestScheduler } from '../../src/digest/scheduler.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';
import { type Bench, BOT_TOKEN, link, openBench } from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';
import { describeWithPostgres, TEST_DATABASE_URL } from '../helpers/postgres.js';
import { type SilenceableProxy, silenceableProxy } from '../helpers/tcp.js';

const MINUTE = 60_000;
const WORKSPACES = 3;
const CHANNELS = 12;
const DAY = '2026-03-10';

describeWithPostgres('PostgreSQL restarting mid-day under two schedulers', () => {
  let bench: Bench | undefined;
  let proxy: SilenceableProxy | undefined;
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await proxy?.close();
    await bench?.close();
  });

  /** Runs one statement as the test's own connection, straight to the server (not the proxy). */
  async function admin(text: string, values: unknown[]) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  it('the schedulers log the failed store calls, reconnect, and each digest is posted once', async () => {
    const b = await openBench('postgres');
    bench = b;
    const schema = b.pg;
    if (!schema) throw new Error('a PostgreSQL bench has its schema');
    b.features = [feature({ id: 'f1', heading: 'Login' })];
    const channels = Array.from({ length: CHANNELS }, (_, c) => `C${String(c).padStart(2, '0')}`);
    for (const [c, channel] of channels.entries())
      await link(b, channel, { workspaceId: `T${c % WORKSPACES}`, weekdaysOnly: false });

    const target = new URL(TEST_DATABASE_URL);
    const through = await silenceableProxy(target.hostname, Number(target.port || 5432));
    proxy = through;
    // A name of its own: terminating "the schedulers' backends" never touches another test's.
    const appName = schema.schema;
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${through.port}`;
    url.searchParams.set('application_name', appName);
    for (let i = 0; i < 2; i += 1)
      stores.push(
        await openStore({
          databaseUrl: url.toString(),
          pgSchema: schema.schema,
          keyring: createKeyring({ current: Buffer.alloc(32, 7).toString('base64') }),
          now: () => b.clock.now,
          connectTimeoutMs: 2_000,
        }),
      );

    let restarted = false;
    const restart = async () => {
      restarted = true;
      through.refuse();
      const killed = await admin(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [appName],
      );
      expect(killed.length).toBeGreaterThan(0);
      // A connection still starting up was not in pg_stat_activity yet: a restart drops it too.
      through.cut();
    };
    const schedulers: DigestScheduler[] = stores.map((store) =>
      b.scheduler({
        store,
        // Two runs at a time each: the morning is still under way when a third of it is posted.
        maxInFlight: 2,
        // A run beginning once a third is posted sets the restart off (and carries on into it).
        botTokenFor: async () => {
          if (!restarted && b.posted.length >= CHANNELS / 3) await restart();
          return BOT_TOKEN;
        },
      }),
    );
    const tickAll = () => Promise.all(schedulers.map((s) => s.tick()));

    b.clock.set(`${DAY}T08:00:00Z`);
    await tickAll();
    expect(restarted).toBe(true);
    // While it is down, a pass of each ends (nothing hangs) without reading the links.
    expect((await tickAll()).map((r) => r.unread)).toEqual([true, true]);
    const postedWhileDown = b.posted.length;
    expect(postedWhileDown).toBeLessThan(CHANNELS);

    await through.accept();
    const allPosted = async () =>
      (
        await b.store.db
          .selectFrom('digest_claims')
          .select('status')
          .where('local_date', '=', DAY)
          .where('status', '=', 'posted')
          .execute()
      ).length === CHANNELS;
    // Claims whose outcome could not be recorded come back once their lease (10 minutes) is over.
    for (let round = 0; round < 6 && !(await allPosted()); round += 1) {
      b.clock.advance(11 * MINUTE);
      await tickAll();
    }

    const perChannel = new Map<string, number>();
    for (const post of b.posted) perChannel.set(post.channel, (perChannel.get(post.channel) ?? 0) + 1);
    expect([...perChannel.keys()].sort()).toEqual(channels);
    expect([...perChannel.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(await allPosted()).toBe(true);
    // The restart did bite: store calls failed as unreachable, and were logged.
    const failures = b.logLines.filter((l) => l.includes('StoreUnavailableError'));
    expect(failures.length).toBeGreaterThan(0);
  }, 120_000);
});
