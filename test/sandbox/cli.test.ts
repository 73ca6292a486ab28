/**
 * The CLI as `npm run sandbox` runs it (tsx on src/bin/sandbox.ts) in a child process, its one JSON
 * line read from stdout, then stopped with a signal. The child is node with tsx's loader rather
 * than `npx tsx`: npx neither forwards SIGTERM nor reports the sandbox's exit code, and would leave
 * the server running. Every child is bounded by a timeout and killed by its pid if a test fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { closePlanningPools } from '../../src/planning/index.js';
import { clientFor } from '../helpers/sandbox.js';

const ROOT = new URL('../../', import.meta.url);
const STARTUP_TIMEOUT_MS = 30_000;

interface Started {
  child: ChildProcess;
  line: { url: string; ownerToken: string; memberToken: string };
  stdout: string[];
  stderr: string[];
}

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  await closePlanningPools();
});

function run(args: string[]): {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/bin/sandbox.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => stdout.push(l));
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (l) => stderr.push(l));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout, stderr, exit };
}

async function start(args: string[] = []): Promise<Started & { exit: Promise<number | null> }> {
  const started = run(['--port', '0', ...args]);
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (started.stdout.length === 0) {
    if (started.child.exitCode !== null) throw new Error(`sandbox exited: ${started.stderr.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`no JSON line within ${STARTUP_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { ...started, line: JSON.parse(started.stdout[0] as string) };
}

async function stop(started: { child: ChildProcess; exit: Promise<number | null> }, signal: NodeJS.Signals) {
  started.child.kill(signal);
  return started.exit;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
  dirs.push(dir);
  return dir;
}

// Child processes take seconds to start on a busy machine: run them side by side, with room.
describe.concurrent('npm run sandbox', { timeout: 90_000 }, () => {
  it('prints exactly one JSON line whose tokens work, and exits cleanly on SIGTERM', async () => {
    const started = await start();
    expect(Object.keys(started.line)).toEqual(['url', 'ownerToken', 'memberToken']);
    expect(started.line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const owner = await clientFor(started.line, started.line.ownerToken).account.read();
    const member = await clientFor(started.line, started.line.memberToken).account.read();
    expect(owner.roleOrg[0]?.role).toBe('owner');
    expect(member.roleOrg[0]).toEqual({ orgId: owner.roleOrg[0]?.orgId, role: 'member' });
    expect(await stop(started, 'SIGTERM')).toBe(0);
    expect(started.stdout).toHaveLength(1);
    expect(started.stderr.join('\n')).not.toContain(started.line.ownerToken);
  });

  it('SIGINT closes it too', async () => {
    expect(await stop(await start(), 'SIGINT')).toBe(0);
  });

  it('--data keeps the state (and the tokens) across a restart', async () => {
    const file = join(tempDir(), 'state.json');
    const first = await start(['--data', file]);
    const team = await clientFor(first.line, first.line.ownerToken).teams.create({
      teamName: 'Survives restarts',
    });
    expect(await stop(first, 'SIGTERM')).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).teams[team.id].teamName).toBe('Survives restarts');

    const second = await start(['--data', file]);
    expect(second.line.ownerToken).toBe(first.line.ownerToken);
    const again = await clientFor(second.line, first.line.memberToken).teams.read(team.id);
    expect(again.teamName).toBe('Survives restarts');
    expect(await stop(second, 'SIGTERM')).toBe(0);
  });

  it('--seed demo starts with the demo organization', async () => {
    const started = await start(['--seed', 'demo']);
    const member = clientFor(started.line, started.line.memberToken);
    expect((await member.account.read()).userName).toBe('Margaret Hamilton');
    expect((await member.teams.listAll()).teams.map((t) => t.teamName)).toEqual([
      'Platform',
      'Product',
      'Mobile',
    ]);
    expect((await member.deepContext.search()).total).toBeGreaterThan(0);
    expect(await stop(started, 'SIGTERM')).toBe(0);
  });

  it('--help prints the usage and exits 0', async () => {
    const help = run(['--help']);
    expect(await help.exit).toBe(0);
    expect(help.stdout.join('\n')).toContain('--seed <name>');
  });

  it('a bad argument exits 2 with a message naming it', async () => {
    const bad = run(['--seed', 'huge']);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr.join('\n')).toContain('--seed');
    expect(bad.stdout).toEqual([]);
  });

  it('a data file that is not the sandbox state stops it with a clear message, file untouched', async () => {
    const file = join(tempDir(), 'broken.json');
    writeFileSync(file, '{"hello": "world"}');
    const broken = run(['--port', '0', '--data', file]);
    expect(await broken.exit).toBe(1);
    expect(broken.stderr.join('\n')).toContain('is not a sandbox data file');
    expect(readFileSync(file, 'utf8')).toBe('{"hello": "world"}');
  });
});
