/**
 * Slack installations for Bolt's OAuth flow, and the clean-up Slack's lifecycle events call for.
 *
 * Layout (after @slack/oauth's FileInstallationStore): the latest installation per workspace, whole
 * and encrypted, plus each user's own grant (their user token) beside it, so a fetch for a user
 * gets that user's token, never the installer's.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { Kysely } from 'kysely';
import { aad } from './aad.js';
import type { RepoContext } from './context.js';
import { type Forgotten, forgetIdentities, type RemovedIdentity } from './identities.js';
import type { Database } from './schema.js';

/** How the accounts a clean-up forgets are closed: the admin token to use when the workspace saved none. */
export interface CleanUpOptions {
  /** PLANNING_ADMIN_TOKEN, in single-workspace mode (see `ForgetOptions.adminToken`). */
  adminToken?: string | undefined;
}

export interface InstallationsRepo {
  /** Bolt's InstallationStore (pass it to `new App({ installationStore })`). */
  readonly installationStore: InstallationStore;
  /**
   * The bot token of the workspace's installation (team or org-wide), by the same workspace id the
   * rest of the store uses — for work that starts outside a Slack request, like the digest.
   */
  botToken(workspaceId: string): Promise<string | undefined>;
  /**
   * `app_uninstalled`: removes the installation and everything the workspace left here — user
   * grants, settings (admin token), identities, channel links, digest claims. In the same
   * transaction, before the admin token goes, every account the app provisioned is recorded for
   * closing with it (store.closures); pasted ones are only forgotten.
   */
  deleteWorkspace(workspaceId: string, options?: CleanUpOptions): Promise<Forgotten>;
  /**
   * `tokens_revoked` (oauth user ids): drops those users' Slack user tokens (their grants and, when
   * one of them installed, the user part of the installation; the bot token stays) and deletes
   * their identities, so no credential is kept for a user who withdrew; their provisioned accounts
   * are recorded for closing in the same transaction. Returns the removed identities (without tokens).
   */
  deleteUserTokens(
    workspaceId: string,
    slackUserIds: readonly string[],
    options?: CleanUpOptions,
  ): Promise<RemovedIdentity[]>;
}

/**
 * The workspace id convention: enterprise id for an org-wide install, team id otherwise. Takes
 * Bolt's installation query or its context (`isEnterpriseInstall`, `enterpriseId`, `teamId`).
 */
