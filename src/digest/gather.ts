/**
 * Fetches what a channel digest shows: every feature of the planning channel (all pages), then —
 * for feedback waiting for a reply, which only a task's minute carries — a bounded number of open
 * tasks, read with bounded concurrency. Errors of the service propagate: a digest is never composed
 * from half the data.
 */
import pLimit from 'p-limit';
import { NotFoundError, type PlanningClient, type TaskState } from '../planning/index.js';
import type { DigestData, FeedbackWaiting } from './snapshot.js';

export interface GatherOptions {
  /** Task reads in flight at once for one digest. Default 4. */
  concurrency?: number;
  /** Open tasks read at most per digest; the rest are counted as not read. Default 100. */
  maxTaskReads?: number;
  /** Features per page. Default 500 (the service's default). */
  pageSize?: number;
  signal?: AbortSignal;
}

/** Tasks whose feedback matters most are read first when the cap bites. */
const READ_ORDER: Record<TaskState, number> = { 'in review': 0, 'in progress': 1, idle: 2, done: 3 };

/** Collects the data of one linked channel's digest. */
export async function gatherDigestData(
  client: PlanningClient,
  link: { teamId: string; channelId: string },
  { concurrency = 4, maxTaskReads = 100, pageSize = 500, signal }: GatherOptions = {},
): Promise<DigestData> {
  const { teamId, channelId } = link;
  const features = [];
  for await (const feature of client.features.list(teamId, channelId, { pageSize }, { signal })) {
    features.push(feature);
  }

  // Deep-context features are read-only: their tasks wait for nobody.
  const open = features
    .filter((f) => f.stage !== 'deep context')
    .flatMap((feature) => feature.tasks.filter((t) => t.state !== 'done').map((task) => ({ feature, task })))
    .sort((a, b) => READ_ORDER[a.task.state] - READ_ORDER[b.task.state]);
  const toRead = open.slice(0, maxTaskReads);

  const limit = pLimit({ concurrency, rejectOnClear: true });
  const read = await Promise.all(
    toRead.map(({ feature, task }) =>
      limit(async (): Promise<FeedbackWaiting | undefined> => {
        try {
          const expanded = await client.tasks.read(teamId, channelId, feature.id, task.id, { signal });
          const count = (expanded.minute?.feedback ?? []).filter((f) => !f.reply?.trim()).length;
          if (count === 0) return undefined;
          return {
            featureId: feature.id,
            featureHeading: feature.heading,
            taskId: task.id,
            taskHeading: expanded.heading ?? task.heading,
            count,
          };
        } catch (error) {
          // Deleted between the list and the read: nothing waits on it any more.
          if (error instanceof NotFoundError) return undefined;
          // The digest fails as a whole: reads still queued would be wasted.
          limit.clearQueue();
          throw error;
        }
      }),
    ),
  );
  return {
    teamId,
    channelId,
    features,
    feedbackWaiting: read.filter((w): w is FeedbackWaiting => w !== undefined),
    tasksNotRead: open.length - toRead.length,
  };
}
