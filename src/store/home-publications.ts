/**
 * The Home tab across replicas (issue 35 item 8): per person, when the newest snapshot published on
 * their tab was read. Each replica caches snapshots in its own memory; before it publishes one it
 * claims it here as the newest, so a replica never publishes a snapshot older than one another
 * replica published, and never shows a cached one older than it either.
 */
import type { RepoContext } from './context.js';

export interface HomePublicationsRepo {
  /** When the newest snapshot published for the person was read (epoch ms), if any. */
  newest(workspaceId: string, slackUserId: string): Promise<number | undefined>;
  /**
   * Records a snapshot read at `snapshotAt` as the newest to publish: true unless one read later
   * (or at the same time) was recorded first — then it must not be published. Atomic (one upsert).
   */
  claim(workspaceId: string, slackUserId: string, snapshotAt: number): Promise<boolean>;
}

export function createHomePublicationsRepo({ db, now }: RepoContext): HomePublicationsRepo {
  return {
    async newest(workspaceId, slackUserId) {
      const row = await db
        .selectFrom('home_publications')
        .select('snapshot_at')
        .where('workspace_id', '=', workspaceId)
        .where('slack_user_id', '=', slackUserId)
        .executeTakeFirst();
      return row ? Number(row.snapshot_at) : undefined;
    },

    async claim(workspaceId, slackUserId, snapshotAt) {
      const result = await db
        .insertInto('home_publications')
        .values({
          workspace_id: workspaceId,
          slack_user_id: slackUserId,
          snapshot_at: snapshotAt,
          updated_at: now(),
        })
        .onConflict((oc) =>
          oc
            .columns(['workspace_id', 'slack_user_id'])
            .doUpdateSet({ snapshot_at: snapshotAt, updated_at: now() })
            .where('home_publications.snapshot_at', '<', snapshotAt),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
  };
}
