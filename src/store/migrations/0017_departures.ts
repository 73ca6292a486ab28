/**
 * Who disconnected (issue 36 item 1): a row per person per workspace who left with `/plan
 * disconnect`, naming the account they acted with — never its token — so the next command asks
 * them what to do instead of quietly making a new account, and "Connect again" gives a provisioned
 * one back (the organization admin token issues it a new token). Removed once they connect again.
 *
 * One added table: a replica of the previous version never reads it, so old and new replicas run
 * together during a deploy.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('departures')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('service_account_id', 'text', (c) => c.notNull())
    .addColumn('planning_user_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('closed', 'integer', (c) => c.notNull())
    .addColumn('departed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('departures_pk', ['workspace_id', 'slack_user_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('departures').execute();
}
