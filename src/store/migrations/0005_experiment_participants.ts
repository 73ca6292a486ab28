/**
 * The participants of an assumption's experiment, picked in Slack. The service's experiment payload
 * has no participants (it records whoever updates the experiment as an author), so the app keeps
 * the planning accounts people picked, per workspace and assumption.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's row types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('experiment_participants')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('assumption_id', 'text', (c) => c.notNull())
    /** JSON array of planning user ids. */
    .addColumn('planning_user_ids', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_participants_pk', ['workspace_id', 'assumption_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('experiment_participants').execute();
}
