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

/** Far enough for any link to be due again (its next time is within 2 intervals less 1.5 ticks). */
const AGAIN = INTERVAL * 2;

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

  /** When each link's last completed look began, by Slack channel, as the store has it. */
  const looks = async () =>
    new Map(
      (await bench.store.db.selectFrom('watch_links').select(['slack_channel_id', 'seen_at']).execute()).map(
        (r) => [r.slack_channel_id, r.seen_at === null ? undefined : Number(r.seen_at)],
      ),
    );
  const CHANNELS = Array.from({ length: 12 }, (_, i) => `C${i + 1}`);

  it('with a one-minute interval and the minute tick, every link is read at every tick, wherever its slot falls', async () => {
    for (const c of CHANNELS) await bench.link(c);
    await bench.feature('Login');
    const watch = bench.watch(new RecordingSink(), { intervalMs: 60_000, tickMs: 60_000 });
    const start = bench.clock.t;
    for (let k = 0; k < 10; k += 1) {
      // The tick wakes a little late, and the watch's turn in it comes after the digest's.
      const tickAt = start + k * 60_000 + 250;
      bench.clock.t = tickAt + 4_000;
      expect(await watch.tick(new Date(tickAt)), `tick ${k}`).toMatchObject({ seen: 12, failed: 0 });
      expect([...(await looks()).values()], `tick ${k}`).toEqual(Array(12).fill(bench.clock.t));
    }
    expect(bench.listCalls()).toBe(120);
  });

  it('with the minute tick, every link is read once per interval: one tick in five for five minutes', async () => {
    for (const c of CHANNELS) await bench.link(c);
    const watch = bench.watch(new RecordingSink());
    const start = bench.clock.t;
    const readAt = new Map<string, number[]>();
    for (let k = 0; k < 22; k += 1) {
      bench.clock.t = start + k * 60_000 + 250;
      await watch.tick();
      for (const [channel, at] of await looks())
        if (at === bench.clock.t) readAt.set(channel, [...(readAt.get(channel) ?? []), k]);
    }
    for (const channel of CHANNELS) {
      const ticks = readAt.get(channel) ?? [];
      // The baseline at once (a new link), then its own slot: every fifth tick from there on.
      expect(ticks[0], channel).toBe(0);
      const gaps = ticks.slice(2).map((t, i) => t - ticks[i + 1]!);
      expect(gaps, channel).toEqual(Array(gaps.length).fill(5));
      expect(ticks.length, channel).toBeGreaterThanOrEqual(4);
    }
  });

  it('a first deploy spreads the baselines of links made before it over the interval; a link made now is read at once', async () => {
    for (const c of CHANNELS) await bench.link(c);
    await bench.feature('Login');
    // The links were made long before the watch first runs.
    bench.clock.advance(2 * INTERVAL);
    const watch = bench.watch(new RecordingSink());
    const start = bench.clock.t;
    const first = await watch.tick();
    expect(first.seen).toBeLessThan(6);
    // Each link has its first due time at its own slot within the coming interval, in the store.
    const due = await bench.store.db
      .selectFrom('watch_links')
      .select(['slack_channel_id', 'next_at'])
      .execute();
    expect(due).toHaveLength(12);
    for (const row of due) {
      expect(Number(row.next_at)).toBeGreaterThan(start);
      expect(Number(row.next_at)).toBeLessThanOrEqual(start + INTERVAL);
    }
    const perTick = [first.seen];
    for (let k = 1; k <= 5; k += 1) {
      bench.clock.t = start + k * 60_000;
      perTick.push((await watch.tick()).seen);
    }
    // Over the interval (and the tick closing it), each link's baseline once, never most in one tick.
    expect(perTick.reduce((a, b) => a + b)).toBe(12);
    expect(Math.max(...perTick)).toBeLessThan(6);
    expect([...(await looks()).values()].every((at) => at !== undefined)).toBe(true);
    expect(bench.sandbox.requests.count('featureList')).toBe(12);

    // A channel linked now is followed at once.
    await bench.link('C99');
    bench.clock.advance(1_000);
    expect(await watch.tick()).toMatchObject({ seen: 1 });
    expect((await stored('C99')).size).toBe(1);
  });

  it('spreads links over the interval, each at a steady rhythm', () => {
    const now = Date.parse('2026-05-04T09:00:00Z');
    const perMinute = new Map<number, number>();
    for (let i = 0; i < 2_000; i += 1) {
      const link = { workspaceId: `T${i % 7}`, slackChannelId: `C${i}` };
      const next = nextDue(link, now, INTERVAL);
      // At least the interval less one and a half ticks on (a minute's tick), at most one more interval.
      expect(next).toBeGreaterThan(now + INTERVAL - 90_000);
      expect(next).toBeLessThanOrEqual(now + 2 * INTERVAL - 90_000);
      // Read up to a tick late (and half a tick more), it keeps its slot: exactly one interval later.
      for (const late of [0, 30_000, 60_000, 89_999])
        expect(nextDue(link, next + late, INTERVAL)).toBe(next + INTERVAL);
      const minute = Math.floor((next - now) / 60_000);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
    }
    // Five minutes' worth of slots (six buckets as the window straddles them), none with most links.
    expect(Math.max(...perMinute.values())).toBeLessThan(600);
  });
});
