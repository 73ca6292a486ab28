/**
 * What the ack benchmarks share (bench:ack, bench:card): Slack's request signature, percentiles and
 * polling, and a server under test started alone in its child process (./ack-target.ts) with a
 * keep-alive pool to it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import type { TargetOptions } from './ack-target.js';

/** Signs a body as Slack does (v0, HMAC-SHA256 of `v0:<ts>:<body>`), as test/slack/harness.ts does. */
export function sign(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  const digest = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${digest}` };
}

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

/** A server under test in its child process, and the line protocol of bench/lib/ack-target.ts. */
export interface Target {
  kind: TargetOptions['kind'];
  /** `concurrency` keep-alive connections to it, for the whole run. */
  pool: Pool;
  cpu(): Promise<{ cpuMs: number; handled: number }>;
  /** Ends it (killed if it does not exit); resolves with the warnings and errors its log received. */
  stop(): Promise<{ problems: string[]; problemCount: number }>;
}

export async function startTarget(options: TargetOptions, concurrency: number): Promise<Target> {
  const script = fileURLToPath(new URL('./ack-target.ts', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async <T>(what: string, timeoutMs = 30_000): Promise<T> => {
    // Unref'd: a timer left behind by a line that came in time must not hold the process.
    const timeout = sleep(timeoutMs, undefined, { ref: false }).then(() => 'timeout' as const);
    const line = await Promise.race([lines.next(), exited.then(() => 'exited' as const), timeout]);
    if (typeof line === 'string' || line.done) {
      throw new Error(
        `the ${options.kind} process ${line === 'timeout' ? 'did not answer' : 'exited'} (${what})`,
      );
    }
    return JSON.parse(line.value) as T;
  };
  try {
    const { port } = await nextLine<{ port?: number }>('start');
    if (!port) throw new Error(`the ${options.kind} process reported no port`);
    const pool = new Pool(`http://127.0.0.1:${port}`, {
      connections: concurrency,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    return {
      kind: options.kind,
      pool,
      cpu: () => {
        child.stdin!.write('cpu\n');
        return nextLine('cpu');
      },
      async stop() {
        await pool.close();
        child.stdin!.end();
        try {
          const report = await nextLine<{ problems: string[]; problemCount: number }>('stop', 15_000);
          await Promise.race([exited, sleep(5_000, undefined, { ref: false })]);
          return report;
        } finally {
          if (child.exitCode === null && child.signalCode === null) child.kill();
        }
      },
    };
  } catch (error) {
    child.kill();
    throw error;
  }
}
