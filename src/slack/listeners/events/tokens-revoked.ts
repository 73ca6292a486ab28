/**
 * `tokens_revoked`: users who withdrew lose their stored identity (their provisioned service
 * accounts are closed when the workspace can); a revoked bot token ends the workspace's install.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { workspaceIdFor } from '../../../store/index.js';

import type { Services } from '../../context/services.js';
import { closeProvisioned } from '../../flows/accounts.js';

export function tokensRevokedEvent(svc: Services) {
  return async ({ event, context }: SlackEventMiddlewareArgs<'tokens_revoked'> & AllMiddlewareArgs) => {
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
  };
}
