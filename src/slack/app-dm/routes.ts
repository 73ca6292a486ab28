/**
 * The app's DM topic: a message a person types to the app in its Messages tab (`message.im`) gets
 * an answer (answer.ts). Like a command, it is gated: a guest, someone of another organization or
 * a deactivated person gets the one sentence any request of theirs gets. A message in one of the
 * app's assistant threads (Slack's AI side panel) is the assistant's question (assistant topic).
 */

import { answerInAssistantThread } from '../assistant/index.js';
import type { HelpEntry } from '../bolt/router.js';
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { answerTypedMessage, typedMessageKey } from './answer.js';

/** The routes, answering with `entries`: the `/plan` subcommands of every other topic. */
export function appDmRoutes(entries: readonly HelpEntry[]): TopicRoutes<Services> {
  const gate = { access: 'member', doing: 'use Team Planning' } as const;
  const typed = answerTypedMessage(entries);
  // A question in one of the app's assistant threads is the assistant's; any other message gets the help.
  const run: typeof typed = async (svc, args) => {
    if (!(await answerInAssistantThread(svc, args))) await typed(svc, args);
  };
  return {
    topic: 'app DM',
    gate,
    events: {
      'message.im': { ...gate, run, delivery: typedMessageKey },
    },
  };
}
