/**
 * Token rotation (issue 25 item 4): who is refreshing an installation's tokens and until when (a
 * lease, so that of several replicas exactly one spends the single-use refresh token, and a replica
 * that died mid-refresh does not block the others for ever), and whether Slack refused a refresh
 * (the installation then needs to be reinstalled, and admins are told).
 *
 * The refresh token and the expiry themselves are not columns: they live in the installation's
 * encrypted JSON (Bolt's `bot.refreshToken`, `bot.expiresAt`), bound to its row like every token.
 *
 * Nullable columns added, nothing rewritten: a replica of the previous version keeps reading and
 * writing installations as before (it never refreshes: it had no rotation).
 */
import type { Kysely } from 'kysely';

const COLUMNS = [
  ['refresh_owner', 'text'],
  ['refresh_until', 'bigint'],
  ['lapsed_at', 'bigint'],
  ['lapsed_reason', 'text'],
] as const;

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  for (const [column, type] of COLUMNS) {
    await db.schema.alterTable('installations').addColumn(column, type).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const [column] of [...COLUMNS].reverse()) {
    await db.schema.alterTable('installations').dropColumn(column).execute();
  }
}
