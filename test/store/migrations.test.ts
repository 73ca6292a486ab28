import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { migrateToLatest, migrations } from '../../src/store/migrate.js';
import { describeWithPostgres, type PgSchema, TEST_DATABASE_URL, withPgSchema } from '../helpers/postgres.js';
import { forEachBackend, newKeyring } from '../helpers/store-backends.js';

function recordingLogger() {
  const lines: string[] = [];
  return { lines, info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) };
}

const tables = [
  'account_closures',
  'assistant_threads',
  'channel_canvases',
  'channel_links',
  'departures',
  'digest_claims',
  'experiment_participants',
  'home_publications',
  'identities',
  'installation_users',
  'installations',
  'posted_cards',
  'notification_prefs',
  'notification_outbox',
  'processed_interactions',
  'slack_notes',
  'task_origins',
  'thread_discoveries',
  'workflow_consents',
  'watch_features',
  'watch_links',
  'workspaces',
];

describe('migrations', () => {
  it('are a static, numbered table', () => {
    const names = Object.keys(migrations);
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(/^\d{4}_[a-z0-9_]+$/);
  });
});

forEachBackend('a replica of the previous version', (backend) => {
  it('starts on a database a newer version migrated, and leaves it as it is', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const names = Object.keys(migrations);
    const previous = Object.fromEntries(Object.entries(migrations).slice(0, -1));
    // What a replica still running the previous version does when it (re)starts during a deploy.
    expect(await migrateToLatest(store.db, backend.location().pgSchema, previous)).toEqual({
      applied: [],
      newer: [names.at(-1)],
    });
    const applied = await store.db
      .withTables<{ kysely_migration: { name: string } }>()
      .selectFrom('kysely_migration')
      .select('name')
      .orderBy('name')
      .execute();
    expect(applied.map((r) => r.name)).toEqual(names);
    // A set that does not end where the database's begins is still refused.
    const gap = Object.fromEntries(Object.entries(migrations).filter(([name]) => name !== names[1]));
    await expect(migrateToLatest(store.db, backend.location().pgSchema, gap)).rejects.toThrow(
      /Database migration/,
    );
  });
});

describe('SQLite store', () => {
  let dir: string;
  const stores: Store[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates planning.sqlite in DATA_DIR in WAL mode with foreign keys, migrating once', async () => {
    const first = recordingLogger();
    const store = await openStore({ dataDir: join(dir, 'data'), keyring: newKeyring(), logger: first });
    stores.push(store);
    expect(store.backend).toBe('sqlite');
    expect(existsSync(join(dir, 'data', 'planning.sqlite'))).toBe(true);
    expect(first.lines).toEqual([
      'Store (sqlite) migrated: 0001_initial, 0002_posted_cards, 0003_notifications, 0004_task_origins, 0005_experiment_participants, 0006_account_closures, 0007_posted_card_places, 0008_digest_from_and_profile_choice, 0009_token_rotation, 0010_watch, 0011_digest_transient_failures, 0012_thread_discoveries, 0013_workflow_consents, 0014_posted_card_threads, 0015_refresh_retry_and_home_versions, 0016_member_confirmations, 0017_departures, 0018_digest_now_posted, 0020_channel_canvases, 0023_assistant_threads',
    ]);
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(store.db)).rows[0] as object)[0];
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
    await store.close();
    stores.pop();

    const second = recordingLogger();
    stores.push(await openStore({ dataDir: join(dir, 'data'), keyring: newKeyring(), logger: second }));
    expect(second.lines).toEqual([]);
  });

  it('runs in memory', async () => {
    const store = await openStore({ sqliteFile: ':memory:', keyring: newKeyring() });
    stores.push(store);
    await store.once.begin('k', 1000);
    expect(await store.once.begin('k', 1000)).toEqual({ state: 'pending' });
    expect(existsSync(join(dir, 'planning.sqlite'))).toBe(false);
  });
});

describeWithPostgres('PostgreSQL store', () => {
  let schema: PgSchema;
  const stores: Store[] = [];
  beforeEach(async () => {
    schema = await withPgSchema('migrate');
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await schema.drop();
  });

  async function tablesIn(name: string): Promise<string[]> {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string }>(
        'select table_name from information_schema.tables where table_schema = $1 order by table_name',
        [name],
      );
      return rows.map((r) => r.table_name);
    } finally {
      await client.end();
    }
  }

  it('several stores starting at once on a fresh schema apply one migration set, without error', async () => {
    const opened = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        openStore({ databaseUrl: TEST_DATABASE_URL, pgSchema: schema.schema, keyring: newKeyring() }),
      ),
    );
    for (const result of opened) if (result.status === 'fulfilled') stores.push(result.value);
    expect(opened.map((r) => r.status)).toEqual(Array(6).fill('fulfilled'));

    const applied = await stores[0]!.db
      .withTables<{ kysely_migration: { name: string } }>()
      .selectFrom('kysely_migration')
      .select('name')
      .execute();
    expect(applied.map((r) => r.name)).toEqual(Object.keys(migrations));
    expect(await tablesIn(schema.schema)).toEqual(
      [...tables, 'kysely_migration', 'kysely_migration_lock'].sort(),
    );

    // They share one database.
    await stores[1]!.links.upsert({
      workspaceId: 'T1',
      slackChannelId: 'C1',
      teamId: 't',
      channelId: 'c',
      createdBy: 'U',
    });
    expect((await stores[5]!.links.get('T1', 'C1'))?.teamId).toBe('t');
  });

  it('without pgSchema, works in the schema the URL’s search_path names', async () => {
    // A migrated schema elsewhere in the database must not make this one look migrated.
    const decoy = await withPgSchema('decoy');
    try {
      stores.push(await openStore({ databaseUrl: decoy.url, keyring: newKeyring() }));
      const store = await openStore({ databaseUrl: schema.url, keyring: newKeyring() });
      stores.push(store);
      expect(store.backend).toBe('postgres');
      expect(await store.identities.listByWorkspace('T1')).toEqual([]);
    } finally {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await decoy.drop();
    }
    expect(await tablesIn(schema.schema)).toContain('identities');
    // A second start in the same place finds it migrated.
    const again = recordingLogger();
    stores.push(await openStore({ databaseUrl: schema.url, keyring: newKeyring(), logger: again }));
    expect(again.lines).toEqual([]);
  });

  it('explains a search_path without a schema and refuses a schema name that is not an identifier', async () => {
    const missing = new URL(TEST_DATABASE_URL);
    missing.searchParams.set('options', `-c search_path=${schema.schema}_absent`);
    await expect(openStore({ databaseUrl: missing.toString(), keyring: newKeyring() })).rejects.toThrow(
      'the search_path of DATABASE_URL names no existing schema',
    );
    await expect(
      openStore({
        databaseUrl: TEST_DATABASE_URL,
        pgSchema: 'x"; drop schema public; --',
        keyring: newKeyring(),
      }),
    ).rejects.toThrow(/pgSchema must be a plain SQL identifier/);
  });
});
