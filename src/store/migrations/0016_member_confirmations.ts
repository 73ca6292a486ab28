/**
 * When Slack last confirmed that a connected person is a full member of the workspace (issue 35
 * item 3): a request within MEMBER_CONFIRMATION_TTL of it is served without asking Slack's
 * users.info again (rate-limited per workspace, and a round trip on every request otherwise).
 * NULL: never confirmed, or cleared because Slack said they are no longer a full member.
 *
 * One nullable column added: a replica of the previous version neither reads nor writes it, so old
 * and new replicas run together during a deploy (the old one asks Slack on every request, as before).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('identities').addColumn('member_confirmed_at', 'bigint').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('identities').dropColumn('member_confirmed_at').execute();
}
