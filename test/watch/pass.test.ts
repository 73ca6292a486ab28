/**
 * The watch pass over the sandbox (real sockets), changed through its API as another tool would,
 * with a recording sink and the store checked after each pass.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/store/index.js';
import { nextDue } from '../../src/watch/index.js';
import { eventually } from '../helpers/slack-harness.js';
import {
  INTERVAL,
  LEASE,
  openWatchBench,
  RecordingSink,
  recorded,
  type WatchBench,
} from '../helpers/watch-bench.js';

/** Far enough for any link to be due again (its next time is within 1.5 intervals). */
const AGAIN = INTERVAL * 1.5;

describe('the watch pass', () => {
  let bench: WatchBench;
  beforeEach(async () => {
    bench = await openWatchBench();
  });
  afterEach(() => bench.close());

  const stored = (slackChannelId = 'C1') => recorded(bench.store, slackChannelId);

  it('baselines silently, then hands exactly one delta for a feature advanced elsewhere; unchanged features are not read again', async () => {
    await bench.link('C1');
    const login = await bench.feature('Login');
    await bench.feature('Billing');
    const sink = new RecordingSink();
    const watch = bench.watch(sink);

    const began = bench.clock.t;
    expect(await watch.tick()).toMatchObject({ due: 1, seen: 1, deltas: 0, failed: 0 });
    expect(sink.turns).toHaveLength(0);
    expect((await stored()).size).toBe(2);
    expect(bench.listCalls()).toBe(1);

    // Not due before its next time: neither this process nor another reads it again.
    bench.clock.advance(60_000);
    expect(await watch.tick()).toMatchObject({ due: 0, seen: 0 });
    expect(await bench.watch(new RecordingSink()).tick()).toMatchObject({ seen: 0, notClaimed: 1 });
    expect(bench.listCalls()).toBe(1);

    bench.clock.advance(1_000);
    await bench.planning.features.advance(bench.teamId, bench.channelId, login.id);
    bench.clock.advance(AGAIN);
    const changedAt = bench.clock.t;
    expect(await watch.tick()).toMatchObject({ seen: 1, changed: 1, deltas: 1 });
    expect(sink.turns).toHaveLength(1);
    const [delta] = sink.deltas;
    expect(delta).toMatchObject({
      featureId: login.id,
      seenAt: began,
      before: { stage: 'planning' },
      after: { stage: 'validation' },
      feature: { id: login.id, stage: 'validation' },
      changes: [{ kind: 'stage', from: 'planning', to: 'validation' }],
    });
    expect(sink.turns[0]?.link.slackChannelId).toBe('C1');
    // One list call per pass, and no feature read one by one.
    expect(bench.listCalls()).toBe(2);
    expect(bench.sandbox.requests.count('featureRead')).toBe(0);
    expect((await stored()).get(login.id)).toMatchObject({
      seen: { stage: 'validation' },
      seenAt: changedAt,
    });

    // Nothing changed since: the sink is not called.
    bench.clock.advance(AGAIN);
    expect(await watch.tick()).toMatchObject({ seen: 1, deltas: 0 });
    expect(sink.turns).toHaveLength(1);
  });

  it('a new feature, a task moved and a deleted feature: before or after absent, changes named', async () => {
    await bench.link('C1');
    const login = await bench.feature('Login');
    const billing = await bench.feature('Billing');
    const sink = new RecordingSink();
    const watch = bench.watch(sink);
    await watch.tick();

    bench.clock.advance(1_000);
    const search = await bench.planning.features.create(bench.teamId, bench.channelId, { heading: 'Search' });
    await bench.planning.tasks.update(bench.teamId, bench.channelId, login.id, login.taskId, {
      state: 'done',
    });
    await bench.planning.features.delete(bench.teamId, bench.channelId, billing.id);
    bench.clock.advance(AGAIN);
    await watch.tick();

    const byId = new Map(sink.deltas.map((d) => [d.featureId, d]));
    expect(byId.size).toBe(3);
    expect(byId.get(search.id)).toMatchObject({ after: { heading: 'Search' }, changes: [] });
    expect(byId.get(search.id)?.before).toBeUndefined();
    expect(byId.get(login.id)?.changes).toEqual([
      { kind: 'taskState', taskId: login.taskId, heading: 'Build Login', from: 'idle', to: 'done' },
    ]);
    const gone = byId.get(billing.id);
    expect(gone?.before?.id).toBe(billing.id);
    expect(gone?.after).toBeUndefined();
    expect(gone?.feature).toBeUndefined();
    expect([...(await stored()).keys()].sort()).toEqual([login.id, search.id].sort());
  });

  it('a service failure: nothing saved, the failure recorded, one log line for the organization, the same change next pass', async () => {
    for (const c of ['C1', 'C2', 'C3']) await bench.link(c);
    const login = await bench.feature('Login');
    const sink = new RecordingSink();
    const outcomes: string[] = [];
    const watch = bench.watch(sink, { metrics: { inc: ({ outcome }) => outcomes.push(outcome) } });
    await watch.tick();
    bench.clock.advance(1_000);
    await bench.planning.features.advance(bench.teamId, bench.channelId, login.id);
    bench.clock.advance(AGAIN);

    bench.sandbox.inject({ operationId: 'featureList', status: 503, times: 3 });
    const lines = bench.logLines.length;
    expect(await watch.tick()).toMatchObject({ seen: 0, failed: 3, deltas: 0 });
    expect(sink.turns).toHaveLength(0);
    for (const c of ['C1', 'C2', 'C3']) expect((await stored(c)).get(login.id)?.seen.stage).toBe('planning');
    const rows = await bench.store.db.selectFrom('watch_links').selectAll().execute();
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.error).toMatch(/^planning features\.list: \w+Error 503/);
    expect(rows.every((r) => r.owner === null && r.lease_until === null)).toBe(true);
    expect(outcomes).toEqual([...Array(3).fill('seen'), ...Array(3).fill('failed')]);
    const failures = bench.logLines.slice(lines).filter((l) => l.includes('the planning service failed'));
    expect(failures).toHaveLength(1);
    expect(JSON.parse(failures[0] ?? '{}')).toMatchObject({ links: 3, orgId: bench.sandbox.orgId });

    bench.clock.advance(AGAIN);
    expect(await watch.tick()).toMatchObject({ seen: 3, deltas: 3, failed: 0 });
    expect(outcomes.slice(6)).toEqual(Array(3).fill('changed'));
    expect(sink.deltas.map((d) => d.changes)).toEqual(
      Array(3).fill([{ kind: 'stage', from: 'planning', to: 'validation' }]),
    );
    expect(
      (await bench.store.db.selectFrom('watch_links').select('error').execute()).map((r) => r.error),
    ).toEqual([null, null, null]);
  });

  it('features the sink did not finish are handed again next pass, the others not', async () => {
    await bench.link('C1');
    const login = await bench.feature('Login');
    const billing = await bench.feature('Billing');
    const sink = new RecordingSink();
    const watch = bench.watch(sink);
    await watch.tick();
    bench.clock.advance(1_000);
    for (const f of [login, billing])
      await bench.planning.features.advance(bench.teamId, bench.channelId, f.id);

    sink.finish = (d) => d.featureId === login.id;
    bench.clock.advance(AGAIN);
    await watch.tick();
    expect(sink.turns[0]?.deltas.map((d) => d.featureId).sort()).toEqual([login.id, billing.id].sort());
    expect((await stored()).get(billing.id)?.seen.stage).toBe('planning');

    sink.finish = () => true;
    bench.clock.advance(AGAIN);
    await watch.tick();
    expect(sink.turns[1]?.deltas).toHaveLength(1);
    expect(sink.turns[1]?.deltas[0]).toMatchObject({
      featureId: billing.id,
      changes: [{ kind: 'stage', from: 'planning', to: 'validation' }],
    });

    bench.clock.advance(AGAIN);
    await watch.tick();
    expect(sink.turns).toHaveLength(2);
  });

  it('a listing that fails on page 2: changes read are handed over, no feature taken for deleted', async () => {
    await bench.link('C1');
    const features = [];
    for (const heading of ['One', 'Two', 'Three']) features.push(await bench.feature(heading));
    const sink = new RecordingSink();
    const watch = bench.watch(sink, { pageSize: 2 });
    await watch.tick();
    expect((await stored()).size).toBe(3);
    expect(bench.listCalls()).toBe(2);

    bench.clock.advance(1_000);
    await bench.planning.features.advance(bench.teamId, bench.channelId, features[0]?.id ?? '');
    bench.clock.advance(AGAIN);
    // Page 1 is held until page 2's failure is set up, then answers; page 2 fails.
    let release!: () => void;
    bench.sandbox.inject({ operationId: 'featureList', holdUntil: new Promise<void>((r) => (release = r)) });
    const ticking = watch.tick();
    await eventually(() => bench.listCalls() === 3, 'page 1 asked for');
    bench.sandbox.inject({ operationId: 'featureList', status: 503 });
    release();
    expect(await ticking).toMatchObject({ seen: 1, deltas: 1 });
    expect(bench.listCalls()).toBe(4);
    expect(sink.deltas).toHaveLength(1);
    expect(sink.deltas[0]).toMatchObject({ featureId: features[0]?.id, after: { stage: 'validation' } });
    expect((await stored()).size).toBe(3);
    expect(bench.logLines.join('')).toContain('a listing stopped before its last page');
  });

  it('a first pass cut short records nothing: a baseline is whole', async () => {
    await bench.link('C1');
    for (const heading of ['One', 'Two', 'Three']) await bench.feature(heading);
    const sink = new RecordingSink();
    const watch = bench.watch(sink, { pageSize: 2 });
    let release!: () => void;
    bench.sandbox.inject({ operationId: 'featureList', holdUntil: new Promise<void>((r) => (release = r)) });
    const ticking = watch.tick();
    await eventually(() => bench.listCalls() === 1, 'page 1 asked for');
    bench.sandbox.inject({ operationId: 'featureList', status: 503 });
    release();
    expect(await ticking).toMatchObject({ seen: 0, failed: 1 });
    expect((await stored()).size).toBe(0);
    bench.clock.advance(AGAIN);
    expect(await watch.tick()).toMatchObject({ seen: 1, deltas: 0 });
    expect((await stored()).size).toBe(3);
  });

  it('watches the first features of a crowded channel, says so once, and never takes the others for deleted', async () => {
    await bench.link('C1');
    for (const heading of ['One', 'Two', 'Three']) await bench.feature(heading);
    const sink = new RecordingSink();
    const watch = bench.watch(sink, { pageSize: 2, maxFeatures: 2 });
    await watch.tick();
    expect((await stored()).size).toBe(2);
    bench.clock.advance(AGAIN);
    await watch.tick();
    expect(sink.turns).toHaveLength(0);
    expect(bench.logLines.filter((l) => l.includes('only its first 2 are watched'))).toHaveLength(1);
  });

  it('a link without a planning token is skipped with a log line, and not retried before the interval', async () => {
    await bench.link('C1');
    const sink = new RecordingSink();
    const watch = bench.watch(sink, { planningAccessFor: async () => undefined });
    expect(await watch.tick()).toMatchObject({ skipped: 1, seen: 0 });
    expect(bench.logLines.join('')).toContain('no planning token');
    expect(await watch.tick()).toMatchObject({ due: 0 });
    expect(bench.listCalls()).toBe(0);
  });

  it('a stored record that does not parse is unseen: logged, never thrown', async () => {
    await bench.link('C1');
    const login = await bench.feature('Login');
    const sink = new RecordingSink();
    const watch = bench.watch(sink);
    await watch.tick();
    await bench.store.db
      .updateTable('watch_features')
      .set({ seen: '{"id":"x","stage":"nowhere"}' })
      .where('feature_id', '=', login.id)
      .execute();
    bench.clock.advance(AGAIN);
    expect(await watch.tick()).toMatchObject({ seen: 1, failed: 0 });
    expect(bench.logLines.join('')).toContain('did not parse; treated as unseen');
    // Unseen after a baseline: handed over as first seen, and recorded again once done.
    expect(sink.deltas).toMatchObject([{ featureId: login.id, after: { heading: 'Login' } }]);
    expect(sink.deltas[0]?.before).toBeUndefined();
    expect((await stored()).get(login.id)?.seen.heading).toBe('Login');
  });

  it('the store failing ends no pass and loses nothing: unclaimed links and unrecorded passes come back', async () => {
    for (const c of ['C1', 'C2']) await bench.link(c);
    const login = await bench.feature('Login');
    const sink = new RecordingSink();
    const failing = { claim: 0, complete: 0 };
    const down = new StoreUnavailableError('unreachable');
    const store = {
      links: bench.store.links,
      watch: {
        ...bench.store.watch,
        claim: async (...args: Parameters<typeof bench.store.watch.claim>) => {
          if (failing.claim > 0 && failing.claim--) throw down;
          return bench.store.watch.claim(...args);
        },
        complete: async (...args: Parameters<typeof bench.store.watch.complete>) => {
          if (failing.complete > 0 && failing.complete--) throw down;
          return bench.store.watch.complete(...args);
        },
      },
    };
    const watch = bench.watch(sink, { store });

    failing.claim = 1;
    expect(await watch.tick()).toMatchObject({ due: 2, seen: 0 });
    expect(bench.logLines.join('')).toContain('could not claim links');
    expect(await watch.tick()).toMatchObject({ seen: 2 });

    bench.clock.advance(1_000);
    await bench.planning.features.advance(bench.teamId, bench.channelId, login.id);
    bench.clock.advance(AGAIN);
    failing.complete = 2;
    expect(await watch.tick()).toMatchObject({ seen: 0, failed: 2, deltas: 0 });
    expect(sink.deltas).toHaveLength(2);
    expect(bench.logLines.join('')).toContain('could not record the link’s pass');
    expect((await stored('C1')).get(login.id)?.seen.stage).toBe('planning');
    // Held by this replica's lease until it runs out; then the same change is handed again.
    expect(await watch.tick()).toMatchObject({ seen: 0, notClaimed: 2 });
    bench.clock.advance(LEASE + 1);
    expect(await watch.tick()).toMatchObject({ seen: 2, deltas: 2 });
    expect(sink.deltas.map((d) => d.changes[0])).toEqual(
      Array(4).fill({ kind: 'stage', from: 'planning', to: 'validation' }),
    );
    expect((await stored('C2')).get(login.id)?.seen.stage).toBe('validation');
  });

  it('spreads links over the interval, each at a steady rhythm', () => {
    const now = Date.parse('2026-05-04T09:00:00Z');
    const perMinute = new Map<number, number>();
    for (let i = 0; i < 2_000; i += 1) {
      const link = { workspaceId: `T${i % 7}`, slackChannelId: `C${i}` };
      const next = nextDue(link, now, INTERVAL);
      expect(next).toBeGreaterThanOrEqual(now + INTERVAL / 2);
      expect(next).toBeLessThan(now + INTERVAL * 1.5);
      // Passing it a little late keeps its slot: exactly one interval later.
      expect(nextDue(link, next + 30_000, INTERVAL)).toBe(next + INTERVAL);
      const minute = Math.floor((next - now) / 60_000);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
    }
    // Five minutes' worth of slots (six buckets as the window straddles them), none with most links.
    expect(Math.max(...perMinute.values())).toBeLessThan(600);
  });
});
