/**
 * Who disconnected, and the service account they acted with (never its token): what lets the next
 * command ask the person what to do instead of quietly making them a new, empty account, and
 * "Connect again" give a provisioned account back. Written by `identities.disconnect` in the
 * transaction that forgets the identity; removed when the person connects again (any identity
 * stored for them), is forgotten (deactivated, a revoked token) or the app is uninstalled.
 */
import type { Selectable } from 'kysely';
import { fromFlag, type RepoContext, toFlag, touched } from './context.js';
import type { DeparturesTable, IdentityOrigin } from './schema.js';

export interface Departure {
  workspaceId: string;
  slackUserId: string;
  serviceAccountId: string;
  planningUserId: string;
  orgId: string;
  origin: IdentityOrigin;
  /** Whether that account is known to be closed (`--close`, or found closed since). */
  closed: boolean;
  departedAt: Date;
}

export interface DeparturesRepo {
  get(workspaceId: string, slackUserId: string): Promise<Departure | undefined>;
  /** Records that the account the person left is closed; false when they left none here. */
  markClosed(workspaceId: string, slackUserId: string): Promise<boolean>;
}

export const toDeparture = (row: Selectable<DeparturesTable>): Departure => ({
  workspaceId: row.workspace_id,
  slackUserId: row.slack_user_id,
  serviceAccountId: row.service_account_id,
  planningUserId: row.planning_user_id,
  orgId: row.org_id,
  origin: row.origin,
  closed: fromFlag(row.closed),
  departedAt: new Date(row.departed_at),
});

export function createDeparturesRepo({ db }: RepoContext): DeparturesRepo {
  return {
    async get(workspaceId, slackUserId) {
      const row = await db
        .selectFrom('departures')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('slack_user_id', '=', slackUserId)
        .executeTakeFirst();
      return row && toDeparture(row);
    },

    async markClosed(workspaceId, slackUserId) {
      const result = await db
        .updateTable('departures')
        .set({ closed: toFlag(true) })
        .where('workspace_id', '=', workspaceId)
        .where('slack_user_id', '=', slackUserId)
        .executeTakeFirst();
      return touched(result);
    },
  };
}
