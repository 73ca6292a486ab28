/**
 * The assistant topic's routes: Slack's AI side panel. A thread opening (`assistant_thread_started`)
 * or following the person to another channel (`assistant_thread_context_changed`); the questions
 * typed in a thread arrive as `message.im` and are taken by the app DM topic's route, which hands
 * them here (answer.ts) — one route per event type.
 *
 * Bolt's own `Assistant` class is not used: it is middleware that takes these events before any
 * route, so the route table's gates and once-per-delivery would not apply to them. The same
 * surface (prompts, status, title, the thread context kept — here in the store, for every replica)
 * is built on the route table instead.
 *
 * Members only: a guest, someone of another organization, a bot or a deactivated person gets the
 * one sentence any request of theirs gets, in the thread, and nothing is read or kept.
 */
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { draftSubmission, draftTasksShortcut } from './draft.js';
import { ASSISTANT_ACTION, ASSISTANT_SHORTCUT, ASSISTANT_VIEW } from './ids.js';
import { SUGGESTED_PROMPTS } from './intents.js';
import { reviewProposedTasksAction } from './proposed.js';
import { threadContextChanged, threadEventKey, threadStarted } from './thread.js';

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
  events: {
    assistant_thread_started: { ...gate, run: threadStarted, delivery: threadEventKey },
    assistant_thread_context_changed: { ...gate, run: threadContextChanged, delivery: threadEventKey },
  },
};
