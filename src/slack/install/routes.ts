/** The install topic's routes: what Slack says about the app's own installation. */
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { appUninstalledEvent, tokensRevokedEvent } from './uninstall.js';

export const installRoutes: TopicRoutes<Services> = {
  topic: 'install',
  gate: { access: 'anyone' },
  events: { app_uninstalled: appUninstalledEvent, tokens_revoked: tokensRevokedEvent },
};
