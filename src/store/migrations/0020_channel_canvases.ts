/**
 * The plan as a channel canvas (issue 37): per linked Slack channel whose canvas is on, the canvas
 * Slack made for it, whether it waits for an edit (`dirty_at`, the first change not yet shown), when
 * it was last edited (the debounce), the digest of each feature's section as last written (an
 * unchanged plan costs no call; one feature changed is one section replaced), and what Slack refused
 * (told once to whoever turned it on).
 *
 * One added table: a replica of the previous version never reads it, so old and new replicas run
 * together during a deploy (the old one keeps no canvas current).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('channel_canvases')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_channel_id', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('turned_on_by', 'text', (c) => c.notNull())
    .addColumn('canvas_id', 'text')
    .addColumn('canvas_kind', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('problem', 'text')
    .addColumn('dirty_at', 'bigint')
    .addColumn('edited_at', 'bigint')
    .addColumn('sections', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_canvases_pk', ['workspace_id', 'slack_channel_id'])
    .execute();
  // The minute tick's look for canvases waiting for an edit.
  await db.schema.createIndex('channel_canvases_dirty').on('channel_canvases').column('dirty_at').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('channel_canvases').execute();
}
