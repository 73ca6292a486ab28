/** The Home tab's routes: drawing it when opened, and the notification preferences on it. */
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { HOME_ACTION } from './ids.js';
import { notifyPrefsAction, workflowActForAction } from './preferences.js';
import { appHomeOpenedEvent } from './publish.js';

export const homeRoutes: TopicRoutes<Services> = {
  topic: 'home',
  gate: { access: 'member' },
  actions: {
    [HOME_ACTION.notifyKinds]: notifyPrefsAction,
    [HOME_ACTION.quietStart]: notifyPrefsAction,
    [HOME_ACTION.quietEnd]: notifyPrefsAction,
    [HOME_ACTION.workflowActFor]: workflowActForAction,
  },
  // Anyone may open the tab: it says what they can do, connected or not.
  events: { app_home_opened: appHomeOpenedEvent },
};
