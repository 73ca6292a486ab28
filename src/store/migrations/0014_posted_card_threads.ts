/**
 * The thread a card was posted in (issue 35 item 7): a card posted as a reply (a task card in its
 * message's thread or in its feature card's) has its activity written in that thread's root, where
 * Slack keeps the conversation — a reply's own ts is no thread.
 *
 * One nullable column added, nothing rewritten: a replica of the previous version keeps inserting
 * rows without it (their activity goes under the card itself, as before) and reading the columns it
 * knows, so old and new replicas run together.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('posted_cards').addColumn('thread_ts', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('posted_cards').dropColumn('thread_ts').execute();
}
