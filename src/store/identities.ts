/** Which planning service account each Slack user of a workspace acts with (token encrypted). */
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { aad } from './aad.js';
import { fromFlag, type RepoContext, toFlag, touched } from './context.js';
import { parseInput } from './errors.js';
import type { IdentitiesTable, IdentityOrigin } from './schema.js';

export type { IdentityOrigin } from './schema.js';

export interface Identity {
  workspaceId: string;
  slackUserId: string;
  serviceAccountId: string;
  planningUserId: string;
  orgId: string;
  /** The service-account token, decrypted. */
  token: string;
  origin: IdentityOrigin;
  /** False once the service refused the token (401): the user must reconnect. */
  valid: boolean;
  invalidReason?: string;
  createdAt: Date;
  updatedAt: Date;
}

export type IdentityInput = Pick<
  Identity,
  'workspaceId' | 'slackUserId' | 'serviceAccountId' | 'planningUserId' | 'orgId' | 'token' | 'origin'
>;

export interface IdentitiesRepo {
  get(workspaceId: string, slackUserId: string): Promise<Identity | undefined>;
  /** The Slack user acting as a planning user (the first by Slack user id if several do). */
  findByPlanningUser(workspaceId: string, planningUserId: string): Promise<Identity | undefined>;
  /** Creates or replaces the user's identity; a replaced one becomes valid again. */
  save(input: IdentityInput): Promise<Identity>;
  /** Replaces the token in place (regenerate) and marks it valid; false when there is no identity. */
  rotateToken(workspaceId: string, slackUserId: string, newToken: string): Promise<boolean>;
  /** Marks the token refused, keeping the row so the user can be led to reconnect. */
  markInvalid(workspaceId: string, slackUserId: string, reason?: string): Promise<boolean>;
  delete(workspaceId: string, slackUserId: string): Promise<boolean>;
  /** Every identity of the workspace, by Slack user id. */
  listByWorkspace(workspaceId: string): Promise<Identity[]>;
}

const id = z.string().min(1);
const identityInput = z.object({
  workspaceId: id,
  slackUserId: id,
  serviceAccountId: id,
  planningUserId: id,
  orgId: id,
  token: id,
  origin: z.enum(['provisioned', 'brought']),
});

export function createIdentitiesRepo({ db, keyring, now }: RepoContext): IdentitiesRepo {
  const toIdentity = (row: Selectable<IdentitiesTable>): Identity => ({
    workspaceId: row.workspace_id,
    slackUserId: row.slack_user_id,
    serviceAccountId: row.service_account_id,
    planningUserId: row.planning_user_id,
    orgId: row.org_id,
    token: keyring.decrypt(row.token, aad.identity(row.workspace_id, row.slack_user_id)),
    origin: row.origin,
    valid: fromFlag(row.valid),
    ...(row.invalid_reason === null ? {} : { invalidReason: row.invalid_reason }),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });

  const inWorkspace = (workspaceId: string) =>
    db.selectFrom('identities').selectAll().where('workspace_id', '=', workspaceId);
  const one = (workspaceId: string, slackUserId: string) =>
    inWorkspace(workspaceId).where('slack_user_id', '=', slackUserId);

  const repo: IdentitiesRepo = {
    async get(workspaceId, slackUserId) {
      const row = await one(workspaceId, slackUserId).executeTakeFirst();
      return row && toIdentity(row);
    },

    async findByPlanningUser(workspaceId, planningUserId) {
      const row = await inWorkspace(workspaceId)
        .where('planning_user_id', '=', planningUserId)
        .orderBy('slack_user_id')
        .limit(1)
        .executeTakeFirst();
      return row && toIdentity(row);
    },

    async save(input) {
      const v = parseInput(identityInput, input, 'identity');
      const at = now();
      const row = {
        service_account_id: v.serviceAccountId,
        planning_user_id: v.planningUserId,
        org_id: v.orgId,
        token: keyring.encrypt(v.token, aad.identity(v.workspaceId, v.slackUserId)),
        origin: v.origin,
        valid: toFlag(true),
        invalid_reason: null,
        updated_at: at,
      };
      await db
        .insertInto('identities')
        .values({ workspace_id: v.workspaceId, slack_user_id: v.slackUserId, created_at: at, ...row })
        .onConflict((oc) => oc.columns(['workspace_id', 'slack_user_id']).doUpdateSet(row))
        .execute();
      return (await repo.get(v.workspaceId, v.slackUserId))!;
    },

    async rotateToken(workspaceId, slackUserId, newToken) {
      parseInput(id, newToken, 'token');
      const result = await db
        .updateTable('identities')
        .set({
          token: keyring.encrypt(newToken, aad.identity(workspaceId, slackUserId)),
          valid: toFlag(true),
          invalid_reason: null,
          updated_at: now(),
        })
        .where((eb) => eb.and({ workspace_id: workspaceId, slack_user_id: slackUserId }))
        .executeTakeFirst();
      return touched(result);
    },

    async markInvalid(workspaceId, slackUserId, reason) {
      const result = await db
        .updateTable('identities')
        .set({ valid: toFlag(false), invalid_reason: reason ?? null, updated_at: now() })
        .where((eb) => eb.and({ workspace_id: workspaceId, slack_user_id: slackUserId }))
        .executeTakeFirst();
      return touched(result);
    },

    async delete(workspaceId, slackUserId) {
      const result = await db
        .deleteFrom('identities')
        .where((eb) => eb.and({ workspace_id: workspaceId, slack_user_id: slackUserId }))
        .executeTakeFirst();
      return touched(result);
    },

    async listByWorkspace(workspaceId) {
      const rows = await inWorkspace(workspaceId).orderBy('slack_user_id').execute();
      return rows.map(toIdentity);
    },
  };
  return repo;
}
