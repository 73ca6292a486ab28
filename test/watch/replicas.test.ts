/**
 * Replicas of the watch on one PostgreSQL store (issue 24, "several replicas watch each link once
 * per interval"): two watchers, each with its own store connection and owner, ticking together over
 * the sandbox; one dying mid-pass with its leases held.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import type { FeatureDelta } from '../../src/watch/index.js';
import { describeWithPostgres } from '../helpers/postgres.js';
import { eventually } from '../helpers/slack-harness.js';
import {
  INTERVAL,
  LEASE,
  openWatchBench,
  RecordingSink,
  recorded,
  type WatchBench,
} from '../helpers/watch-bench.js';

const CHANNELS = Array.from({ length: 12 }, (_, i) => `C${String(i).padStart(2, '0')}`);

describeWithPostgres('the watch on replicas (PostgreSQL)', () => {
  let bench: WatchBench;
  let otherStore: Store;
  beforeEach(async () => {
    bench = await openWatchBench('postgres');
    otherStore = await bench.openReplicaStore();
    for (const c of CHANNELS) await bench.link(c);
  });
  afterEach(() => bench.close());

  /** Deltas handed over per Slack channel, across sinks. */
  function perChannel(...sinks: RecordingSink[]) {
    const counts = new Map<string, FeatureDelta[]>();
    for (const sink of sinks)
      for (const turn of sink.turns) {
        const list = counts.get(turn.link.slackChannelId) ?? [];
        list.push(...turn.deltas);
        counts.set(turn.link.slackChannelId, list);
      }
    return counts;
  }

  it('two replicas ticking together hand each delta over once', async () => {
    const login = await bench.feature('Login');
    const a = new RecordingSink();
    const b = new RecordingSink();
    // Small claim batches: the two interleave over the links instead of one taking them all at once.
    const watchA = bench.watch(a, { owner: 'replica-a', maxInFlight: 2 });
    const watchB = bench.watch(b, { owner: 'replica-b', maxInFlight: 2, store: otherStore });

    const [baseA, baseB] = await Promise.all([watchA.tick(), watchB.tick()]);
    expect(baseA.seen + baseB.seen).toBe(CHANNELS.length);

    bench.clock.advance(1_000);
    await bench.planning.features.advance(bench.teamId, bench.channelId, login.id);
    bench.clock.advance(INTERVAL * 1.5);
    const [passA, passB] = await Promise.all([watchA.tick(), watchB.tick()]);
    expect(passA.seen + passB.seen).toBe(CHANNELS.length);
    expect(passA.deltas + passB.deltas).toBe(CHANNELS.length);

    const handed = perChannel(a, b);
    expect([...handed.keys()].sort()).toEqual(CHANNELS);
    for (const deltas of handed.values()) {
      expect(deltas).toHaveLength(1);
      expect(deltas[0]?.changes).toEqual([{ kind: 'stage', from: 'planning', to: 'validation' }]);
    }
    // Another tick of both, the interval later: nothing more.
    bench.clock.advance(INTERVAL * 1.5);
    await Promise.all([watchA.tick(), watchB.tick()]);
    expect([...perChannel(a, b).values()].every((d) => d.length === 1)).toBe(true);
  });

  it('a replica dying mid-pass: another finishes once its lease runs out, and the dead one is fenced off', async () => {
    const login = await bench.feature('Login');
    const dying = new RecordingSink();
    const survivor = new RecordingSink();
    const watchA = bench.watch(dying, { owner: 'replica-a', perWorkspace: CHANNELS.length });
    const watchB = bench.watch(survivor, { owner: 'replica-b', store: otherStore });
    await watchA.tick();
    bench.clock.advance(1_000);
    await bench.planning.features.advance(bench.teamId, bench.channelId, login.id);
    bench.clock.advance(INTERVAL * 1.5);

    // Replica A claims every link and hangs in the Slack side: its leases are never released.
    let revive!: () => void;
    const hung = new Promise<void>((resolve) => {
      revive = resolve;
    });
    dying.before = () => hung;
    const stuck = watchA.tick();
    await eventually(() => dying.turns.length === CHANNELS.length, 'replica A holding every link');

    // While A's leases live, B claims nothing.
    expect(await watchB.tick()).toMatchObject({ seen: 0, notClaimed: CHANNELS.length });
    expect(survivor.turns).toHaveLength(0);

    bench.clock.advance(LEASE + 1);
    expect(await watchB.tick()).toMatchObject({ seen: CHANNELS.length, deltas: CHANNELS.length });
    const handed = perChannel(survivor);
    expect([...handed.keys()].sort()).toEqual(CHANNELS);
    for (const deltas of handed.values()) expect(deltas.map((d) => d.featureId)).toEqual([login.id]);

    // A comes back: every completion is refused, nothing it saw is written over B's.
    revive();
    expect(await stuck).toMatchObject({ seen: 0 });
    expect(bench.logLines.filter((l) => l.includes('lost the link’s lease'))).toHaveLength(CHANNELS.length);
    const rows = await bench.store.db.selectFrom('watch_links').selectAll().execute();
    expect(rows.every((r) => r.owner === null && r.error === null)).toBe(true);
    for (const c of CHANNELS)
      expect((await recorded(bench.store, c)).get(login.id)?.seen.stage).toBe('validation');
  });
});
