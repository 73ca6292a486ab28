/**
 * Who let Workflow Builder steps act for them when someone else runs the workflow (a Home
 * preference, off by default): a row per person per workspace while it is on.
 */
import { z } from 'zod';
import type { RepoContext } from './context.js';
import { parseInput } from './errors.js';

export interface WorkflowConsentsRepo {
  /** Whether the person let workflow steps act for them in this workspace. */
  allows(workspaceId: string, slackUserId: string): Promise<boolean>;
  /** Turns it on or off; doing it twice changes nothing. */
  set(workspaceId: string, slackUserId: string, on: boolean): Promise<void>;
}

const person = z.object({ workspaceId: z.string().min(1), slackUserId: z.string().min(1) });

export function createWorkflowConsentsRepo({ db, now }: RepoContext): WorkflowConsentsRepo {
  return {
    async allows(workspaceId, slackUserId) {
      const row = await db
        .selectFrom('workflow_consents')
        .select('slack_user_id')
        .where('workspace_id', '=', workspaceId)
        .where('slack_user_id', '=', slackUserId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async set(workspaceId, slackUserId, on) {
      parseInput(person, { workspaceId, slackUserId }, 'person');
      if (!on) {
        await db
          .deleteFrom('workflow_consents')
          .where('workspace_id', '=', workspaceId)
          .where('slack_user_id', '=', slackUserId)
          .execute();
        return;
      }
      await db
        .insertInto('workflow_consents')
        .values({ workspace_id: workspaceId, slack_user_id: slackUserId, created_at: now() })
        .onConflict((oc) => oc.columns(['workspace_id', 'slack_user_id']).doNothing())
        .execute();
    },
  };
}
