/**
 * How the process starts: the playground when no Slack variable is set at all (and NODE_ENV is not
 * production), the normal modes otherwise; and a production start without Slack variables refuses,
 * saying how to start the playground.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startMode } from '../../src/config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function start(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/bin/start.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (d: Buffer) => {
    out.stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out.stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { out, exited };
}

describe('startMode', () => {
  it('is the playground only when no SLACK_* variable has a value and NODE_ENV is not production', () => {
    expect(startMode({})).toBe('playground');
    expect(startMode({ NODE_ENV: 'development', SLACK_BOT_TOKEN: '  ' })).toBe('playground');
    expect(startMode({ NODE_ENV: 'test' })).toBe('playground');
    expect(startMode({ SLACK_BOT_TOKEN: 'xoxb-1' })).toBe('app');
    expect(startMode({ SLACK_SOCKET_MODE: 'true' })).toBe('app');
    expect(startMode({ SLACK_ANYTHING_NEW: 'x' })).toBe('app');
    expect(startMode({ NODE_ENV: 'production' })).toBe('app');
    expect(startMode({ NODE_ENV: ' production ' })).toBe('app');
  });
});

describe('the process', () => {
  it('starts the playground with no Slack variable: one stdout line names the local page, which answers', async () => {
    const child = start({ PORT: '0' });
    const { out, exited } = collect(child);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no ready line:\n${out.stdout}\n${out.stderr}`)),
          30_000,
        );
        child.stdout?.on('data', () => {
          const found = /Playground ready: open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out.stdout);
          if (found?.[1]) {
            clearTimeout(timer);
            resolve(found[1]);
          }
        });
        child.once('exit', () => {
          clearTimeout(timer);
          reject(new Error(`exited early:\n${out.stderr}`));
        });
      });
      const page = await request(url);
      expect(page.statusCode).toBe(200);
      expect(await page.body.text()).toContain('Slack playground');
      const state = await request(`${url}pg/state?user=U0GRACE`);
      expect(await state.body.json()).toMatchObject({ me: { realName: 'Grace Hopper', isAdmin: true } });
      expect(out.stdout.trim().split('\n')).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 40_000);

  it('refuses with NODE_ENV=production and no Slack variable, and says how to start the playground', async () => {
    const child = start({ NODE_ENV: 'production', PORT: '0' });
    const { out, exited } = collect(child);
    expect(await exited).toBe(1);
    expect(out.stderr).toContain('SLACK_SIGNING_SECRET is required');
    expect(out.stderr).toContain('npm run playground');
    expect(out.stdout).not.toContain('Playground ready');
  }, 30_000);

  it('keeps the normal modes when a Slack variable is set (no hint about the playground)', async () => {
    const child = start({ SLACK_BOT_TOKEN: 'xoxb-only', PORT: '0' });
    const { out, exited } = collect(child);
    expect(await exited).toBe(1);
    expect(out.stderr).toContain('SLACK_SIGNING_SECRET is required');
    expect(out.stderr).not.toContain('playground');
  }, 30_000);
});
