import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
});
