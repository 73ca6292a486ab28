/**
 * The app's assistant threads (Slack's AI side panel): a DM thread Slack opened for a person, and
 * the channel they are looking at — its thread context, which Slack sends when the thread starts
 * and whenever they move to another channel. Kept in the store so any replica answers the thread's
 * next message with the right channel. Rows are kept per workspace and never returned to another.
 */
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { RepoContext } from './context.js';
import { parseInput } from './errors.js';
import type { AssistantThreadsTable } from './schema.js';

export interface AssistantThread {
  workspaceId: string;
  /** The DM with the app the thread is in, and the thread's root. */
  dmChannelId: string;
  threadTs: string;
  /** The person the thread is with. */
  slackUserId: string;
  /** The channel they are looking at, when Slack said one. */
  contextChannelId?: string;
}

export interface AssistantThreadsRepo {
  /** Remembers a thread (again: its context replaced, its person kept as first seen). */
  save(thread: AssistantThread): Promise<void>;
  /** An assistant thread, or undefined when this DM thread is not one. */
  get(workspaceId: string, dmChannelId: string, threadTs: string): Promise<AssistantThread | undefined>;
}

const id = z.string().min(1);
const threadInput = z.object({
  workspaceId: id,
  dmChannelId: id,
  threadTs: id,
  slackUserId: id,
  contextChannelId: id.optional(),
});

const fromRow = (r: Selectable<AssistantThreadsTable>): AssistantThread => ({
  workspaceId: r.workspace_id,
  dmChannelId: r.dm_channel_id,
  threadTs: r.thread_ts,
  slackUserId: r.slack_user_id,
  ...(r.context_channel_id ? { contextChannelId: r.context_channel_id } : {}),
});

export function createAssistantThreadsRepo({ db, now }: RepoContext): AssistantThreadsRepo {
  return {
    async save(thread) {
      const t = parseInput(threadInput, thread, 'assistant thread');
      const at = now();
      const context = t.contextChannelId ?? null;
      await db
        .insertInto('assistant_threads')
        .values({
          workspace_id: t.workspaceId,
          dm_channel_id: t.dmChannelId,
          thread_ts: t.threadTs,
          slack_user_id: t.slackUserId,
          context_channel_id: context,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) =>
          oc
            .columns(['workspace_id', 'dm_channel_id', 'thread_ts'])
            .doUpdateSet({ context_channel_id: context, updated_at: at }),
        )
        .execute();
    },

    async get(workspaceId, dmChannelId, threadTs) {
      const r = await db
        .selectFrom('assistant_threads')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('dm_channel_id', '=', dmChannelId)
        .where('thread_ts', '=', threadTs)
        .executeTakeFirst();
      return r ? fromRow(r) : undefined;
    },
  };
}
