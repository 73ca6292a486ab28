/**
 * Service accounts the app provisioned for a workspace it forgot (uninstalled, its bot token
 * revoked, a person deactivated or their Slack token revoked), still to be closed in the service:
 * recorded in the transaction that forgets them, with the organization admin token the workspace
 * had, and worked through by the minute tick until closed or given up.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_closures')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('service_account_id', 'text', (c) => c.notNull())
    /** Encrypted organization admin token that closes it. */
    .addColumn('admin_token', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_closures_pk', ['workspace_id', 'service_account_id'])
    .execute();
  await db.schema
    .createIndex('account_closures_due')
    .on('account_closures')
    .column('next_attempt_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_closures').execute();
}
