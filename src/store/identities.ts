/**
 * Which planning service account each Slack user of a workspace acts with (token encrypted), and
 * forgetting people: an identity the app provisioned leaves a pending closure behind, written in the
 * same transaction, so no account is forgotten while still open (see account-closures.ts).
 */
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { aad } from './aad.js';
import { compiledStatement } from './compiled.js';
import { fromFlag, type RepoContext, toFlag, touched } from './context.js';
import { parseInput } from './errors.js';
import type { ClosureReason, Database, IdentitiesTable, IdentityOrigin } from './schema.js';

export type { ClosureReason, IdentityOrigin } from './schema.js';

export interface Identity {
  workspaceId: string;
  slackUserId: string;
  serviceAccountId: string;
  planningUserId: string;
  orgId: string;
  /** The service-account token, decrypted. */
  token: string;
  origin: IdentityOrigin;
  /**
   * Whether the account's name and avatar follow the person's Slack profile. A provisioned account
   * does unless told otherwise; a pasted one only when the person chose it (it may be shared, or
   * named differently on purpose).
   */
  followsProfile: boolean;
  /** False once the service refused the token (401): the user must reconnect. */
  valid: boolean;
  invalidReason?: string;
  /**
   * When Slack last confirmed that the person is a full member of the workspace (kit/acting.ts asks
   * again once it is older than MEMBER_CONFIRMATION_TTL); absent: not lately, or no longer one.
   */
  memberConfirmedAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** Which Slack user acts as a planning user: an identity without its token. */
export interface PlanningUserLink {
  slackUserId: string;
  planningUserId: string;
  serviceAccountId: string;
}

/** An identity the store forgot, without its token. */
export type RemovedIdentity = Omit<
  Identity,
  'token' | 'valid' | 'invalidReason' | 'createdAt' | 'updatedAt' | 'followsProfile' | 'memberConfirmedAt'
>;

/** How forgotten people's provisioned accounts are to be closed. */
export interface ForgetOptions {
  /** What made the app forget them (logged with each closure). */
  reason: ClosureReason;
  /**
   * The organization admin token to close them with when the workspace saved none of its own
   * (PLANNING_ADMIN_TOKEN in single-workspace mode); the saved one wins.
   */
  adminToken?: string | undefined;
}

/** What forgetting did: the identities removed, and how many of their accounts are now to close. */
export interface Forgotten {
  identities: RemovedIdentity[];
  /** Provisioned accounts recorded for closing. */
  toClose: number;
  /** Provisioned accounts that cannot be closed: the workspace had no organization admin token. */
  unclosable: number;
}

export type IdentityInput = Pick<
  Identity,
  'workspaceId' | 'slackUserId' | 'serviceAccountId' | 'planningUserId' | 'orgId' | 'token' | 'origin'
> & {
  /** Whether the account follows the Slack profile; left out: its origin's default. */
  followsProfile?: boolean;
};

export interface IdentitiesRepo {
  get(workspaceId: string, slackUserId: string): Promise<Identity | undefined>;
  /**
   * The Slack users of the workspace acting as any of these planning users — an id is matched as a
   * planning user id or a service-account id (a service account is a planning user of the same id) —
   * ordered by Slack user id; several may act as one. One query for up to
   * {@link PLANNING_USERS_PER_QUERY} ids; tokens are not read.
   */
  findByPlanningUsers(workspaceId: string, planningUserIds: readonly string[]): Promise<PlanningUserLink[]>;
  /** Creates or replaces the user's identity; a replaced one becomes valid again. */
  save(input: IdentityInput): Promise<Identity>;
  /**
   * Stores the identity only when the user has none: `added` says whether this one was stored; the
   * identity returned is the one stored either way. Provisioning keeps the first account stored and
   * never replaces one another replica (or the person, with a pasted token) stored meanwhile.
   */
  add(input: IdentityInput): Promise<{ identity: Identity; added: boolean }>;
  /** Replaces the token in place (regenerate) and marks it valid; false when there is no identity. */
  rotateToken(workspaceId: string, slackUserId: string, newToken: string): Promise<boolean>;
  /** The person's choice whether their account follows their Slack profile; false when there is no identity. */
  setFollowsProfile(workspaceId: string, slackUserId: string, follows: boolean): Promise<boolean>;
  /** Marks the token refused, keeping the row so the user can be led to reconnect. */
  markInvalid(workspaceId: string, slackUserId: string, reason?: string): Promise<boolean>;
  /**
   * Records when Slack confirmed that the person is a full member (`at`), or clears it (undefined:
   * Slack said they are not one); the identity is otherwise untouched. False when there is no identity.
   */
  confirmMember(workspaceId: string, slackUserId: string, at: Date | undefined): Promise<boolean>;
  delete(workspaceId: string, slackUserId: string): Promise<boolean>;
  /**
   * The person disconnects: their identity goes and, in the same transaction, what they left is
   * remembered (store.departures: the account, never its token; `closed` when they closed it), so
   * their next command asks them instead of making a new account. Of two calls at once only one
   * finds the identity; the other gets undefined.
   */
  disconnect(
    workspaceId: string,
    slackUserId: string,
    options: { closed: boolean },
  ): Promise<RemovedIdentity | undefined>;
  /**
   * Forgets the person (a deactivated user): their identity goes and, when the app provisioned its
   * account, a closure is recorded in the same transaction. Of two calls at once only one finds the
   * identity; the other forgets nothing.
   */
  forget(workspaceId: string, slackUserId: string, options: ForgetOptions): Promise<Forgotten>;
  /** Every identity of the workspace, by Slack user id. */
  listByWorkspace(workspaceId: string): Promise<Identity[]>;
}

/** Ids per query of {@link IdentitiesRepo.findByPlanningUsers}: far below either database's bound. */
export const PLANNING_USERS_PER_QUERY = 500;

const id = z.string().min(1);
const identityInput = z.object({
  workspaceId: id,
  slackUserId: id,
  serviceAccountId: id,
  planningUserId: id,
  orgId: id,
  token: id,
  origin: z.enum(['provisioned', 'brought']),
  followsProfile: z.boolean().optional(),
});

/** A person's identity: read on every request that acts (compiled once). */
const identityOf = compiledStatement(2, (db, workspaceId: string, slackUserId: string) =>
  db
    .selectFrom('identities')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('slack_user_id', '=', slackUserId),
);

export function createIdentitiesRepo({ db, keyring, now }: RepoContext): IdentitiesRepo {
  const toIdentity = (row: Selectable<IdentitiesTable>): Identity => ({
    workspaceId: row.workspace_id,
    slackUserId: row.slack_user_id,
    serviceAccountId: row.service_account_id,
    planningUserId: row.planning_user_id,
    orgId: row.org_id,
    token: keyring.decrypt(row.token, aad.identity(row.workspace_id, row.slack_user_id)),
    origin: row.origin,
    followsProfile:
      row.follows_profile === null || row.follows_profile === undefined
        ? row.origin === 'provisioned'
        : fromFlag(row.follows_profile),
    valid: fromFlag(row.valid),
    ...(row.invalid_reason === null ? {} : { invalidReason: row.invalid_reason }),
    ...(row.member_confirmed_at === null ? {} : { memberConfirmedAt: new Date(row.member_confirmed_at) }),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });

  const rowOf = (v: IdentityInput) => ({
    key: { workspace_id: v.workspaceId, slack_user_id: v.slackUserId },
    row: {
      service_account_id: v.serviceAccountId,
      planning_user_id: v.planningUserId,
      org_id: v.orgId,
      token: keyring.encrypt(v.token, aad.identity(v.workspaceId, v.slackUserId)),
      origin: v.origin,
      follows_profile: v.followsProfile === undefined ? null : toFlag(v.followsProfile),
      valid: toFlag(true),
      invalid_reason: null,
      updated_at: now(),
    },
  });

  const inWorkspace = (workspaceId: string) =>
    db.selectFrom('identities').selectAll().where('workspace_id', '=', workspaceId);

  const repo: IdentitiesRepo = {
    async get(workspaceId, slackUserId) {
      const [row] = (await identityOf.run(db, workspaceId, slackUserId)).rows;
      return row && toIdentity(row);
    },

    async findByPlanningUsers(workspaceId, planningUserIds) {
      const ids = [...new Set(planningUserIds)];
      const found = new Map<string, PlanningUserLink>();
      for (let start = 0; start < ids.length; start += PLANNING_USERS_PER_QUERY) {
        const chunk = ids.slice(start, start + PLANNING_USERS_PER_QUERY);
        const rows = await db
          .selectFrom('identities')
          .select(['slack_user_id', 'planning_user_id', 'service_account_id'])
          .where('workspace_id', '=', workspaceId)
          .where((eb) => eb.or([eb('planning_user_id', 'in', chunk), eb('service_account_id', 'in', chunk)]))
          .orderBy('slack_user_id')
          .execute();
        for (const row of rows) {
          found.set(row.slack_user_id, {
            slackUserId: row.slack_user_id,
            planningUserId: row.planning_user_id,
            serviceAccountId: row.service_account_id,
          });
        }
      }
      // Several chunks: one identity may match in two of them, and each chunk is ordered alone.
      return [...found.values()].sort((a, b) => (a.slackUserId < b.slackUserId ? -1 : 1));
    },

    async save(input) {
      const v = parseInput(identityInput, input, 'identity');
      const { key, row } = rowOf(v);
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('identities')
          .values({ ...key, created_at: row.updated_at, ...row })
          .onConflict((oc) => oc.columns(['workspace_id', 'slack_user_id']).doUpdateSet(row))
          .execute();
        // Connected again: nothing left to ask about.
        await endDeparture(trx, v.workspaceId, v.slackUserId);
      });
      return (await repo.get(v.workspaceId, v.slackUserId))!;
    },

