/**
 * Who took part in an assumption's experiment, as picked in Slack (planning user ids). The service
 * cannot hold them (its experiment payload has no such field), so they live here, per workspace.
 */
import { z } from 'zod';
import type { RepoContext } from './context.js';
import { parseInput } from './errors.js';

export interface ExperimentParticipantsRepo {
  /** Replaces the participants of an assumption's experiment (an empty list forgets them). */
  set(workspaceId: string, assumptionId: string, planningUserIds: readonly string[]): Promise<void>;
  /** The participants of each of these assumptions that has any. */
  get(workspaceId: string, assumptionIds: readonly string[]): Promise<Record<string, string[]>>;
}

const id = z.string().min(1);
const setInput = z.object({
  workspaceId: id,
  assumptionId: id,
  planningUserIds: z.array(id).max(100),
});
const UserIds = z.array(z.string());

export function createExperimentParticipantsRepo({ db, now }: RepoContext): ExperimentParticipantsRepo {
  return {
    async set(workspaceId, assumptionId, planningUserIds) {
      const input = parseInput(
        setInput,
        { workspaceId, assumptionId, planningUserIds },
        'experiment participants',
      );
      const ids = [...new Set(input.planningUserIds)];
      if (ids.length === 0) {
        await db
          .deleteFrom('experiment_participants')
          .where('workspace_id', '=', input.workspaceId)
          .where('assumption_id', '=', input.assumptionId)
          .execute();
        return;
      }
      const row = { planning_user_ids: JSON.stringify(ids), updated_at: now() };
      await db
        .insertInto('experiment_participants')
        .values({ workspace_id: input.workspaceId, assumption_id: input.assumptionId, ...row })
        .onConflict((oc) => oc.columns(['workspace_id', 'assumption_id']).doUpdateSet(row))
        .execute();
    },

    async get(workspaceId, assumptionIds) {
      if (assumptionIds.length === 0) return {};
      const rows = await db
        .selectFrom('experiment_participants')
        .select(['assumption_id', 'planning_user_ids'])
        .where('workspace_id', '=', workspaceId)
        .where('assumption_id', 'in', [...assumptionIds])
        .execute();
      const out: Record<string, string[]> = {};
      for (const r of rows) {
        const parsed = UserIds.safeParse(JSON.parse(r.planning_user_ids));
        if (parsed.success) out[r.assumption_id] = parsed.data;
      }
      return out;
    },
  };
}
