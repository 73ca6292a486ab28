import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postDigestNow } from '../../src/digest/now.js';
import type { PlanningAccess } from '../../src/digest/scheduler.js';
import { type Bench, BOT_TOKEN, link, openBench } from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';

describe('postDigestNow', () => {
  let bench: Bench;
  let planning: PlanningAccess;
  let channel: Awaited<ReturnType<typeof link>>;
  const slack = () => ({ client: bench.clients.slackBots, token: BOT_TOKEN });

  beforeEach(async () => {
    bench = await openBench('sqlite');
    bench.features = [feature({ id: 'f1', heading: 'Login' })];
    // Linked before the day's 09:00 (Berlin), so that day's digest is expected.
    bench.clock.set('2026-03-10T07:00:00Z');
    channel = await link(bench, 'C1');
    bench.clock.set('2026-03-10T10:00:00Z');
    const access = await bench.deps().planningClientFor(channel);
    if (!access) throw new Error('no access');
    planning = access;
  });
  afterEach(() => bench.close());

  it('posts at once, marked on demand, without using the day’s claim', async () => {
    const result = await postDigestNow(channel, {
      store: bench.store,
      slack: slack(),
      planning,
      now: new Date(bench.clock.now),
    });
    expect(result).toMatchObject({ status: 'posted' });
    expect(bench.posted).toHaveLength(1);
    expect(bench.posted[0]?.metadata.event_payload).toEqual({
      local_date: '2026-03-10',
      channel: 'C1',
      on_demand: true,
    });
    expect(bench.posted[0]?.text).toContain('on request');

    // The scheduled digest still comes today.
    expect(await bench.scheduler().tick()).toMatchObject({ posted: 1 });
    expect(bench.posted).toHaveLength(2);
  });

  it('never runs two at once for one channel, and frees the channel afterwards', async () => {
    const deps = { store: bench.store, slack: slack(), planning };
    const [a, b] = await Promise.all([postDigestNow(channel, deps), postDigestNow(channel, deps)]);
    expect([a.status, b.status].sort()).toEqual(['busy', 'posted']);
    expect(bench.posted).toHaveLength(1);
    expect((await postDigestNow(channel, deps)).status).toBe('posted');
  });

  it('frees the channel after a failure too, and posts nothing', async () => {
    bench.planningStatus = 500;
    const deps = { store: bench.store, slack: slack(), planning };
    await expect(postDigestNow(channel, deps)).rejects.toThrow();
    expect(bench.posted).toHaveLength(0);
    bench.planningStatus = 200;
    expect((await postDigestNow(channel, deps)).status).toBe('posted');
  });
});