    async add(input) {
      const v = parseInput(identityInput, input, 'identity');
      const { key, row } = rowOf(v);
      const inserted = await db.transaction().execute(async (trx) => {
        const added = await trx
          .insertInto('identities')
          .values({ ...key, created_at: row.updated_at, ...row })
          .onConflict((oc) => oc.columns(['workspace_id', 'slack_user_id']).doNothing())
          .returning('slack_user_id')
          .executeTakeFirst();
        if (added) await endDeparture(trx, v.workspaceId, v.slackUserId);
        return added;
      });
      const identity = await repo.get(v.workspaceId, v.slackUserId);
      // Deleted between the insert and the read (a deactivation): nothing stands stored.
      if (!identity) throw new Error('the identity was removed while it was being stored');
      return { identity, added: inserted !== undefined };
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

    async setFollowsProfile(workspaceId, slackUserId, follows) {
      parseInput(z.boolean(), follows, 'follows profile');
      const result = await db
        .updateTable('identities')
        .set({ follows_profile: toFlag(follows), updated_at: now() })
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

    async confirmMember(workspaceId, slackUserId, at) {
      parseInput(z.date().optional(), at, 'confirmation time');
      const result = await db
        .updateTable('identities')
        .set({ member_confirmed_at: at === undefined ? null : at.getTime() })
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

    disconnect: (workspaceId, slackUserId, { closed }) =>
      db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('identities')
          .where((eb) => eb.and({ workspace_id: workspaceId, slack_user_id: slackUserId }))
          .returning(['service_account_id', 'planning_user_id', 'org_id', 'origin'])
          .executeTakeFirst();
        if (!row) return undefined;
        const departure = {
          service_account_id: row.service_account_id,
          planning_user_id: row.planning_user_id,
          org_id: row.org_id,
          origin: row.origin,
          closed: toFlag(closed),
          departed_at: now(),
        };
        await trx
          .insertInto('departures')
          .values({ workspace_id: workspaceId, slack_user_id: slackUserId, ...departure })
          .onConflict((oc) => oc.columns(['workspace_id', 'slack_user_id']).doUpdateSet(departure))
          .execute();
        return {
          workspaceId,
          slackUserId,
          serviceAccountId: row.service_account_id,
          planningUserId: row.planning_user_id,
          orgId: row.org_id,
          origin: row.origin,
        };
      }),

    forget: (workspaceId, slackUserId, options) =>
      db
        .transaction()
        .execute((trx) => forgetIdentities(trx, { keyring, now }, workspaceId, [slackUserId], options)),

    async listByWorkspace(workspaceId) {
      const rows = await inWorkspace(workspaceId).orderBy('slack_user_id').execute();
      return rows.map(toIdentity);
    },
  };
  return repo;
}

