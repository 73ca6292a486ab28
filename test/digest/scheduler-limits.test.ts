/**
 * The scheduler's concurrency bounds: digests in progress per Slack workspace (default 2) and
 * digests reading from one planning organization (default 4). The planning service holds every
 * read at a gate until the test opens it, so all the digests that the limits let start are
 * reading at once; the test counts them per workspace and per organization.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DigestStore, PlanningAccess } from '../../src/digest/scheduler.js';
import { createPlanningClient } from '../../src/planning/index.js';
import type { ChannelLink, ClaimKey } from '../../src/store/index.js';
import {
  type Backend,
  type Bench,
  link,
  openBench,
  PLANNING_TOKEN,
  PLANNING_URL,
} from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';
import { describeWithPostgres } from '../helpers/postgres.js';

/** Planning reads in flight per key (a workspace, an organization), and the most seen at once. */
class Meter {
  readonly inFlight = new Map<string, number>();
  readonly peak = new Map<string, number>();
  private open!: () => void;
  /** Every read waits here until `release()`. */
  readonly gate = new Promise<void>((resolve) => {
    this.open = resolve;
  });

  enter(key: string) {
    const now = (this.inFlight.get(key) ?? 0) + 1;
    this.inFlight.set(key, now);
    this.peak.set(key, Math.max(this.peak.get(key) ?? 0, now));
  }

  leave(key: string) {
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) - 1);
  }

  total() {
    return [...this.inFlight.values()].reduce((sum, n) => sum + n, 0);
  }

  release() {
    this.open();
  }
}

