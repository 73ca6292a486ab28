/**
 * Applies the numbered migrations at start-up. The provider is a static table (no directory
 * scanning), so it works the same from src/ under tsx and from dist/ once compiled. Several
 * replicas starting together are safe: Kysely's migrator holds a PostgreSQL advisory lock while it
 * migrates, and on SQLite its transaction (BEGIN IMMEDIATE, with the adapter declaring transactional
 * DDL, see database.ts) serializes processes.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_posted_cards.js';
import * as m0003 from './migrations/0003_notifications.js';
import * as m0004 from './migrations/0004_task_origins.js';
import * as m0005 from './migrations/0005_experiment_participants.js';
import * as m0006 from './migrations/0006_posted_card_places.js';
import type { Database } from './schema.js';

/** Every migration, by name; names sort in the order they apply. Append, never edit or renumber. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_posted_cards': m0002,
  '0003_notifications': m0003,
  '0004_task_origins': m0004,
  '0005_experiment_participants': m0005,
  '0006_posted_card_places': m0006,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the database to the latest schema; returns the names applied by this call. */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed ?? '(setup)'} failed: ${reason}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
