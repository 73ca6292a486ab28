/** Binds the Events API subscriptions declared in the manifest. */
import type { App } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { appHomeOpenedEvent } from './app-home-opened.js';
import { appUninstalledEvent } from './app-uninstalled.js';
import { tokensRevokedEvent } from './tokens-revoked.js';
import { userChangeEvent } from './user-change.js';

export function registerEvents(app: App, svc: Services) {
  app.event('app_uninstalled', appUninstalledEvent(svc));
  app.event('tokens_revoked', tokensRevokedEvent(svc));
  app.event('user_change', userChangeEvent(svc));
  app.event('app_home_opened', appHomeOpenedEvent(svc));
}
