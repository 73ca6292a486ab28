/**
 * `app_uninstalled`, and `tokens_revoked` for the bot token: forget everything the workspace left
 * here (installation, identities, links). Every account the app provisioned there is recorded for
 * closing with the organization admin token the workspace had, in the transaction that forgets it,
 * and closed right after — or by the minute tick, through a failure or a restart. Accounts people
 * connected themselves (a pasted token) are theirs: forgotten, left open.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { workspaceIdFor } from '../../store/index.js';
import { closeForgottenAccounts } from '../account/index.js';
import { environmentAdminToken } from '../kit/deps.js';
import type { Services } from '../kit/services.js';

/** Forgets the workspace, then closes what it left to close. A retried event finds nothing more. */
async function forgetWorkspace(svc: Services, workspaceId: string, why: string) {
  const { store, logger } = svc.deps;
  const forgotten = await store.installations.deleteWorkspace(workspaceId, {
    adminToken: environmentAdminToken(svc.deps),
  });
  logger.info(
    {
      workspaceId,
      identities: forgotten.identities.length,
      toClose: forgotten.toClose,
      unclosable: forgotten.unclosable,
    },
    `${why}: workspace data deleted`,
  );
  if (forgotten.unclosable > 0) {
    logger.warn(
      { workspaceId, accounts: forgotten.unclosable },
      'provisioned service accounts left open: the workspace had no organization admin token',
    );
  }
  if (forgotten.toClose > 0) await closeForgottenAccounts(svc.deps, { workspaceId });
}

export async function appUninstalledEvent(
  svc: Services,
  { context }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs,
) {
  await forgetWorkspace(svc, workspaceIdFor(context), 'app uninstalled');
}

export async function tokensRevokedEvent(
  svc: Services,
  { event, context }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs,
) {
  const { store, logger } = svc.deps;
  const workspaceId = workspaceIdFor(context);
  if ((event.tokens.bot ?? []).length > 0) {
    await forgetWorkspace(svc, workspaceId, 'bot token revoked');
    return;
  }
  const users = event.tokens.oauth ?? [];
  if (users.length === 0) return;
  const removed = await store.installations.deleteUserTokens(workspaceId, users, {
    adminToken: environmentAdminToken(svc.deps),
  });
  logger.info({ workspaceId, users: users.length }, 'user tokens revoked: identities deleted');
  if (removed.some((i) => i.origin === 'provisioned'))
    await closeForgottenAccounts(svc.deps, { workspaceId });
}
