/**
 * The assistant topic's routes: Slack's AI side panel. Its `assistant` part — a thread opening
 * (`assistant_thread_started`), following the person to another channel
 * (`assistant_thread_context_changed`), a question typed in it (a `message.im` in the thread) — is
 * built by the router into Bolt's own `Assistant` class. The class is middleware that takes these
 * events before any listener, so the router, not this topic, registers it: each of its events then
 * goes through the same pipeline as any route's (this topic's gate, once per delivery for Slack's
 * retries), and a message in an app DM thread that is not the assistant's goes on to the app DM
 * topic's route. The handlers use the class's utilities (say, setStatus, setTitle, setSuggestedPrompts,
 * sayStream); its thread context store is the store's `assistant_threads`, for every replica.
 *
 * Members only: a guest, someone of another organization, a bot or a deactivated person gets the
 * one sentence any request of theirs gets, in the thread, and nothing is read or kept.
 */

import { typedMessageKey } from '../app-dm/index.js';
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { answerInAssistantThread, ownsAssistantThread } from './answer.js';
import { draftSubmission, draftTasksShortcut } from './draft.js';
import { ASSISTANT_ACTION, ASSISTANT_SHORTCUT, ASSISTANT_VIEW } from './ids.js';
import { SUGGESTED_PROMPTS } from './intents.js';
import { reviewProposedTasksAction } from './proposed.js';
import { storedThreadContext, threadContextChanged, threadEventKey, threadStarted } from './thread.js';

/** The side panel as the manifest declares it. */
export const ASSISTANT_PANEL = {
  description:
    'Ask your plan — what is waiting for you, what changed, why a feature is stuck, who knows a notion — answered from your own planning account.',
  prompts: SUGGESTED_PROMPTS,
};

const gate = { access: 'member', doing: 'use the planning assistant' } as const;

export const assistantRoutes: TopicRoutes<Services> = {
  topic: 'assistant',
  gate,
  shortcuts: {
    [ASSISTANT_SHORTCUT.draftTasks]: {
      type: 'message',
      name: 'Draft tasks',
      description: 'Propose tasks from this thread; nothing is created until you confirm',
      run: draftTasksShortcut,
    },
  },
  actions: {
    [ASSISTANT_ACTION.reviewProposedTasks]: reviewProposedTasksAction,
  },
  views: {
    [ASSISTANT_VIEW.draftTasks]: draftSubmission,
  },
  assistant: {
    threadStarted: { run: threadStarted, delivery: threadEventKey },
    threadContextChanged: { run: threadContextChanged, delivery: threadEventKey },
    // A person's question, taken as the app DM takes a typed message (not a bot's, not an edit).
    userMessage: { run: answerInAssistantThread, delivery: typedMessageKey },
    ownsThread: ownsAssistantThread,
    threadContextStore: storedThreadContext,
  },
};
