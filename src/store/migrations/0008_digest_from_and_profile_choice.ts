/**
 * Issue 23, two nullable columns (nothing rewritten, so a replica of the previous version keeps
 * running on the result: it neither reads nor writes them):
 *
 * - `channel_links.digest_from`: the instant the link's current digest schedule took effect (linked,
 *   turned on, its time, zone or weekends changed). A day's digest whose time came before it was
 *   never expected and is not caught up (a digest turned on at 22:27 for 08:30 waits for tomorrow's
 *   08:30). NULL (links made before this migration) sets no such bound.
 * - `identities.follows_profile`: whether the service account's name and avatar follow the person's
 *   Slack profile. NULL means the default for the identity's origin: a provisioned account follows,
 *   a pasted one does not.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('channel_links').addColumn('digest_from', 'bigint').execute();
  await db.schema.alterTable('identities').addColumn('follows_profile', 'integer').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('identities').dropColumn('follows_profile').execute();
  await db.schema.alterTable('channel_links').dropColumn('digest_from').execute();
}
