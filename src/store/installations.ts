/**
 * Slack installations for Bolt's OAuth flow, and the clean-up Slack's lifecycle events call for.
 *
 * Layout (after @slack/oauth's FileInstallationStore): the latest installation per installation key
 * (see {@link installationKeyFor}), whole and encrypted, plus each user's own grant (their user
 * token) beside it, so a fetch for a user gets that user's token, never the installer's.
 *
 * Enterprise Grid: an org-wide install is one installation (keyed by the enterprise id) serving
 * every workspace of the organization, while each of those workspaces keeps its own data (links,
 * identities, digests…) under its own workspace id, `<enterprise id>:<team id>` (see
 * {@link workspaceIdFor}). From a workspace id alone the store finds the installation that serves it
 * (the digest needs that), and the organization's uninstall finds every workspace it served.
 *
 * Token rotation: the refresh token and expiry are part of the encrypted installation; a claim with
 * a lease (`claimRefresh`) makes one replica at a time spend the single-use refresh token.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import { type Kysely, sql } from 'kysely';
import { aad } from './aad.js';
import { type RepoContext, touched } from './context.js';
import { type Forgotten, forgetIdentities, type RemovedIdentity } from './identities.js';
import type { Database } from './schema.js';

/** How the accounts a clean-up forgets are closed: the admin token to use when the workspace saved none. */
export interface CleanUpOptions {
  /** PLANNING_ADMIN_TOKEN, in single-workspace mode (see `ForgetOptions.adminToken`). */
  adminToken?: string | undefined;
}

/** An installation as stored, with what token rotation knows of it. */
export interface StoredInstallation {
  installation: Installation;
  /** Slack refused to refresh its tokens: it must be reinstalled. */
  lapsed?: { at: Date; reason: string };
  /** Refreshes that failed for a passing reason, in a row, and when the next may be tried. */
  refresh?: { failures: number; retryAt: Date };
}

export interface InstallationsRepo {
  /** Bolt's InstallationStore (pass it to `new App({ installationStore })`). */
  readonly installationStore: InstallationStore;
  /**
   * The bot token of the installation serving the workspace (its own, or its organization's), by
   * the same workspace id the rest of the store uses — for work that starts outside a Slack request.
   */
  botToken(workspaceId: string): Promise<string | undefined>;
  /** The whole installation under `installationKey` (tokens decrypted), or undefined. */
  read(installationKey: string): Promise<StoredInstallation | undefined>;
  /**
   * Claims the right to refresh the installation's tokens for `leaseMs`: true for exactly one
   * caller at a time (a claim whose lease ran out can be taken over), false when another holds it
   * or the installation lapsed or is gone. Atomic on SQLite and PostgreSQL (one conditional UPDATE).
   */
  claimRefresh(installationKey: string, owner: string, leaseMs: number): Promise<boolean>;
  /**
   * Saves the refreshed installation and releases the claim — only while `owner` still holds it
   * (false otherwise: a newer install or another claimant came first, and this one is not saved).
   */
  saveRefreshed(installationKey: string, owner: string, installation: Installation): Promise<boolean>;
  /** Gives the claim up without change (nothing was tried: another replica refreshed first). */
  releaseRefresh(installationKey: string, owner: string): Promise<void>;
  /**
   * The refresh failed for a passing reason (Slack unavailable, a 5xx, a timeout): gives the claim
   * up, counts the failure and lets no replica claim again before `retryAt` (epoch ms).
   */
  deferRefresh(installationKey: string, owner: string, retryAt: number): Promise<void>;
  /**
   * Installations whose bot token expires before `before` (epoch ms), not lapsed, not claimed and
   * not waiting for a retry: what to refresh ahead of time (at most `limit`, soonest first).
   */
  dueForRefresh(before: number, limit: number): Promise<string[]>;
  /** Slack refused the refresh: the installation needs reinstalling (cleared by the next install). */
  markLapsed(installationKey: string, owner: string, reason: string): Promise<void>;
  /**
   * `app_uninstalled`: removes the installation and everything the workspaces it served left here
   * (one workspace; for an org-wide install, every workspace of the organization) — user grants,
   * settings (admin token), identities, channel links, digest claims. In the same transaction,
   * before the admin token goes, every account the app provisioned is recorded for closing with it
   * (store.closures); pasted ones are only forgotten. `forgotten.workspaceIds` says which.
   */
  deleteWorkspace(
    installationKey: string,
    options?: CleanUpOptions,
  ): Promise<Forgotten & { workspaceIds: string[] }>;
  /**
   * `tokens_revoked` (oauth user ids): drops those users' Slack user tokens (their grants and, when
   * one of them installed, the user part of the installation; the bot token stays) and deletes
   * their identities in every workspace the installation serves, so no credential is kept for a
   * user who withdrew; their provisioned accounts are recorded for closing in the same
   * transaction. Returns the removed identities (without tokens).
   */
  deleteUserTokens(
    installationKey: string,
    slackUserIds: readonly string[],
    options?: CleanUpOptions,
  ): Promise<RemovedIdentity[]>;
}

