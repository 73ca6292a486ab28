/**
 * The watch of linked channels (issue 24): what it last saw of each channel's features, its lease on
 * each link's pass, the changes Slack itself made or showed (so the watch never echoes them), and two
 * settings per link — the watch on or off, replies in card threads recorded as discoveries.
 *
 * Added tables and defaulted columns only: a replica of the previous version keeps reading and
 * writing `channel_links` as it knows it (the new columns take their defaults), so old and new
 * replicas run together during a deploy.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema
    .alterTable('channel_links')
    .addColumn('watch_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('channel_links')
    .addColumn('thread_discoveries', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('watch_links')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_channel_id', 'text', (c) => c.notNull())
    .addColumn('next_at', 'bigint', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('seen_at', 'bigint')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('watch_links_pk', ['workspace_id', 'slack_channel_id'])
    .execute();
  await db.schema.createIndex('watch_links_due').on('watch_links').column('next_at').execute();
  await db.schema
    .createTable('watch_features')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_channel_id', 'text', (c) => c.notNull())
    .addColumn('feature_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .addColumn('seen', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('watch_features_pk', ['workspace_id', 'slack_channel_id', 'feature_id'])
    .execute();
  await db.schema
    .createTable('slack_notes')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('slack_notes_pk', ['workspace_id', 'note'])
    .execute();
  await db.schema.createIndex('slack_notes_created').on('slack_notes').column('created_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('slack_notes').execute();
  await db.schema.dropTable('watch_features').execute();
  await db.schema.dropTable('watch_links').execute();
  await db.schema.alterTable('channel_links').dropColumn('thread_discoveries').execute();
  await db.schema.alterTable('channel_links').dropColumn('watch_enabled').execute();
}
