/**
 * The app's assistant threads (Slack's AI side panel): which DM thread is one, whose it is, and the
 * channel its person is looking at (the thread context Slack sends on start and on each change) —
 * kept here rather than in one replica's memory, so any replica answers the thread's next message.
 *
 * One added table: a replica of the previous version never reads it, so old and new replicas run
 * together during a deploy.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('assistant_threads')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('dm_channel_id', 'text', (c) => c.notNull())
    .addColumn('thread_ts', 'text', (c) => c.notNull())
    .addColumn('slack_user_id', 'text', (c) => c.notNull())
    .addColumn('context_channel_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('assistant_threads_pk', ['workspace_id', 'dm_channel_id', 'thread_ts'])
    .execute();
  await db.schema
    .createIndex('assistant_threads_updated')
    .on('assistant_threads')
    .column('updated_at')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('assistant_threads').execute();
}
