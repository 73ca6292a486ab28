/**
 * The app's DM topic: a message a person types to the app in its Messages tab (`message.im`) gets
 * an answer (answer.ts). Like a command, it is gated: a guest, someone of another organization or
 * a deactivated person gets the one sentence any request of theirs gets. A message in one of the
 * app's assistant threads (Slack's AI side panel) never reaches this route: Bolt's `Assistant`,
 * built by the router from the assistant topic, takes it; a message in any other thread of the DM
 * comes back here from it.
 */

import type { HelpEntry } from '../bolt/router.js';
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { answerTypedMessage, typedMessageKey } from './answer.js';

/** The routes, answering with `entries`: the `/plan` subcommands of every other topic. */
export function appDmRoutes(entries: readonly HelpEntry[]): TopicRoutes<Services> {
  const gate = { access: 'member', doing: 'use Team Planning' } as const;
  return {
    topic: 'app DM',
    gate,
    events: {
      'message.im': { ...gate, run: answerTypedMessage(entries), delivery: typedMessageKey },
    },
  };
}
