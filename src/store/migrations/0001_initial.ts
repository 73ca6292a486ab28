/**
 * The first schema. Only types both SQLite and PostgreSQL understand alike (see ../schema.ts).
 * Migrations take `Kysely<any>` on purpose: they describe the database as it was, not as the
 * current row types say it is.
 */
import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

/** Every table records when a row was created and last changed (epoch ms). */
const timestamps = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
  table
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull());

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('installations')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey())
    .addColumn('enterprise_id', 'text')
    .addColumn('team_id', 'text')
    .addColumn('is_enterprise_install', 'integer', (c) => c.notNull())
    .addColumn('installer_user_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();

  await db.schema
    .createTable('installation_users')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addPrimaryKeyConstraint('installation_users_pk', ['workspace_id', 'slack_user_id'])
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey())
    .addColumn('admin_token', 'text')
    .addColumn('planning_org_id', 'text')
    .$call(timestamps)
    .execute();

  await db.schema
    .createTable('identities')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('service_account_id', 'text', (c) => c.notNull())
    .addColumn('planning_user_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin in ('provisioned', 'brought')`))
    .addColumn('valid', 'integer', (c) => c.notNull())
    .addColumn('invalid_reason', 'text')
    .$call(timestamps)
    .addPrimaryKeyConstraint('identities_pk', ['workspace_id', 'slack_user_id'])
    .execute();
  await db.schema
    .createIndex('identities_planning_user')
    .on('identities')
    .columns(['workspace_id', 'planning_user_id'])
    .execute();

  await db.schema
    .createTable('channel_links')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_channel_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('digest_time', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('weekdays_only', 'integer', (c) => c.notNull())
    .addColumn('digest_enabled', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addPrimaryKeyConstraint('channel_links_pk', ['workspace_id', 'slack_channel_id'])
    .execute();
  // The scheduler pages through enabled links in key order.
  await db.schema
    .createIndex('channel_links_digest')
    .on('channel_links')
    .columns(['digest_enabled', 'workspace_id', 'slack_channel_id'])
    .execute();

  await db.schema
    .createTable('digest_claims')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_channel_id', 'text', (c) => c.notNull())
    .addColumn('local_date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('claimed', 'posted', 'failed')`))
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('retry_after', 'bigint')
    .addColumn('message_ts', 'text')
    .addColumn('snapshot', 'text')
    .addColumn('error', 'text')
    .addColumn('posted_at', 'bigint')
    .$call(timestamps)
    .addPrimaryKeyConstraint('digest_claims_pk', ['workspace_id', 'slack_channel_id', 'local_date'])
    .execute();
  await db.schema.createIndex('digest_claims_date').on('digest_claims').column('local_date').execute();

  await db.schema
    .createTable('processed_interactions')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'done')`))
    .addColumn('result', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('processed_interactions_expiry')
    .on('processed_interactions')
    .column('expires_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'processed_interactions',
    'digest_claims',
    'channel_links',
    'identities',
    'workspaces',
    'installation_users',
    'installations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
