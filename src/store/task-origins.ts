/**
 * Where and by whom each task was created from Slack (the service does not record its author): the
 * author may delete it, a message in its card's thread names it, and confirmations go to that thread.
 */
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { compiledStatement } from './compiled.js';
import { type RepoContext, touched } from './context.js';
import { parseInput } from './errors.js';
import type { TaskOriginsTable } from './schema.js';

export interface TaskOrigin {
  workspaceId: string;
  taskId: string;
  teamId: string;
  channelId: string;
  featureId: string;
  authorSlackId: string;
  /** The Slack message the task was made from: its channel and thread. */
  slackChannelId: string;
  threadTs: string;
}

export interface TaskOriginsRepo {
  /** Remembers where a task was created (again: no change). */
  record(origin: TaskOrigin): Promise<void>;
  get(workspaceId: string, taskId: string): Promise<TaskOrigin | undefined>;
  /** The task created from the thread `threadTs` of a Slack channel (the latest if several were). */
  findByThread(
    workspaceId: string,
    slackChannelId: string,
    threadTs: string,
  ): Promise<TaskOrigin | undefined>;
  /** Forgets a deleted task. */
  forget(workspaceId: string, taskId: string): Promise<boolean>;
}

const id = z.string().min(1);
const originInput = z.object({
  workspaceId: id,
  taskId: id,
  teamId: id,
  channelId: id,
  featureId: id,
  authorSlackId: id,
  slackChannelId: id,
  threadTs: id,
});

const fromRow = (r: Selectable<TaskOriginsTable>): TaskOrigin => ({
  workspaceId: r.workspace_id,
  taskId: r.task_id,
  teamId: r.team_id,
  channelId: r.channel_id,
  featureId: r.feature_id,
  authorSlackId: r.author_slack_id,
  slackChannelId: r.slack_channel_id,
  threadTs: r.thread_ts,
});

/** Where a task came from: read for every change of a task that may DM its author (compiled once). */
const originOf = compiledStatement(2, (db, workspaceId: string, taskId: string) =>
  db
    .selectFrom('task_origins')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('task_id', '=', taskId),
);

export function createTaskOriginsRepo({ db, now }: RepoContext): TaskOriginsRepo {
  return {
    async record(origin) {
      const o = parseInput(originInput, origin, 'task origin');
      await db
        .insertInto('task_origins')
        .values({
          workspace_id: o.workspaceId,
          task_id: o.taskId,
          team_id: o.teamId,
          channel_id: o.channelId,
          feature_id: o.featureId,
          author_slack_id: o.authorSlackId,
          slack_channel_id: o.slackChannelId,
          thread_ts: o.threadTs,
          created_at: now(),
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'task_id']).doNothing())
        .execute();
    },

    async get(workspaceId, taskId) {
      const [row] = (await originOf.run(db, workspaceId, taskId)).rows;
      return row ? fromRow(row) : undefined;
    },

    async findByThread(workspaceId, slackChannelId, threadTs) {
      const row = await db
        .selectFrom('task_origins')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('slack_channel_id', '=', slackChannelId)
        .where('thread_ts', '=', threadTs)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return row ? fromRow(row) : undefined;
    },

    async forget(workspaceId, taskId) {
      return touched(
        await db
          .deleteFrom('task_origins')
          .where('workspace_id', '=', workspaceId)
          .where('task_id', '=', taskId)
          .executeTakeFirst(),
      );
    },
  };
}
