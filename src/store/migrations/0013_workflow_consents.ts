/**
 * Who let Workflow Builder steps act for them (issue 35 item 4): a row per person per workspace who
 * turned on "Let workflow steps act for me" on the app's Home. No row is the default: off.
 *
 * One added table: a replica of the previous version never reads it, so old and new replicas run
 * together during a deploy.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workflow_consents')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('workflow_consents_pk', ['workspace_id', 'slack_user_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('workflow_consents').execute();
}
