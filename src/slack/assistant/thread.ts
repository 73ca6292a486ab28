/**
 * An assistant thread (Slack's AI side panel) opening or following its person: its DM thread and
 * the channel they are looking at are kept in the store — Bolt's thread context store is backed by
 * it, so any replica answers the thread's next question with that channel — and a new thread gets
 * a greeting and the suggested prompts, through the `Assistant` class's own utilities.
 */
import { md, message, section } from '../../blockkit/index.js';
import { workspaceIdFor } from '../../store/index.js';
import type {
  AssistantContextChangedArgs,
  AssistantStartedArgs,
  ThreadContextStore,
} from '../bolt/routes.js';
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

/**
 * Bolt's thread context store, kept in the store's `assistant_threads` rather than in the thread's
 * first message: any replica reads the channel a thread looks at, and a thread the store knows is
 * one of the assistant's (a refused person's thread is never saved: nothing is kept for them).
 */
export function storedThreadContext(svc: Services): ThreadContextStore {
  return {
    async get({ context, payload }) {
      const where = placeOf(payload);
      if (!where) return {};
      const thread = await svc.deps.store.assistantThreads.get(
        workspaceIdFor(context),
        where.channel,
        where.threadTs,
      );
      return thread?.contextChannelId ? { channel_id: thread.contextChannelId } : {};
    },
    async save({ context, payload }) {
      // Only the thread events carry a thread's person and context; a message changes nothing.
      const thread = threadOf(payload);
      if (thread)
        await svc.deps.store.assistantThreads.save({ workspaceId: workspaceIdFor(context), ...thread });
    },
  };
}

/** The DM thread a thread event or a message in it is in. */
function placeOf(payload: unknown): { channel: string; threadTs: string } | undefined {
  const t = threadOf(payload);
  if (t) return { channel: t.dmChannelId, threadTs: t.threadTs };
  const m = payload as { channel?: unknown; thread_ts?: unknown };
  return typeof m.channel === 'string' && typeof m.thread_ts === 'string'
    ? { channel: m.channel, threadTs: m.thread_ts }
    : undefined;
}

/** `assistant_thread_started`: the thread kept, then the greeting and the suggested prompts. */
export async function threadStarted(_svc: Services, args: AssistantStartedArgs) {
  if (!threadOf(args.event)) return;
  await args.saveThreadContext();
  await args.say(message(GREETING, [section(GREETING)]));
  await args.setSuggestedPrompts({
    title: 'Ask about your plan:',
    prompts: SUGGESTED_PROMPTS.map((p) => ({ ...p })),
  });
}

/** `assistant_thread_context_changed`: the person looks at another channel; the thread follows. */
export async function threadContextChanged(_svc: Services, args: AssistantContextChangedArgs) {
  if (threadOf(args.event)) await args.saveThreadContext();
}
