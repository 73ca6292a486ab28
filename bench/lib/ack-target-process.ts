/**
 * A server under test (bench/lib/ack-target.ts) in its child process, and its line protocol: the
 * port it listens on, its CPU, its memory, its stop report. Used by bench:ack and bench:idle.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import type { TargetOptions } from './ack-target.js';

export interface Target {
  kind: TargetOptions['kind'];
  /** `connections` keep-alive connections to it, for the whole run. */
  pool: Pool;
  cpu(): Promise<{ cpuMs: number; handled: number }>;
  /** Its RSS and heap in use, after a full GC when started with --expose-gc. */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  /** Ends it (killed if it does not exit); resolves with the warnings and errors its log received. */
  stop(): Promise<{ problems: string[]; problemCount: number }>;
}

export async function startTarget(
  options: TargetOptions,
  { connections, nodeArgs = [] }: { connections: number; nodeArgs?: string[] },
): Promise<Target> {
  const script = fileURLToPath(new URL('./ack-target.ts', import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', script, JSON.stringify(options)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const nextLine = async <T>(what: string, timeoutMs = 60_000): Promise<T> => {
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
    const { port } = await nextLine<{ port?: number }>('start', 120_000);
    if (!port) throw new Error(`the ${options.kind} process reported no port`);
    const pool = new Pool(`http://127.0.0.1:${port}`, {
      connections,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const ask = <T>(command: string) => {
      child.stdin!.write(`${command}\n`);
      return nextLine<T>(command);
    };
    return {
      kind: options.kind,
      pool,
      cpu: () => ask('cpu'),
      memory: () => ask('mem'),
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