export function workspaceIdFor(query: {
  isEnterpriseInstall?: boolean | undefined;
  enterpriseId?: string | undefined;
  teamId?: string | undefined;
}): string {
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

function workspaceIdOfInstallation(installation: Installation): string {
  return workspaceIdFor({
    isEnterpriseInstall: installation.isEnterpriseInstall === true,
    enterpriseId: installation.enterprise?.id,
    teamId: installation.team?.id,
  });
}

type UserGrant = Installation['user'];

/** The user part without its tokens: what is left of a grant once revoked. */
function withoutUserTokens(user: UserGrant): UserGrant {
  return { ...user, token: undefined, refreshToken: undefined, expiresAt: undefined, scopes: undefined };
}

export function createInstallationsRepo({ db, keyring, now }: RepoContext): InstallationsRepo {
  const context = { keyring, now };
  const seal = (workspaceId: string, installation: Installation) =>
    keyring.encrypt(JSON.stringify(installation), aad.installation(workspaceId));
  const open = (workspaceId: string, data: string): Installation =>
    JSON.parse(keyring.decrypt(data, aad.installation(workspaceId)));

  /**
   * Removes the users' grants and strips their tokens from the installation. The installation is
   * rewritten only if unchanged since read (compare-and-swap), so a concurrent new install wins.
   */
  async function dropUserTokens(trx: Kysely<Database>, workspaceId: string, userIds: readonly string[]) {
    if (userIds.length === 0) return;
    await trx
      .deleteFrom('installation_users')
      .where('workspace_id', '=', workspaceId)
      .where('slack_user_id', 'in', userIds)
      .execute();
    const row = await trx
      .selectFrom('installations')
      .select(['data', 'installer_user_id'])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (!row || !userIds.includes(row.installer_user_id)) return;
    const installation = open(workspaceId, row.data);
    await trx
      .updateTable('installations')
      .set({
        data: seal(workspaceId, { ...installation, user: withoutUserTokens(installation.user) }),
        updated_at: now(),
      })
      .where('workspace_id', '=', workspaceId)
      .where('data', '=', row.data)
      .execute();
  }

  const installationStore: InstallationStore = {
    async storeInstallation(installation) {
      const workspaceId = workspaceIdOfInstallation(installation);
      const at = now();
      const latest = {
        enterprise_id: installation.enterprise?.id ?? null,
        team_id: installation.team?.id ?? null,
        is_enterprise_install: installation.isEnterpriseInstall ? 1 : 0,
        installer_user_id: installation.user.id,
        data: seal(workspaceId, installation),
        updated_at: at,
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('installations')
          .values({ workspace_id: workspaceId, created_at: at, ...latest })
          .onConflict((oc) => oc.column('workspace_id').doUpdateSet(latest))
          .execute();
        if (installation.user.token === undefined) return;
        const grant = {
          data: keyring.encrypt(
            JSON.stringify(installation.user),
            aad.installationUser(workspaceId, installation.user.id),
          ),
          updated_at: at,
        };
        await trx
          .insertInto('installation_users')
          .values({
            workspace_id: workspaceId,
            slack_user_id: installation.user.id,
            created_at: at,
            ...grant,
          })
          .onConflict((oc) => oc.columns(['workspace_id', 'slack_user_id']).doUpdateSet(grant))
          .execute();
      });
    },

    async fetchInstallation(query: InstallationQuery<boolean>) {
      const workspaceId = workspaceIdFor(query);
      const row = await db
        .selectFrom('installations')
        .select('data')
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      // Bolt expects a throw when there is none; its authorize turns it into "not authorized".
      if (!row) throw new Error(`No installation for workspace ${workspaceId}`);
      const installation = open(workspaceId, row.data);
      const { userId } = query;
      if (userId === undefined || installation.user.id === userId) return installation;
      const grant = await db
        .selectFrom('installation_users')
        .select('data')
        .where('workspace_id', '=', workspaceId)
        .where('slack_user_id', '=', userId)
        .executeTakeFirst();
      installation.user = grant
        ? JSON.parse(keyring.decrypt(grant.data, aad.installationUser(workspaceId, userId)))
        : // Never hand out the installer's user token for another user (as FileInstallationStore).
          withoutUserTokens(installation.user);
      return installation;
    },

    async deleteInstallation(query: InstallationQuery<boolean>) {
      const workspaceId = workspaceIdFor(query);
      const { userId } = query;
      await db.transaction().execute(async (trx) => {
        if (userId !== undefined) return dropUserTokens(trx, workspaceId, [userId]);
        await trx.deleteFrom('installation_users').where('workspace_id', '=', workspaceId).execute();
        await trx.deleteFrom('installations').where('workspace_id', '=', workspaceId).execute();
      });
    },
  };

  return {
    installationStore,

    async botToken(workspaceId) {
      const row = await db
        .selectFrom('installations')
        .select('data')
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      return row ? open(workspaceId, row.data).bot?.token : undefined;
    },

    async deleteWorkspace(workspaceId, options = {}) {
      const tables = [
        'installation_users',
        'installations',
        'workspaces',
        'channel_links',
        'digest_claims',
        'posted_cards',
        'task_origins',
        'notification_prefs',
        'notification_outbox',
        'experiment_participants',
      ] as const;
      return db.transaction().execute(async (trx) => {
        // First: the closures are recorded with the admin token the workspace still has.
        const forgotten = await forgetIdentities(trx, context, workspaceId, 'all', {
          reason: 'uninstalled',
          adminToken: options.adminToken,
        });
        for (const table of tables)
          await trx.deleteFrom(table).where('workspace_id', '=', workspaceId).execute();
        return forgotten;
      });
    },

    async deleteUserTokens(workspaceId, slackUserIds, options = {}) {
      if (slackUserIds.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        await dropUserTokens(trx, workspaceId, slackUserIds);
        const forgotten = await forgetIdentities(trx, context, workspaceId, slackUserIds, {
          reason: 'revoked',
          adminToken: options.adminToken,
        });
        return forgotten.identities;
      });
    },
  };
}
