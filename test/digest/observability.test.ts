/**
 * What a digest tells the operator (issue 26 items 1 and 6): every log line of one digest's run —
 * the scheduler's, the planning calls' — carries its link and local date, and each attempt's
 * outcome is counted (posted, retried, failed for the day) without any id as a label.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMetrics, type Metrics } from '../../src/metrics.js';
import { type Bench, link, openBench } from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';

interface Line {
  msg: string;
  workspaceId?: string;
  slackChannelId?: string;
  localDate?: string;
  operation?: string;
}

async function counted(metrics: Metrics, outcome: string): Promise<number> {
  const metric = await metrics.digests.get();
  return metric.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

describe('a digest in the log and in the metrics', () => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await openBench('sqlite');
    bench.features = [feature({ id: 'f1', heading: 'Login', canAdvance: true })];
  });
  afterEach(() => bench.close());

  const lines = () => bench.logLines.map((l) => JSON.parse(l) as Line);

  it("every line of a digest's run names its link and local date, however runs interleave", async () => {
    await link(bench, 'C_PARIS', { timeZone: 'Europe/Paris', digestTime: '09:00' });
    await link(bench, 'C_OTHER', { timeZone: 'Europe/Paris', digestTime: '09:00', workspaceId: 'T2' });
    const metrics = createMetrics();
    const before = bench.logLines.length;
    bench.clock.set('2026-03-10T08:00:00Z');
    expect(await bench.scheduler({ metrics }).tick()).toMatchObject({ due: 2, posted: 2 });

    const mine = lines().slice(before);
    const calls = mine.filter((l) => l.msg === 'planning call');
    // Both digests read the service: each read is under its own link's name.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) {
      expect(call.localDate).toBe('2026-03-10');
      expect(['C_PARIS', 'C_OTHER']).toContain(call.slackChannelId);
      expect(call.workspaceId).toBe(call.slackChannelId === 'C_PARIS' ? 'T1' : 'T2');
    }
    expect(new Set(calls.map((c) => c.slackChannelId))).toEqual(new Set(['C_PARIS', 'C_OTHER']));
    const posted = mine.filter((l) => l.msg === 'digest: posted');
    expect(posted.map((l) => [l.workspaceId, l.slackChannelId, l.localDate]).sort()).toEqual([
      ['T1', 'C_PARIS', '2026-03-10'],
      ['T2', 'C_OTHER', '2026-03-10'],
    ]);
    // The pass's own summary is no digest's.
    const summary = mine.find((l) => l.msg === 'digest: tick done');
    expect(summary?.slackChannelId).toBeUndefined();

    expect(await counted(metrics, 'posted')).toBe(2);
    expect(await counted(metrics, 'retried')).toBe(0);
  });

  it('counts a failed attempt as retried, and the last one of the day as failed', async () => {
    await link(bench, 'C1');
    const metrics = createMetrics();
    // A lasting refusal (a passing one, a 503, is retried past maxAttempts: test/digest/overload.test.ts).
    bench.planningStatus = 403;
    bench.clock.set('2026-03-10T08:00:00Z');
    const scheduler = bench.scheduler({ metrics, maxAttempts: 2, retryBaseMs: 60_000 });
    expect((await scheduler.tick()).failed).toBe(1);
    expect(await counted(metrics, 'retried')).toBe(1);
    bench.clock.advance(2 * 60_000);
    expect((await scheduler.tick()).failed).toBe(1);
    expect(await counted(metrics, 'failed')).toBe(1);
    expect(await counted(metrics, 'posted')).toBe(0);
    const failures = lines().filter((l) => l.msg.startsWith('digest: failed'));
    expect(failures.map((l) => [l.slackChannelId, l.localDate])).toEqual([
      ['C1', '2026-03-10'],
      ['C1', '2026-03-10'],
    ]);
  });
});
