/**
 * Store throughput: digest claims (claim + complete), identity reads (decrypt) and a paged walk of
 * enabled links, on SQLite (temp file) and, when reachable, PostgreSQL in a throwaway schema.
 *
 *   npx tsx bench/store.ts [links=2000]
 *   TEST_DATABASE_URL=postgres://… npx tsx bench/store.ts
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { withSearchPath } from '../src/store/database.js';
import { createKeyring, openStore, type Store } from '../src/store/index.js';

const LINKS = Number(process.argv[2] ?? 2000);
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const keyring = createKeyring({ current: randomBytes(32).toString('base64') });

async function timed(label: string, count: number, run: () => Promise<void>): Promise<string> {
  const start = performance.now();
  await run();
  const ms = performance.now() - start;
  return `${label.padEnd(34)} ${String(count).padStart(6)} in ${ms.toFixed(0).padStart(6)} ms  ${((count / ms) * 1000).toFixed(0).padStart(7)}/s`;
}

async function bench(name: string, store: Store): Promise<void> {
  const lines = [`${name}:`];
  lines.push(
    await timed('links.upsert', LINKS, async () => {
      for (let i = 0; i < LINKS; i++) {
        await store.links.upsert({
          workspaceId: `T${i % 20}`,
          slackChannelId: `C${i}`,
          teamId: 't',
          channelId: 'c',
          createdBy: 'U',
        });
      }
    }),
  );
  lines.push(
    await timed('links.listDigestEnabled (walk)', LINKS, async () => {
      let n = 0;
      for await (const _ of store.links.listDigestEnabled()) n++;
      if (n !== LINKS) throw new Error(`walked ${n} links, expected ${LINKS}`);
    }),
  );
  lines.push(
    await timed('digests.claim + complete', LINKS, async () => {
      for (let i = 0; i < LINKS; i++) {
        const key = { workspaceId: `T${i % 20}`, slackChannelId: `C${i}`, localDate: '2025-01-06' };
        const claim = await store.digests.claim({ ...key, owner: 'bench', leaseMs: 60_000 });
        if (!claim.claimed) throw new Error('claim refused');
        await store.digests.complete({
          ...key,
          owner: 'bench',
          outcome: { status: 'posted', messageTs: '1' },
        });
      }
    }),
  );
  lines.push(
    await timed('digests.claim (already posted)', LINKS, async () => {
      for (let i = 0; i < LINKS; i++) {
        const key = { workspaceId: `T${i % 20}`, slackChannelId: `C${i}`, localDate: '2025-01-06' };
        await store.digests.claim({ ...key, owner: 'other', leaseMs: 60_000 });
      }
    }),
  );
  const users = Math.min(LINKS, 500);
  for (let i = 0; i < users; i++) {
    await store.identities.save({
      workspaceId: 'T1',
      slackUserId: `U${i}`,
      serviceAccountId: 'sa',
      planningUserId: `p${i}`,
      orgId: 'o',
      token: `token-${i}`,
      origin: 'provisioned',
    });
  }
  lines.push(
    await timed('identities.get (decrypt)', users, async () => {
      for (let i = 0; i < users; i++) await store.identities.get('T1', `U${i}`);
    }),
  );
  console.log(lines.join('\n  '));
}

const dir = mkdtempSync(join(tmpdir(), 'store-bench-'));
try {
  const sqlite = await openStore({ sqliteFile: join(dir, 'planning.sqlite'), keyring });
  await bench('SQLite (file, WAL)', sqlite);
  await sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const schema = `bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
try {
  await admin.connect();
} catch (error) {
  console.log(`PostgreSQL: skipped (${(error as Error).message})`);
  process.exit(0);
}
try {
  const store = await openStore({ databaseUrl: withSearchPath(PG_URL, schema), pgSchema: schema, keyring });
  await bench('PostgreSQL (loopback)', store);
  await store.close();
} finally {
  await admin.query(`drop schema if exists "${schema}" cascade`);
  await admin.end();
}
