/**
 * Replies in task card threads recorded as discoveries (issue 24 item 5): which Slack message became
 * which discovery of which task, and whose it is — so that the message's edit and deletion follow
 * it, with its author's own account.
 *
 * One added table: a replica of the previous version never reads it, so old and new replicas run
 * together during a deploy.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('thread_discoveries')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_channel_id', 'text', (c) => c.notNull())
    .addColumn('message_ts', 'text', (c) => c.notNull())
    .addColumn('thread_ts', 'text', (c) => c.notNull())
    .addColumn('author_slack_id', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('feature_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('discovery_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('thread_discoveries_pk', ['workspace_id', 'slack_channel_id', 'message_ts'])
    .execute();
  await db.schema
    .createIndex('thread_discoveries_created')
    .on('thread_discoveries')
    .column('created_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('thread_discoveries').execute();
}
