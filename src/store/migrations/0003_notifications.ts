/**
 * Notification preferences (which DMs a person gets, quiet hours in their time zone) and the outbox
 * of DMs held back by quiet hours until they end.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_prefs')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('muted', 'text', (c) => c.notNull())
    .addColumn('quiet_start', 'text')
    .addColumn('quiet_end', 'text')
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_prefs_pk', ['workspace_id', 'slack_user_id'])
    .execute();
  await db.schema
    .createTable('notification_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('deliver_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_outbox_due')
    .on('notification_outbox')
    .column('deliver_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_outbox').execute();
  await db.schema.dropTable('notification_prefs').execute();
}
