/** Binds the Events API subscriptions declared in the manifest. */
import type { App } from '@slack/bolt';
import { userChangeEvent } from '../../account/user-change.js';
import { appHomeOpenedEvent } from '../../home/publish.js';
import { appUninstalledEvent, tokensRevokedEvent } from '../../install/uninstall.js';
import type { Services } from '../../kit/services.js';

export function registerEvents(app: App, svc: Services) {
  app.event('app_uninstalled', appUninstalledEvent(svc));
  app.event('tokens_revoked', tokensRevokedEvent(svc));
  app.event('user_change', userChangeEvent(svc));
  app.event('app_home_opened', appHomeOpenedEvent(svc));
}
