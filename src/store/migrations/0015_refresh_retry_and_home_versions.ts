/**
 * Issue 35, items 1 and 8.
 *
 * Token rotation: a refresh Slack failed for a passing reason (`service_unavailable`, a 5xx, a
 * timeout…) is tried again with backoff, by whichever replica comes first after `refresh_retry_at`;
 * `refresh_failures` counts such failures in a row (the backoff doubles with it). `bot_expires_at`
 * is the bot token's expiry (ms, not a secret: the token itself stays in the encrypted JSON), so the
 * jobs find the installations to refresh ahead of time without decrypting every one.
 *
 * Home tab: `home_publications` holds, per person, when the newest Home snapshot published was
 * read (`snapshot_at`, ms), so that no replica publishes an older one from its cache over it.
 *
 * Nullable columns and one table added, nothing rewritten: a replica of the previous version keeps
 * working beside this one (it ignores them).
 */
import type { Kysely } from 'kysely';

const COLUMNS = [
  ['refresh_retry_at', 'bigint'],
  ['refresh_failures', 'integer'],
  ['bot_expires_at', 'bigint'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  for (const [column, type] of COLUMNS) {
    await db.schema.alterTable('installations').addColumn(column, type).execute();
  }
  await db.schema
    .createTable('home_publications')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('snapshot_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('home_publications_pk', ['workspace_id', 'slack_user_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('home_publications').execute();
  for (const [column] of [...COLUMNS].reverse()) {
    await db.schema.alterTable('installations').dropColumn(column).execute();
  }
}
