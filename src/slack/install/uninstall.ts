/**
 * `app_uninstalled`, and `tokens_revoked` for the bot token: forget everything the installation's
 * workspaces left here (installation, identities, links) — for an org-wide install, every workspace
 * of the organization, whichever workspace the event names. Every account the app provisioned there is recorded for
 * closing with the organization admin token the workspace had, in the transaction that forgets it,
 * and closed right after — or by the minute tick, through a failure or a restart. Accounts people
 * connected themselves (a pasted token) are theirs: forgotten, left open.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { installationKeyFor } from '../../store/index.js';
import { closeForgottenAccounts } from '../account/index.js';
import { environmentAdminToken } from '../kit/deps.js';
import type { Services } from '../kit/services.js';

/**
 * Forgets the installation and its workspaces, then closes what they left to close. A retried event
 * finds nothing more.
 */
async function forgetInstallation(svc: Services, installationKey: string, why: string) {
  const { store, logger } = svc.deps;
  const forgotten = await store.installations.deleteWorkspace(installationKey, {
    adminToken: environmentAdminToken(svc.deps),
  });
  logger.info(
    {
      installationKey,
      workspaceIds: forgotten.workspaceIds,
      identities: forgotten.identities.length,
      toClose: forgotten.toClose,
      unclosable: forgotten.unclosable,
    },
    `${why}: workspace data deleted`,
  );
  if (forgotten.unclosable > 0) {
    logger.warn(
      { installationKey, accounts: forgotten.unclosable },
      'provisioned service accounts left open: the workspace had no organization admin token',
    );
  }
  if (forgotten.toClose === 0) return;
  for (const workspaceId of forgotten.workspaceIds) await closeForgottenAccounts(svc.deps, { workspaceId });
}

export async function appUninstalledEvent(
  svc: Services,
  { context }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs,
) {
  await forgetInstallation(svc, installationKeyFor(context), 'app uninstalled');
}

export async function tokensRevokedEvent(
  svc: Services,
  { event, context }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs,
) {
  const { store, logger } = svc.deps;
  const installationKey = installationKeyFor(context);
  if ((event.tokens.bot ?? []).length > 0) {
    await forgetInstallation(svc, installationKey, 'bot token revoked');
    return;
  }
  const users = event.tokens.oauth ?? [];
  if (users.length === 0) return;
  const removed = await store.installations.deleteUserTokens(installationKey, users, {
    adminToken: environmentAdminToken(svc.deps),
  });
  logger.info({ installationKey, users: users.length }, 'user tokens revoked: identities deleted');
  const provisionedIn = new Set(removed.filter((i) => i.origin === 'provisioned').map((i) => i.workspaceId));
  for (const workspaceId of provisionedIn) await closeForgottenAccounts(svc.deps, { workspaceId });
}