function limitsSuite(backend: Backend) {
  let bench: Bench;
  let meter: Meter;

  beforeEach(async () => {
    bench = await openBench(backend);
    // One feature and no open task: each digest makes exactly one planning read.
    bench.features = [feature({ id: 'f1', heading: 'Login' })];
    bench.clock.set('2026-03-10T08:00:00Z'); // 09:00 in Berlin, a Tuesday: every link is due
    meter = new Meter();
  });
  afterEach(async () => {
    meter.release();
    await bench.close();
  });

  /**
   * A planning client whose reads are counted under `key` and held at the meter's gate; `orgId`
   * is the organization the scheduler limits it by.
   */
  function access(key: string, orgId: string): PlanningAccess {
    const held: Dispatcher = bench.agent.compose((dispatch) => (options, handler) => {
      meter.enter(key);
      void meter.gate.then(() => dispatch(options, handler));
      return true;
    });
    return {
      client: createPlanningClient({
        baseUrl: `${PLANNING_URL}/v1`,
        token: PLANNING_TOKEN,
        dispatcher: held,
        retries: 0,
        onEvent: () => meter.leave(key),
      }),
      orgId,
    };
  }

  /**
   * Ticks, waits until `expected` reads are held and a while longer (for any that the limits
   * would wrongly let through), then opens the gate; returns the tick's report and the counts
   * seen while the gate was shut.
   */
  async function tickHeld(
    scheduler: ReturnType<Bench['scheduler']>,
    expected: number,
  ): Promise<{ report: Awaited<ReturnType<typeof scheduler.tick>>; held: Record<string, number> }> {
    const ticking = scheduler.tick();
    // Listened to at once (a failure while we wait is not an unhandled rejection); still awaited,
    // and so thrown, below.
    ticking.catch(() => {});
    let held: Record<string, number>;
    try {
      await vi.waitFor(() => expect(meter.total()).toBe(expected), { timeout: 10_000, interval: 5 });
      await sleep(100);
      held = Object.fromEntries(meter.inFlight);
    } finally {
      meter.release();
    }
    return { report: await ticking, held };
  }

  async function linkMany(workspaceId: string, count: number) {
    for (let i = 1; i <= count; i++) await link(bench, `C_${workspaceId}_${i}`, { workspaceId });
  }

  /** Each link its own organization, counted by workspace: only the workspace limit can bind. */
  const byWorkspace = async (l: ChannelLink) => access(l.workspaceId, `org-${l.slackChannelId}`);
  /** Every link in one organization, counted by organization. */
  const oneOrganization = async () => access('org-1', 'org-1');

  it('runs at most 2 digests at once per workspace by default, other workspaces meanwhile', async () => {
    await linkMany('T1', 5);
    await linkMany('T2', 3);
    const { report, held } = await tickHeld(bench.scheduler({ planningClientFor: byWorkspace }), 4);
    expect(held).toEqual({ T1: 2, T2: 2 });
    expect(report).toMatchObject({ due: 8, posted: 8, failed: 0 });
    expect(Object.fromEntries(meter.peak)).toEqual({ T1: 2, T2: 2 });
  });

  it('perWorkspace raises the bound per workspace', async () => {
    await linkMany('T1', 5);
    await linkMany('T2', 3);
    const scheduler = bench.scheduler({ planningClientFor: byWorkspace, perWorkspace: 4 });
    const { report, held } = await tickHeld(scheduler, 7);
    expect(held).toEqual({ T1: 4, T2: 3 });
    expect(report).toMatchObject({ due: 8, posted: 8, failed: 0 });
    expect(Object.fromEntries(meter.peak)).toEqual({ T1: 4, T2: 3 });
  });

  it('reads from one planning organization at most 4 at once by default, across workspaces', async () => {
    // Three workspaces × 2 digests each could read 6 at once; the organization allows 4.
    await linkMany('T1', 3);
    await linkMany('T2', 3);
    await linkMany('T3', 3);
    const { report, held } = await tickHeld(bench.scheduler({ planningClientFor: oneOrganization }), 4);
    expect(held).toEqual({ 'org-1': 4 });
    expect(report).toMatchObject({ due: 9, posted: 9, failed: 0 });
    expect(meter.peak.get('org-1')).toBe(4);
  });

  it('perOrganization raises the bound per organization', async () => {
    await linkMany('T1', 3);
    await linkMany('T2', 3);
    await linkMany('T3', 3);
    const scheduler = bench.scheduler({ planningClientFor: oneOrganization, perOrganization: 6 });
    const { report, held } = await tickHeld(scheduler, 6);
    // Now the workspaces' bound (2 each) is what stops it.
    expect(held).toEqual({ 'org-1': 6 });
    expect(report).toMatchObject({ due: 9, posted: 9, failed: 0 });
    expect(meter.peak.get('org-1')).toBe(6);
  });

  it('bounds each organization on its own: two organizations read 4 each at once', async () => {
    await linkMany('T1', 5);
    await linkMany('T2', 5);
    // Workspaces unbounded here, so only the organizations' bound applies.
    const scheduler = bench.scheduler({
      perWorkspace: 10,
      planningClientFor: async (l) => access(`org-${l.workspaceId}`, `org-${l.workspaceId}`),
    });
    const { report, held } = await tickHeld(scheduler, 8);
    expect(held).toEqual({ 'org-T1': 4, 'org-T2': 4 });
    expect(report).toMatchObject({ due: 10, posted: 10, failed: 0 });
  });

  it('maxInFlight bounds the digests in progress across all workspaces', async () => {
    for (const w of ['T1', 'T2', 'T3', 'T4']) await linkMany(w, 3);
    const scheduler = bench.scheduler({ planningClientFor: byWorkspace, maxInFlight: 3 });
    const { report, held } = await tickHeld(scheduler, 3);
    expect(Object.values(held).reduce((a, b) => a + b, 0)).toBe(3);
    expect(report).toMatchObject({ due: 12, posted: 12, failed: 0 });
    expect(bench.posted).toHaveLength(12);
  });

  /** The store as the scheduler sees it, counting the links it has been handed and its claim batches. */
  function countingStore() {
    const seen = { links: 0, batches: [] as ClaimKey[][], singleClaims: 0 };
    const store: DigestStore = {
      links: {
        async *listDigestEnabled(options) {
          for await (const l of bench.store.links.listDigestEnabled({ ...options, pageSize: 4 })) {
            seen.links += 1;
            yield l;
          }
        },
      },
      digests: {
        ...bench.store.digests,
        claim: (input) => {
          seen.singleClaims += 1;
          return bench.store.digests.claim(input);
        },
        claimMany: (keys, options) => {
          seen.batches.push([...keys]);
          return bench.store.digests.claimMany(keys, options);
        },
      },
    };
    return { seen, store };
  }

  it('reads due links only as far ahead as there is room, and claims what can start in one batch', async () => {
    // 10 workspaces × 3 links, read 4 at a time from the store.
    for (let w = 1; w <= 10; w++) await linkMany(`T${String(w).padStart(2, '0')}`, 3);
    const { seen, store } = countingStore();
    const scheduler = bench.scheduler({
      store,
      planningClientFor: byWorkspace,
      maxInFlight: 4,
      readAhead: 6,
    });
    const ticking = scheduler.tick();
    await vi.waitFor(() => expect(meter.total()).toBe(4), { timeout: 10_000, interval: 5 });
    await sleep(100);
    // 4 running and 6 waiting: the other 20 links are still in the store, unread.
    expect(seen.links).toBe(10);
    // Links come in (workspace, channel) order: T01's first two, T02's first two start together.
    expect(seen.batches).toHaveLength(1);
    expect(seen.batches[0]?.map((k) => k.slackChannelId)).toEqual([
      'C_T01_1',
      'C_T01_2',
      'C_T02_1',
      'C_T02_2',
    ]);
    meter.release();
    const report = await ticking;
    expect(report).toMatchObject({ due: 30, posted: 30, failed: 0, notClaimed: 0 });
    expect(seen.links).toBe(30);
    expect(seen.singleClaims).toBe(0);
    // Every key claimed exactly once, in batches no bigger than the room there was.
    const claimed = seen.batches.flat().map((k) => k.slackChannelId);
    expect(new Set(claimed).size).toBe(30);
    expect(claimed).toHaveLength(30);
    expect(Math.max(...seen.batches.map((b) => b.length))).toBeLessThanOrEqual(4);
    expect(bench.posted).toHaveLength(30);
  });

  it('refuses bounds that would start nothing', () => {
    for (const bad of [{ maxInFlight: 0 }, { perWorkspace: 0 }, { readAhead: 0.5 }]) {
      expect(() => bench.scheduler(bad)).toThrow(RangeError);
    }
  });

  it('a second pass the same day claims nothing and posts nothing', async () => {
    for (const w of ['T1', 'T2']) await linkMany(w, 3);
    const { seen, store } = countingStore();
    meter.release();
    const first = bench.scheduler({ store, planningClientFor: byWorkspace });
    expect(await first.tick()).toMatchObject({ due: 6, posted: 6 });
    // Another process (no memory of the first pass) finds every claim posted.
    const second = bench.scheduler({ store, planningClientFor: byWorkspace });
    expect(await second.tick()).toMatchObject({ due: 6, posted: 0, notClaimed: 6 });
    expect(bench.posted).toHaveLength(6);
    // And the first process, which remembers, does not even ask the store again.
    const batches = seen.batches.length;
    expect(await first.tick()).toMatchObject({ due: 0, posted: 0 });
    expect(seen.batches).toHaveLength(batches);
  });
}

describe('digest scheduler concurrency limits (SQLite)', () => limitsSuite('sqlite'));
describeWithPostgres('digest scheduler concurrency limits (PostgreSQL)', () => limitsSuite('postgres'));