/** Bolt's installation query or its context: where a request comes from. */
export interface SlackSource {
  isEnterpriseInstall?: boolean | undefined;
  enterpriseId?: string | undefined;
  teamId?: string | undefined;
}

/**
 * The installation serving a request: the enterprise id for an org-wide install, the team id
 * otherwise. Takes Bolt's installation query or its context.
 */
export function installationKeyFor(query: SlackSource): string {
  const id = query.isEnterpriseInstall ? query.enterpriseId : query.teamId;
  if (!id) {
    throw new Error(
      query.isEnterpriseInstall
        ? 'an org-wide installation needs an enterprise id'
        : 'a workspace installation needs a team id',
    );
  }
  return id;
}

/**
 * The workspace id convention, the store's tenant key for everything but installations: the team id
 * of a workspace install; `<enterprise id>:<team id>` for a workspace of an org-wide install, so
 * that each workspace of the organization keeps its own links, identities and digests; the
 * enterprise id alone for an org-level request that names no workspace.
 */
export function workspaceIdFor(query: SlackSource): string {
  const installationKey = installationKeyFor(query);
  return query.isEnterpriseInstall && query.teamId ? `${installationKey}:${query.teamId}` : installationKey;
}

/** The installation that serves a workspace id (see {@link workspaceIdFor}). */
export function installationKeyOfWorkspace(workspaceId: string): string {
  const colon = workspaceId.indexOf(':');
  return colon < 0 ? workspaceId : workspaceId.slice(0, colon);
}

/** Per-workspace tables: what an uninstall removes for each workspace the installation served. */
const WORKSPACE_TABLES = [
  'workspaces',
  'channel_links',
  'digest_claims',
  'posted_cards',
  'task_origins',
  'notification_prefs',
  'notification_outbox',
  'experiment_participants',
  'thread_discoveries',
  'watch_links',
  'watch_features',
  'slack_notes',
  'home_publications',
  'workflow_consents',
  'departures',
  'channel_canvases',
  'assistant_threads',
] as const;

/**
 * Every workspace id with data here that `installationKey` serves: itself and, for an org-wide
 * install, each `<enterprise id>:<team id>` (a range scan: ':' sorts just before ';').
 */
async function workspacesServedBy(trx: Kysely<Database>, installationKey: string): Promise<string[]> {
  const ids = new Set([installationKey]);
  for (const table of ['identities', ...WORKSPACE_TABLES] as const) {
    const rows = await trx
      .selectFrom(table)
      .select('workspace_id')
      .distinct()
      .where('workspace_id', '>', `${installationKey}:`)
      .where('workspace_id', '<', `${installationKey};`)
      .execute();
    for (const row of rows) ids.add(row.workspace_id);
  }
  return [...ids].sort();
}

function installationKeyOf(installation: Installation): string {
  return installationKeyFor({
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
    enterpriseId: installation.enterprise?.id,
    teamId: installation.team?.id,
  });
}

type UserGrant = Installation['user'];

/** The bot token's expiry in epoch ms (Bolt keeps seconds), when it rotates. */
function expiryOf(installation: Installation): number | null {
  const { refreshToken, expiresAt } = installation.bot ?? {};
  return refreshToken && expiresAt !== undefined ? expiresAt * 1000 : null;
}

/** The user part without its tokens: what is left of a grant once revoked. */
function withoutUserTokens(user: UserGrant): UserGrant {
  return { ...user, token: undefined, refreshToken: undefined, expiresAt: undefined, scopes: undefined };
}

