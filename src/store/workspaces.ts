/** Per-workspace settings: the planning organization it is connected to and that org's admin token. */
import { z } from 'zod';
import { aad } from './aad.js';
import { type RepoContext, touched } from './context.js';
import { parseInput } from './errors.js';

export interface WorkspaceSettings {
  workspaceId: string;
  /** Organization admin token used to provision service accounts (decrypted). */
  adminToken?: string;
  planningOrgId?: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface WorkspacesRepo {
  get(workspaceId: string): Promise<WorkspaceSettings | undefined>;
  /** Connects the workspace to an organization with its admin token (replaces any earlier one). */
  setAdminToken(workspaceId: string, token: string, orgId: string): Promise<WorkspaceSettings>;
  /**
   * Forgets the admin token. The organization id stays: it still says which organization the
   * workspace's identities belong to. Returns false when the workspace has no settings.
   */
  clearAdminToken(workspaceId: string): Promise<boolean>;
}

const adminTokenInput = z.object({
  workspaceId: z.string().min(1),
  token: z.string().min(1),
  orgId: z.string().min(1),
});

export function createWorkspacesRepo({ db, keyring, now }: RepoContext): WorkspacesRepo {
  const repo: WorkspacesRepo = {
    async get(workspaceId) {
      const row = await db
        .selectFrom('workspaces')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        workspaceId: row.workspace_id,
        ...(row.admin_token === null
          ? {}
          : { adminToken: keyring.decrypt(row.admin_token, aad.workspaceAdmin(workspaceId)) }),
        ...(row.planning_org_id === null ? {} : { planningOrgId: row.planning_org_id }),
        createdAt: new Date(row.created_at),
        updatedAt: new Date(row.updated_at),
      };
    },

    async setAdminToken(workspaceId, token, orgId) {
      parseInput(adminTokenInput, { workspaceId, token, orgId }, 'admin token');
      const at = now();
      const sealed = keyring.encrypt(token, aad.workspaceAdmin(workspaceId));
      await db
        .insertInto('workspaces')
        .values({
          workspace_id: workspaceId,
          admin_token: sealed,
          planning_org_id: orgId,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc
            .column('workspace_id')
            .doUpdateSet({ admin_token: sealed, planning_org_id: orgId, updated_at: at }),
        )
        .execute();
      return (await repo.get(workspaceId))!;
    },

    async clearAdminToken(workspaceId) {
      const result = await db
        .updateTable('workspaces')
        .set({ admin_token: null, updated_at: now() })
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      return touched(result);
    },
  };
  return repo;
}
