/**
 * The last digest posted in a linked channel on demand (`/plan digest now`, *Post today's digest*):
 * its message ts and when it was posted, so `/plan digest` and Links and digests can say when and
 * where the last digest is, with a link to it. A scheduled digest is already recorded by its claim
 * (digest_claims.message_ts, posted_at); one posted on demand uses no claim (it is not the day's).
 *
 * Two nullable columns added: a replica of the previous version neither reads nor writes them, so
 * old and new replicas run together during a deploy (the old one records no digest posted on demand).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('channel_links').addColumn('now_digest_ts', 'text').execute();
  await db.schema.alterTable('channel_links').addColumn('now_digest_at', 'bigint').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('channel_links').dropColumn('now_digest_at').execute();
  await db.schema.alterTable('channel_links').dropColumn('now_digest_ts').execute();
}