export function createInstallationsRepo({ db, keyring, now }: RepoContext): InstallationsRepo {
  const context = { keyring, now };
  const seal = (key: string, installation: Installation) =>
    keyring.encrypt(JSON.stringify(installation), aad.installation(key));
  const open = (key: string, data: string): Installation =>
    JSON.parse(keyring.decrypt(data, aad.installation(key)));

  /**
   * Removes the users' grants and strips their tokens from the installation. The installation is
   * rewritten only if unchanged since read (compare-and-swap), so a concurrent new install wins.
   */
  async function dropUserTokens(trx: Kysely<Database>, key: string, userIds: readonly string[]) {
    if (userIds.length === 0) return;
    await trx
      .deleteFrom('installation_users')
      .where('workspace_id', '=', key)
      .where('slack_user_id', 'in', userIds)
      .execute();
    const row = await trx
      .selectFrom('installations')
      .select(['data', 'installer_user_id'])
      .where('workspace_id', '=', key)
      .executeTakeFirst();
    if (!row || !userIds.includes(row.installer_user_id)) return;
    const installation = open(key, row.data);
    await trx
      .updateTable('installations')
      .set({
        data: seal(key, { ...installation, user: withoutUserTokens(installation.user) }),
        updated_at: now(),
      })
      .where('workspace_id', '=', key)
      .where('data', '=', row.data)
      .execute();
  }

  const installationStore: InstallationStore = {
    async storeInstallation(installation) {
      const key = installationKeyOf(installation);
      const at = now();
      const latest = {
        enterprise_id: installation.enterprise?.id ?? null,
        team_id: installation.team?.id ?? null,
        is_enterprise_install: installation.isEnterpriseInstall ? 1 : 0,
        installer_user_id: installation.user.id,
        data: seal(key, installation),
        updated_at: at,
        // A new install brings new tokens: whatever refresh was under way or refused is over.
        refresh_owner: null,
        refresh_until: null,
        lapsed_at: null,
        lapsed_reason: null,
        refresh_retry_at: null,
        refresh_failures: null,
        bot_expires_at: expiryOf(installation),
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('installations')
          .values({ workspace_id: key, created_at: at, ...latest })
          .onConflict((oc) => oc.column('workspace_id').doUpdateSet(latest))
          .execute();
        if (installation.user.token === undefined) return;
        const grant = {
          data: keyring.encrypt(
            JSON.stringify(installation.user),
            aad.installationUser(key, installation.user.id),
          ),
          updated_at: at,
        };
        await trx
          .insertInto('installation_users')
          .values({
            workspace_id: key,
            slack_user_id: installation.user.id,
            created_at: at,
            ...grant,
          })
          .onConflict((oc) => oc.columns(['workspace_id', 'slack_user_id']).doUpdateSet(grant))
          .execute();
      });
    },

    async fetchInstallation(query: InstallationQuery<boolean>) {
      const key = installationKeyFor(query);
      const row = await db
        .selectFrom('installations')
        .select('data')
        .where('workspace_id', '=', key)
        .executeTakeFirst();
      // Bolt expects a throw when there is none; its authorize turns it into "not authorized".
      if (!row) throw new Error(`No installation for workspace ${key}`);
      const installation = open(key, row.data);
      const { userId } = query;
      if (userId === undefined || installation.user.id === userId) return installation;
      const grant = await db
        .selectFrom('installation_users')
        .select('data')
        .where('workspace_id', '=', key)
        .where('slack_user_id', '=', userId)
        .executeTakeFirst();
      installation.user = grant
        ? JSON.parse(keyring.decrypt(grant.data, aad.installationUser(key, userId)))
        : // Never hand out the installer's user token for another user (as FileInstallationStore).
          withoutUserTokens(installation.user);
      return installation;
    },

    async deleteInstallation(query: InstallationQuery<boolean>) {
      const key = installationKeyFor(query);
      const { userId } = query;
      await db.transaction().execute(async (trx) => {
        if (userId !== undefined) return dropUserTokens(trx, key, [userId]);
        await trx.deleteFrom('installation_users').where('workspace_id', '=', key).execute();
        await trx.deleteFrom('installations').where('workspace_id', '=', key).execute();
      });
    },
  };

  /** Only the claim's owner may change a claimed row. */
  const claimedBy = (key: string, owner: string) =>
    db.updateTable('installations').where('workspace_id', '=', key).where('refresh_owner', '=', owner);

  return {
    installationStore,

    async botToken(workspaceId) {
      const key = installationKeyOfWorkspace(workspaceId);
      const row = await db
        .selectFrom('installations')
        .select('data')
        .where('workspace_id', '=', key)
        .executeTakeFirst();
      return row ? open(key, row.data).bot?.token : undefined;
    },

    async read(key) {
      const row = await db
        .selectFrom('installations')
        .select(['data', 'lapsed_at', 'lapsed_reason', 'refresh_failures', 'refresh_retry_at'])
        .where('workspace_id', '=', key)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        installation: open(key, row.data),
        ...(row.lapsed_at === null
          ? {}
          : { lapsed: { at: new Date(Number(row.lapsed_at)), reason: row.lapsed_reason ?? 'refused' } }),
        ...(row.refresh_retry_at === null
          ? {}
          : {
              refresh: {
                failures: Number(row.refresh_failures ?? 0),
                retryAt: new Date(Number(row.refresh_retry_at)),
              },
            }),
      };
    },

    async claimRefresh(key, owner, leaseMs) {
      const at = now();
      const result = await db
        .updateTable('installations')
        .set({ refresh_owner: owner, refresh_until: at + leaseMs })
        .where('workspace_id', '=', key)
        .where('lapsed_at', 'is', null)
        .where((eb) => eb.or([eb('refresh_until', 'is', null), eb('refresh_until', '<=', at)]))
        .where((eb) => eb.or([eb('refresh_retry_at', 'is', null), eb('refresh_retry_at', '<=', at)]))
        .executeTakeFirst();
      return touched(result);
    },

    async deferRefresh(key, owner, retryAt) {
      await claimedBy(key, owner)
        .set({
          refresh_owner: null,
          refresh_until: null,
          refresh_retry_at: retryAt,
          refresh_failures: sql<number>`coalesce(refresh_failures, 0) + 1`,
        })
        .execute();
    },

    async dueForRefresh(before, limit) {
      const at = now();
      const rows = await db
        .selectFrom('installations')
        .select('workspace_id')
        .where('bot_expires_at', '<', before)
        .where('lapsed_at', 'is', null)
        .where((eb) => eb.or([eb('refresh_until', 'is', null), eb('refresh_until', '<=', at)]))
        .where((eb) => eb.or([eb('refresh_retry_at', 'is', null), eb('refresh_retry_at', '<=', at)]))
        .orderBy('bot_expires_at')
        .limit(limit)
        .execute();
      return rows.map((row) => row.workspace_id);
    },

    async saveRefreshed(key, owner, installation) {
      const result = await claimedBy(key, owner)
        .set({
          data: seal(key, installation),
          updated_at: now(),
          refresh_owner: null,
          refresh_until: null,
          refresh_retry_at: null,
          refresh_failures: null,
          bot_expires_at: expiryOf(installation),
        })
        .executeTakeFirst();
      return touched(result);
    },

    async releaseRefresh(key, owner) {
      await claimedBy(key, owner).set({ refresh_owner: null, refresh_until: null }).execute();
    },

    async markLapsed(key, owner, reason) {
      await claimedBy(key, owner)
        .set({
          refresh_owner: null,
          refresh_until: null,
          refresh_retry_at: null,
          refresh_failures: null,
          lapsed_at: now(),
          lapsed_reason: reason,
        })
        .execute();
    },

    async deleteWorkspace(key, options = {}) {
      return db.transaction().execute(async (trx) => {
        const workspaceIds = await workspacesServedBy(trx, key);
        const all: Forgotten & { workspaceIds: string[] } = {
          identities: [],
          toClose: 0,
          unclosable: 0,
          workspaceIds,
        };
        for (const workspaceId of workspaceIds) {
          // First: the closures are recorded with the admin token the workspace still has.
          const forgotten = await forgetIdentities(trx, context, workspaceId, 'all', {
            reason: 'uninstalled',
            adminToken: options.adminToken,
          });
          all.identities.push(...forgotten.identities);
          all.toClose += forgotten.toClose;
          all.unclosable += forgotten.unclosable;
          for (const table of WORKSPACE_TABLES)
            await trx.deleteFrom(table).where('workspace_id', '=', workspaceId).execute();
        }
        await trx.deleteFrom('installation_users').where('workspace_id', '=', key).execute();
        await trx.deleteFrom('installations').where('workspace_id', '=', key).execute();
        return all;
      });
    },

    async deleteUserTokens(key, slackUserIds, options = {}) {
      if (slackUserIds.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        await dropUserTokens(trx, key, slackUserIds);
        const removed: RemovedIdentity[] = [];
        for (const workspaceId of await workspacesServedBy(trx, key)) {
          const forgotten = await forgetIdentities(trx, context, workspaceId, slackUserIds, {
            reason: 'revoked',
            adminToken: options.adminToken,
          });
          removed.push(...forgotten.identities);
        }
        return removed;
      });
    },
  };
}
