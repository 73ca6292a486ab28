/**
 * Cards the app posted for a task or a feature, so that a change made from Slack updates every copy
 * in place (chat.update) and a deleted one can say so.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('posted_cards')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('slack_channel_id', 'text', (c) => c.notNull())
    .addColumn('message_ts', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('posted_cards_pk', ['workspace_id', 'slack_channel_id', 'message_ts'])
    .execute();
  await db.schema
    .createIndex('posted_cards_entity')
    .on('posted_cards')
    .columns(['workspace_id', 'kind', 'entity_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('posted_cards').execute();
}
