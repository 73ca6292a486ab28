/**
 * The minute tick (src/app/jobs.ts): each pass runs the jobs in order, a failing job does not stop
 * the others, a wake-up during a pass is skipped, and stop() waits for the pass in progress — with
 * made-up jobs, and with the app's own jobs over the digest's test bench.
 */
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appJobs, type Job, startJobs } from '../../src/app/jobs.js';
import { type Bench, BOT_TOKEN, link, openBench } from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';
import { capturedLogger } from '../helpers/logs.js';

/** A timer the test fires by hand. */
function manualTimer() {
  const timer = {
    fire: () => {},
    cancelled: false,
    setTimer: (wake: () => void) => {
      timer.fire = wake;
      return () => {
        timer.cancelled = true;
      };
    },
  };
  return timer;
}

describe('startJobs', () => {
  it('runs every job of a pass in order with the same time; a failing job is logged and the next still runs', async () => {
    const { logger, lines } = capturedLogger();
    const calls: string[] = [];
    const job = (name: string, run: (now: Date) => Promise<unknown>): Job => ({ name, run });
    const jobs = startJobs({
      logger,
      setTimer: manualTimer().setTimer,
      jobs: [
        job('first', async (now) => calls.push(`first ${now.toISOString()}`)),
        job('broken', async () => {
          throw new Error('the store is down');
        }),
        {
          name: 'throws',
          run: () => {
            throw new Error('not even a promise');
          },
        },
        job('last', async (now) => calls.push(`last ${now.toISOString()}`)),
      ],
    });
    await jobs.pass(new Date('2026-03-10T08:00:00Z'));
    expect(calls).toEqual(['first 2026-03-10T08:00:00.000Z', 'last 2026-03-10T08:00:00.000Z']);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.find((l) => l.job === 'broken')).toMatchObject({
      msg: 'job failed',
      err: { message: 'the store is down' },
    });
    expect(logged.find((l) => l.job === 'throws')).toMatchObject({ msg: 'job failed' });
    await jobs.stop();
  });

  it('skips a wake-up while a pass runs; stop() cancels the timer and waits for the pass in progress', async () => {
    const { logger, lines } = capturedLogger();
    const timer = manualTimer();
    let runs = 0;
    let finish = () => {};
    const jobs = startJobs({
      logger,
      setTimer: timer.setTimer,
      jobs: [
        {
          name: 'slow',
          run: () => {
            runs += 1;
            return new Promise<void>((resolve) => {
              finish = resolve;
            });
          },
        },
      ],
    });
    timer.fire();
    timer.fire(); // the first pass is still running
    expect(runs).toBe(1);
    expect(lines.join('')).toContain('previous pass still running; skipping this wake-up');

    let stopped = false;
    const stopping = jobs.stop().then(() => {
      stopped = true;
    });
    await yieldToEvents();
    expect(timer.cancelled).toBe(true);
    expect(stopped).toBe(false); // the pass has not finished
    finish();
    await stopping;
    expect(stopped).toBe(true);
    await jobs.stop(); // twice is harmless
  });
});

describe("the app's jobs", () => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await openBench('sqlite');
    bench.features = [feature({ id: 'f1', heading: 'Login', canAdvance: true })];
  });
  afterEach(() => bench.close());

  it('post the digest on the tick; stop() waits for the pass in progress', async () => {
    await link(bench, 'C1');
    bench.clock.set('2026-03-10T08:00:00Z');
    const { logger, clock } = bench.deps();
    const timer = manualTimer();
    const jobs = startJobs({
      logger,
      clock,
      setTimer: timer.setTimer,
      jobs: appJobs({
        store: bench.store,
        clients: bench.clients,
        logger,
        botTokenFor: async () => BOT_TOKEN,
        planningAccessFor: bench.deps().planningClientFor,
        digest: { clock },
      }),
    });
    timer.fire();
    await jobs.stop();
    expect(timer.cancelled).toBe(true);
    expect(bench.posted).toHaveLength(1);
  });
});

describe("the app's jobs: the watch", () => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await openBench('sqlite');
    bench.features = [feature({ id: 'f1', heading: 'Login' })];
  });
  afterEach(() => bench.close());

  /** One pass of the app's jobs with these watch settings; the deltas the sink was handed. */
  async function onePass(options: { sink: boolean; intervalMs?: number }) {
    // Linked just now: its first look is at once (a link older than the interval waits for its slot).
    bench.clock.set('2026-03-10T07:00:00Z');
    await link(bench, 'C1');
    const { logger, clock } = bench.deps();
    const turns: string[] = [];
    const jobs = appJobs({
      store: bench.store,
      clients: bench.clients,
      logger,
      botTokenFor: async () => BOT_TOKEN,
      planningAccessFor: bench.deps().planningClientFor,
      digest: { clock },
      ...(options.sink
        ? {
            watchSink: {
              apply: async (turn) => {
                turns.push(...turn.deltas.map((d) => d.featureId));
                return new Set(turn.deltas.map((d) => d.featureId));
              },
            },
          }
        : {}),
      watch: { clock, ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }) },
    });
    for (const job of jobs) await job.run(new Date(bench.clock.now));
    return { names: jobs.map((j) => j.name), turns };
  }

  it('runs after the digest and its notices when the Slack side is given: a link is baselined on its first pass', async () => {
    const { names, turns } = await onePass({ sink: true });
    expect(names.slice(0, 3)).toEqual(['digest', 'peer grades', 'watch']);
    expect(turns).toEqual([]);
    expect([...(await bench.store.watch.features('T1', 'C1')).keys()]).toEqual(['f1']);
  });

  it('does not run without the Slack side, nor with WATCH_INTERVAL_MS=0', async () => {
    expect((await onePass({ sink: false })).names).not.toContain('watch');
    expect((await onePass({ sink: true, intervalMs: 0 })).names).not.toContain('watch');
    expect(await bench.store.db.selectFrom('watch_links').selectAll().execute()).toEqual([]);
  });
});
