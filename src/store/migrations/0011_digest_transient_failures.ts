/**
 * Issue 26: `digest_claims.transient_failures`, how many of a (link, date)'s failed attempts failed
 * for a passing reason — a timeout, a connection reset, a 429 or a 5xx, a post whose outcome is
 * unknown. They do not use up the day's attempts: a claim is handed out again while
 * `attempt - transient_failures` is under the cap (the catch-up window bounds the rest).
 *
 * One column with a default, nothing rewritten: a replica of the previous version keeps running on
 * the result (its inserts get 0, and it counts every attempt against the cap, as it always did).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('digest_claims')
    .addColumn('transient_failures', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('digest_claims').dropColumn('transient_failures').execute();
}
