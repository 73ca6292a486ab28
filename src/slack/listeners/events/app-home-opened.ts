/**
 * `app_home_opened` (the Home tab): publishes the person's tab at once and fills it after. Slack
 * acks events itself; a retried delivery only publishes again. The Messages tab is not ours.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { publishHome } from '../../home/publish.js';

export function appHomeOpenedEvent(svc: Services) {
  return async ({
    event,
    context,
    client,
  }: SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs) => {
    if (event.tab !== 'home') return;
    try {
      await publishHome(svc, client as WebClient, planningOf(context));
    } catch (error) {
      svc.deps.logger.warn({ err: error }, 'home: could not publish the tab');
    }
  };
}
