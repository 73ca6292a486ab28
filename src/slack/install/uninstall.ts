/**
 * `app_uninstalled`, and `tokens_revoked` for the bot token: forget everything the workspace left
 * here (installation, identities, links).
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { workspaceIdFor } from '../../store/index.js';
import { closeProvisioned } from '../account/index.js';
import type { Services } from '../kit/services.js';

export async function appUninstalledEvent(
  svc: Services,
  { context }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs,
) {
  const workspaceId = workspaceIdFor(context);
  // Idempotent: a retried event (X-Slack-Retry-Num) deletes nothing more.
  await svc.deps.store.installations.deleteWorkspace(workspaceId);
  svc.deps.logger.info({ workspaceId }, 'app uninstalled: workspace data deleted');
}

export async function tokensRevokedEvent(
  svc: Services,
  { event, context }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs,
) {
  const { store, logger } = svc.deps;
  const workspaceId = workspaceIdFor(context);
  if ((event.tokens.bot ?? []).length > 0) {
    await store.installations.deleteWorkspace(workspaceId);
    logger.info({ workspaceId }, 'bot token revoked: workspace data deleted');
    return;
  }
  const users = event.tokens.oauth ?? [];
  if (users.length === 0) return;
  const removed = await store.installations.deleteUserTokens(workspaceId, users);
  await closeProvisioned(svc, workspaceId, removed);
  logger.info({ workspaceId, users: users.length }, 'user tokens revoked: identities deleted');
}
