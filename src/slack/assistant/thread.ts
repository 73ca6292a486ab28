/**
 * An assistant thread (Slack's AI side panel) opening or following its person: its DM thread and
 * the channel they are looking at are kept in the store — any replica answers the thread's next
 * question with that channel — and a new thread gets a greeting and the suggested prompts.
 */
import type { WebClient } from '@slack/web-api';
import { md, message, section } from '../../blockkit/index.js';
import { workspaceIdFor } from '../../store/index.js';
import type { EventArgs } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { SUGGESTED_PROMPTS } from './intents.js';

/** The fields read of `assistant_thread_started` and `assistant_thread_context_changed`. */
interface ThreadEvent {
  assistant_thread?: {
    user_id?: string;
    channel_id?: string;
    thread_ts?: string;
    context?: { channel_id?: string };
  };
}

/** The thread an event is about, or undefined for an event missing it (answered by nothing). */
function threadOf(event: unknown) {
  const t = (event as ThreadEvent).assistant_thread;
  if (!t?.user_id || !t.channel_id || !t.thread_ts) return undefined;
  return {
    slackUserId: t.user_id,
    dmChannelId: t.channel_id,
    threadTs: t.thread_ts,
    ...(t.context?.channel_id ? { contextChannelId: t.context.channel_id } : {}),
  };
}

/** The delivery key of a thread event (the same for Slack's retries of it). */
export function threadEventKey(event: unknown): string | undefined {
  const t = threadOf(event);
  const at = (event as { event_ts?: string }).event_ts ?? '';
  return t ? `${t.dmChannelId}:${t.threadTs}:${at}` : undefined;
}

export const GREETING = md`Hi! I answer from your own planning account: what is waiting for you, what changed in the channel you are looking at, why a feature cannot advance, who knows a notion. Ask me, or pick a suggestion.`;

/** `assistant_thread_started`: the thread kept, then the greeting and the suggested prompts. */
export async function threadStarted(svc: Services, args: EventArgs<'assistant_thread_started'>) {
  const thread = threadOf(args.event);
  if (!thread) return;
  const workspaceId = workspaceIdFor(args.context);
  await svc.deps.store.assistantThreads.save({ workspaceId, ...thread });
  const client = args.client as WebClient;
  await client.chat.postMessage({
    channel: thread.dmChannelId,
    thread_ts: thread.threadTs,
    ...message(GREETING, [section(GREETING)]),
  });
  await client.assistant.threads.setSuggestedPrompts({
    channel_id: thread.dmChannelId,
    thread_ts: thread.threadTs,
    title: 'Ask about your plan:',
    prompts: SUGGESTED_PROMPTS.map((p) => ({ ...p })),
  });
}

/** `assistant_thread_context_changed`: the person looks at another channel; the thread follows. */
export async function threadContextChanged(
  svc: Services,
  args: EventArgs<'assistant_thread_context_changed'>,
) {
  const thread = threadOf(args.event);
  if (!thread) return;
  await svc.deps.store.assistantThreads.save({ workspaceId: workspaceIdFor(args.context), ...thread });
}