/** In the caller's transaction: the person connected again, so what they left is no longer asked about. */
async function endDeparture(trx: Kysely<Database>, workspaceId: string, slackUserId: string) {
  await trx
    .deleteFrom('departures')
    .where('workspace_id', '=', workspaceId)
    .where('slack_user_id', '=', slackUserId)
    .execute();
}

/**
 * In the caller's transaction: deletes the workspace's identities of `slackUserIds` (`'all'`: every
 * one) and records a closure for each account the app provisioned, with the organization admin
 * token the workspace has now — read before anything of the workspace is deleted. Pasted accounts
 * are the person's own: only forgotten. A closure already recorded for an account stays as it is.
 * Those of them who had disconnected are forgotten too: a provisioned account they left open (to
 * come back to) is closed the same way.
 */
export async function forgetIdentities(
  trx: Kysely<Database>,
  { keyring, now }: Pick<RepoContext, 'keyring' | 'now'>,
  workspaceId: string,
  slackUserIds: readonly string[] | 'all',
  options: ForgetOptions,
): Promise<Forgotten> {
  if (slackUserIds !== 'all' && slackUserIds.length === 0)
    return { identities: [], toClose: 0, unclosable: 0 };
  let query = trx.deleteFrom('identities').where('workspace_id', '=', workspaceId);
  if (slackUserIds !== 'all') query = query.where('slack_user_id', 'in', slackUserIds);
  const rows = await query
    .returning([
      'workspace_id',
      'slack_user_id',
      'service_account_id',
      'planning_user_id',
      'org_id',
      'origin',
    ])
    .execute();
  const identities: RemovedIdentity[] = rows.map((r) => ({
    workspaceId: r.workspace_id,
    slackUserId: r.slack_user_id,
    serviceAccountId: r.service_account_id,
    planningUserId: r.planning_user_id,
    orgId: r.org_id,
    origin: r.origin,
  }));
  let departed = trx.deleteFrom('departures').where('workspace_id', '=', workspaceId);
  if (slackUserIds !== 'all') departed = departed.where('slack_user_id', 'in', slackUserIds);
  const leftOpen = (await departed.returning(['service_account_id', 'origin', 'closed']).execute())
    .filter((d) => d.origin === 'provisioned' && !fromFlag(d.closed))
    .map((d) => d.service_account_id);
  const accounts = [
    ...new Set([
      ...identities.filter((i) => i.origin === 'provisioned').map((i) => i.serviceAccountId),
      ...leftOpen,
    ]),
  ];
  if (accounts.length === 0) return { identities, toClose: 0, unclosable: 0 };

  const saved = await trx
    .selectFrom('workspaces')
    .select('admin_token')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  const adminToken = saved?.admin_token
    ? keyring.decrypt(saved.admin_token, aad.workspaceAdmin(workspaceId))
    : options.adminToken;
  if (!adminToken) return { identities, toClose: 0, unclosable: accounts.length };
  const at = now();
  for (const serviceAccountId of accounts) {
    await trx
      .insertInto('account_closures')
      .values({
        workspace_id: workspaceId,
        service_account_id: serviceAccountId,
        admin_token: keyring.encrypt(adminToken, aad.accountClosure(workspaceId, serviceAccountId)),
        reason: options.reason,
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'service_account_id']).doNothing())
      .execute();
  }
  return { identities, toClose: accounts.length, unclosable: 0 };
}
