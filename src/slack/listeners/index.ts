/** Registers every listener of the app, surface by surface. */
import type { App } from '@slack/bolt';
import type { Services } from '../kit/services.js';
import { registerActions } from './actions/index.js';
import { registerCommands } from './commands/index.js';
import { registerEvents } from './events/index.js';
import { registerOptions } from './options/index.js';
import { registerShortcuts } from './shortcuts/index.js';
import { registerViews } from './views/index.js';

export function registerListeners(app: App, svc: Services) {
  registerCommands(app, svc);
  registerShortcuts(app, svc);
  registerViews(app, svc);
  registerActions(app, svc);
  registerOptions(app, svc);
  registerEvents(app, svc);
}
