import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gatherDigestData } from '../../src/digest/gather.js';
import { createPlanningClient, ServiceError } from '../../src/planning/index.js';
import { type Bench, openBench, PLANNING_TOKEN, PLANNING_URL } from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';

describe('gatherDigestData', () => {
  let bench: Bench;
  const client = () =>
    createPlanningClient({
      baseUrl: `${PLANNING_URL}/v1`,
      token: PLANNING_TOKEN,
      dispatcher: bench.agent,
      retries: 0,
    });
  const where = { teamId: 'team-1', channelId: 'chan-1' };

  beforeEach(async () => {
    bench = await openBench('sqlite');
    bench.features = [
      feature({
        id: 'f1',
        tasks: [
          { id: 't-idle', state: 'idle' },
          { id: 't-review', state: 'in review' },
          { id: 't-done', state: 'done' },
          { id: 't-progress', state: 'in progress' },
        ],
      }),
      feature({ id: 'f2', stage: 'deep context', tasks: [{ id: 't-archived', state: 'idle' }] }),
    ];
  });
  afterEach(() => bench.close());

  it('reads every feature and only open tasks of live features, in review first', async () => {
    const data = await gatherDigestData(client(), where);
    expect(data.features.map((f) => f.id)).toEqual(['f1', 'f2']);
    expect(bench.taskReads).toEqual(['t-review', 't-progress', 't-idle']);
    expect(data.tasksNotRead).toBe(0);
  });

  it('counts feedback without a reply per task', async () => {
    bench.tasks.set('t-review', {
      id: 't-review',
      heading: 'Review me',
      state: 'in review',
      notions: [],
      minute: {
        discoveries: [],
        feedback: [
          { id: 'fb1', message: 'why?' },
          { id: 'fb2', message: 'and?', reply: 'because' },
          { id: 'fb3', message: 'hm', reply: '  ' },
        ],
      },
    });
    const data = await gatherDigestData(client(), where);
    expect(data.feedbackWaiting).toEqual([
      {
        featureId: 'f1',
        featureHeading: 'Feature f1',
        taskId: 't-review',
        taskHeading: 'Review me',
        count: 2,
      },
    ]);
  });

  it('caps the task reads and says how many were left unread', async () => {
    const data = await gatherDigestData(client(), where, { maxTaskReads: 2 });
    expect(bench.taskReads).toEqual(['t-review', 't-progress']);
    expect(data.tasksNotRead).toBe(1);
  });

  it('skips a task deleted between the list and the read', async () => {
    bench.missingTasks.add('t-idle');
    const data = await gatherDigestData(client(), where);
    expect(data.feedbackWaiting).toEqual([]);
  });

  it('fails as a whole on a service error: no half digest', async () => {
    bench.planningStatus = 503;
    await expect(gatherDigestData(client(), where)).rejects.toBeInstanceOf(ServiceError);
  });

  it('a task read failing stops the reads not started yet; the ones under way end, none left running', async () => {
    bench.features = [
      feature({
        id: 'f1',
        tasks: ['t1', 't2', 't3', 't4', 't5', 't6'].map((id) => ({ id, state: 'idle' as const })),
      }),
    ];
    const real = client();
    const started: string[] = [];
    const settled: string[] = [];
    const failing = {
      ...real,
      tasks: {
        ...real.tasks,
        read: async (...args: Parameters<typeof real.tasks.read>) => {
          const taskId = args[3];
          started.push(taskId);
          try {
            if (taskId === 't1')
              throw new ServiceError('tasks.read: 503', {
                operation: 'tasks.read',
                method: 'GET',
                path: '/t',
                status: 503,
              });
            return await real.tasks.read(...args);
          } finally {
            settled.push(taskId);
          }
        },
      },
    } as typeof real;
    await expect(gatherDigestData(failing, where, { concurrency: 2 })).rejects.toBeInstanceOf(ServiceError);
    // t1 failed while t2 was under way: t2 still ends, t3… are never read.
    expect(started).toEqual(['t1', 't2']);
    await vi.waitFor(() => expect(settled.sort()).toEqual(['t1', 't2']));
  });

  it('refuses fewer than one reader', async () => {
    await expect(gatherDigestData(client(), where, { concurrency: 0 })).rejects.toBeInstanceOf(RangeError);
  });
});
