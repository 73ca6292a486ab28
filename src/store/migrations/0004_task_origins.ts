/**
 * Where and by whom a task was created from Slack. The service does not say who created a task, and
 * Delete is the author's (or an admin's); a message in a task card's thread names its task through
 * the thread it is in; a discovery's confirmation goes to that thread.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_origins')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('feature_id', 'text', (c) => c.notNull())
    .addColumn('author_slack_id', 'text', (c) => c.notNull())
    .addColumn('slack_channel_id', 'text', (c) => c.notNull())
    .addColumn('thread_ts', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('task_origins_pk', ['workspace_id', 'task_id'])
    .execute();
  await db.schema
    .createIndex('task_origins_thread')
    .on('task_origins')
    .columns(['workspace_id', 'slack_channel_id', 'thread_ts'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('task_origins').execute();
}
