/**
 * Applies the numbered migrations at start-up. The provider is a static table (no directory
 * scanning), so it works the same from src/ under tsx and from dist/ once compiled. Several
 * replicas starting together are safe: Kysely's migrator holds a PostgreSQL advisory lock while it
 * migrates, and on SQLite its transaction (BEGIN IMMEDIATE, with the adapter declaring transactional
 * DDL, see database.ts) serializes processes.
 *
 * During a deploy a replica of the previous version may (re)start on a database the new version
 * already migrated. Kysely refuses a database with migrations it does not know; but every migration
 * is written so that the previous version keeps working on its result (added tables and nullable
 * columns), so such a replica starts on it as it is — when the database has all of its migrations,
 * and only later ones besides.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_posted_cards.js';
import * as m0003 from './migrations/0003_notifications.js';
import * as m0004 from './migrations/0004_task_origins.js';
import * as m0005 from './migrations/0005_experiment_participants.js';
import * as m0006 from './migrations/0006_account_closures.js';
import * as m0007 from './migrations/0007_posted_card_places.js';
import * as m0008 from './migrations/0008_digest_from_and_profile_choice.js';
import * as m0009 from './migrations/0009_token_rotation.js';
import * as m0010 from './migrations/0010_watch.js';
import * as m0011 from './migrations/0011_digest_transient_failures.js';
import * as m0012 from './migrations/0012_thread_discoveries.js';
import * as m0013 from './migrations/0013_workflow_consents.js';
import * as m0014 from './migrations/0014_posted_card_threads.js';
import * as m0015 from './migrations/0015_refresh_retry_and_home_versions.js';
import * as m0016 from './migrations/0016_member_confirmations.js';
import * as m0017 from './migrations/0017_departures.js';
import * as m0018 from './migrations/0018_digest_now_posted.js';
import * as m0020 from './migrations/0020_channel_canvases.js';
import * as m0023 from './migrations/0023_assistant_threads.js';
import type { Database } from './schema.js';

/** Every migration, by name; names sort in the order they apply. Append, never edit or renumber. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_posted_cards': m0002,
  '0003_notifications': m0003,
  '0004_task_origins': m0004,
  '0005_experiment_participants': m0005,
  '0006_account_closures': m0006,
  '0007_posted_card_places': m0007,
  '0008_digest_from_and_profile_choice': m0008,
  '0009_token_rotation': m0009,
  '0010_watch': m0010,
  '0011_digest_transient_failures': m0011,
  '0012_thread_discoveries': m0012,
  '0013_workflow_consents': m0013,
  '0014_posted_card_threads': m0014,
  '0015_refresh_retry_and_home_versions': m0015,
  '0016_member_confirmations': m0016,
  '0017_departures': m0017,
  '0018_digest_now_posted': m0018,
  '0020_channel_canvases': m0020,
  '0023_assistant_threads': m0023,
};

/**
 * Brings the database to the latest schema; returns the names applied by this call. `known` is
 * this version's migrations (tests pass an earlier version's).
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  schema?: string,
  known: Record<string, Migration> = migrations,
): Promise<{ applied: string[]; newer: string[] }> {
  const provider: MigrationProvider = { getMigrations: async () => known };
  const migrator = new Migrator({
    db,
    provider,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const newer = await newerMigrations(db, schema, Object.keys(known)).catch(() => undefined);
    if (newer && newer.length > 0) return { applied: [], newer };
    const failed = results.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed ?? '(setup)'} failed: ${reason}`, { cause: error });
  }
  return { applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName), newer: [] };
}

/**
 * The migrations a newer version applied, when the database holds every one of `known` and only
 * later ones besides; otherwise undefined (a gap or a foreign name is a real inconsistency).
 */
async function newerMigrations(
  db: Kysely<Database>,
  schema: string | undefined,
  known: readonly string[],
): Promise<string[] | undefined> {
  const tables = db.withTables<{ kysely_migration: { name: string } }>();
  const rows = await (schema === undefined ? tables : tables.withSchema(schema))
    .selectFrom('kysely_migration')
    .select('name')
    .execute();
  const executed = new Set(rows.map((r) => r.name));
  const last = known.at(-1) ?? '';
  const extra = [...executed].filter((name) => !known.includes(name)).sort();
  if (!known.every((name) => executed.has(name))) return undefined;
  if (!extra.every((name) => name > last)) return undefined;
  return extra;
}
