/**
 * Replies in task card threads recorded as discoveries (issue 24 item 5): the Slack message, the
 * discovery it became, the task's place in the service and the reply's author — whose own account
 * alone edits and deletes the discovery when the message is edited or deleted in Slack. Rows are
 * kept per workspace and never returned to another.
 */
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { type RepoContext, touched } from './context.js';
import { parseInput } from './errors.js';
import { type CardPlace, placeColumns } from './posted-cards.js';
import type { ThreadDiscoveriesTable } from './schema.js';

export interface ThreadDiscovery {
  workspaceId: string;
  /** The reply: its channel and ts, and the thread (the task card) it is in. */
  slackChannelId: string;
  messageTs: string;
  threadTs: string;
  authorSlackId: string;
  /** Where the task lives in the service. */
  place: CardPlace;
  taskId: string;
  discoveryId: string;
}

export interface ThreadDiscoveriesRepo {
  /** Remembers a recorded reply (again: kept as first recorded). */
  record(entry: ThreadDiscovery): Promise<void>;
  /** The discovery a Slack message became, if it was recorded. */
  get(workspaceId: string, slackChannelId: string, messageTs: string): Promise<ThreadDiscovery | undefined>;
  /** Forgets a message's discovery (deleted); false when none was recorded. */
  forget(workspaceId: string, slackChannelId: string, messageTs: string): Promise<boolean>;
  /** Forgets entries recorded more than `days` ago (housekeeping); returns how many. */
  purgeOlderThan(days: number): Promise<number>;
}

const id = z.string().min(1);
const entryInput = z.object({
  workspaceId: id,
  slackChannelId: id,
  messageTs: id,
  threadTs: id,
  authorSlackId: id,
  place: z.object({ orgId: id, teamId: id, channelId: id, featureId: id }),
  taskId: id,
  discoveryId: id,
});

const fromRow = (r: Selectable<ThreadDiscoveriesTable>): ThreadDiscovery => ({
  workspaceId: r.workspace_id,
  slackChannelId: r.slack_channel_id,
  messageTs: r.message_ts,
  threadTs: r.thread_ts,
  authorSlackId: r.author_slack_id,
  place: { orgId: r.org_id, teamId: r.team_id, channelId: r.channel_id, featureId: r.feature_id },
  taskId: r.task_id,
  discoveryId: r.discovery_id,
});

export function createThreadDiscoveriesRepo({ db, now }: RepoContext): ThreadDiscoveriesRepo {
  return {
    async record(entry) {
      const e = parseInput(entryInput, entry, 'thread discovery');
      await db
        .insertInto('thread_discoveries')
        .values({
          workspace_id: e.workspaceId,
          slack_channel_id: e.slackChannelId,
          message_ts: e.messageTs,
          thread_ts: e.threadTs,
          author_slack_id: e.authorSlackId,
          ...placeColumns(e.place),
          task_id: e.taskId,
          discovery_id: e.discoveryId,
          created_at: now(),
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'slack_channel_id', 'message_ts']).doNothing())
        .execute();
    },

    async get(workspaceId, slackChannelId, messageTs) {
      const r = await db
        .selectFrom('thread_discoveries')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('slack_channel_id', '=', slackChannelId)
        .where('message_ts', '=', messageTs)
        .executeTakeFirst();
      return r ? fromRow(r) : undefined;
    },

    async forget(workspaceId, slackChannelId, messageTs) {
      const result = await db
        .deleteFrom('thread_discoveries')
        .where('workspace_id', '=', workspaceId)
        .where('slack_channel_id', '=', slackChannelId)
        .where('message_ts', '=', messageTs)
        .executeTakeFirst();
      return touched(result);
    },

    async purgeOlderThan(days) {
      const result = await db
        .deleteFrom('thread_discoveries')
        .where('created_at', '<', now() - days * 24 * 60 * 60 * 1000)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
