/** `app_uninstalled`: forget everything the workspace left here (installation, identities, links). */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import { workspaceIdFor } from '../../../store/index.js';
import type { Services } from '../../context/services.js';

export function appUninstalledEvent(svc: Services) {
  return async ({ context }: SlackEventMiddlewareArgs<'app_uninstalled'> & AllMiddlewareArgs) => {
    const workspaceId = workspaceIdFor(context);
    // Idempotent: a retried event (X-Slack-Retry-Num) deletes nothing more.
    await svc.deps.store.installations.deleteWorkspace(workspaceId);
    svc.deps.logger.info({ workspaceId }, 'app uninstalled: workspace data deleted');
  };
}
