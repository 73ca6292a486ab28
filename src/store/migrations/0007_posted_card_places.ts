/**
 * Where each card's entity lives in the service — the organization, team, channel and feature the app
 * addressed it with when it posted the card — so that a press is checked against the card's own
 * place, and a card is retired only when its entity is gone from that place (a press naming another
 * team read 404 and retired a real task's cards).
 *
 * Nullable columns added, nothing rewritten: a replica of the previous version keeps inserting rows
 * without a place and reading rows with one (it selects the columns it knows), so old and new
 * replicas run together. A row without a place (recorded before, or by an old replica) gets it the
 * first time a press reads its entity (store/posted-cards.ts `place`).
 */
import type { Kysely } from 'kysely';

const COLUMNS = ['org_id', 'team_id', 'channel_id', 'feature_id'] as const;

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  for (const column of COLUMNS) {
    await db.schema.alterTable('posted_cards').addColumn(column, 'text').execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [...COLUMNS].reverse()) {
    await db.schema.alterTable('posted_cards').dropColumn(column).execute();
  }
}
