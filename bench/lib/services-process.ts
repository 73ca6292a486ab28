/**
 * Starts bench/lib/digest-services.ts in a child process of its own (its CPU and memory are not the
 * measured process's) and resolves with the JSON line it prints once it serves. Every benchmark that
 * needs the sandbox or the fake Slack starts them through here.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FakePostLimits } from '../../src/playground/fake-slack.js';
import type { DigestServices, DigestServicesRole } from './digest-services.js';

export interface ServicesSpec {
  orgs: number;
  channels: number;
  features: number;
  latencyMs: number;
  role?: DigestServicesRole;
  postLimits?: FakePostLimits;
  /** A planning channel of its own per linked channel (bench:watch; see digest-services.ts). */
  channelPerLink?: boolean;
}

export interface ServicesProcess {
  /** What the process serves: all of {@link DigestServices} for role `both`, its part otherwise. */
  ready: Partial<DigestServices>;
  /** Closes its stdin (it stops serving and exits) and waits for it to exit. */
  stop(): Promise<void>;
}

export async function startServicesProcess(spec: ServicesSpec): Promise<ServicesProcess> {
  const script = fileURLToPath(new URL('./digest-services.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(spec)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`services (${spec.role ?? 'both'}) exited early (${code})`)),
    );
  });
  return {
    ready: JSON.parse(first) as Partial<DigestServices>,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
