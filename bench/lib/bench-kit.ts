/**
 * Measuring helpers the benchmarks share: percentiles, load average and polling. Signing is in
 * ./slack-command.ts, the server under test in ./ack-target-process.ts.
 */
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
export const sortNumbers = (values: number[]) => [...values].sort((a, b) => a - b);
export const ms = (value: number) => value.toFixed(1);
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Polls `condition` every 20 ms until it holds or `timeoutMs` passed; says whether it held. */
export async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) return false;
    await sleep(20);
  }
  return true;
}

/** Runs a benchmark's cleanups, last first; a cleanup that fails is one more problem of the run. */
export async function runCleanups(cleanups: (() => unknown)[], broken: string[]): Promise<void> {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      broken.push(`cleanup: ${(error as Error).message}`);
    }
  }
}

/** Prints what broke the run (at most ten lines) and makes the process exit non-zero. */
export function reportBroken(broken: string[]): void {
  if (broken.length === 0) return;
  console.error('\nBroken run:');
  for (const problem of broken.slice(0, 10)) console.error(`  - ${problem}`);
  process.exitCode = 1;
}
