import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import nock from 'nock';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config.js';
import { startApp } from '../src/main.js';

describe('main: the whole process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'main-'));
  beforeAll(() => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1|localhost/);
    // Bolt checks the bot token once at start-up.
    nock('https://slack.test')
      .persist()
      .post('/api/auth.test')
      .reply(200, { ok: true, user_id: 'UBOT', bot_id: 'B', team_id: 'T1' });
  });
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts with the built-in sandbox, answers /healthz, and stops cleanly', async () => {
    const running = await startApp({
      NODE_ENV: 'development',
      PLANNING_API_URL: 'sandbox',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_BOT_TOKEN: 'xoxb-main-test',
      SLACK_API_URL: 'https://slack.test/api/',
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'error',
    });
    try {
      expect(running.planningUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const res = await request(`http://127.0.0.1:${running.port}/healthz`);
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toMatchObject({ status: 'ok', store: 'ok' });
    } finally {
      await running.stop();
      await running.stop(); // twice is harmless (SIGTERM after SIGINT)
    }
    await expect(request(`http://127.0.0.1:${running.port}/healthz`)).rejects.toThrow();
  });

  it('stops start-up with a clear error, without the token, when Slack refuses the bot token', async () => {
    nock('https://slack-refuses.test')
      .post('/api/auth.test')
      .reply(200, { ok: false, error: 'invalid_auth' });
    const attempt = startApp({
      NODE_ENV: 'development',
      PLANNING_API_URL: 'sandbox',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_BOT_TOKEN: 'xoxb-refused-token',
      SLACK_API_URL: 'https://slack-refuses.test/api/',
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'error',
    });
    const error = await attempt.then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/Slack refused the start-up check of the bot token.*invalid_auth/);
    expect(error?.message).not.toContain('xoxb-refused-token');
  });

  it('refuses a bad environment, naming the variable and never its value', async () => {
    const secret = `xoxb-${randomBytes(6).toString('hex')}`;
    const attempt = startApp({ SLACK_BOT_TOKEN: secret });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    const message = await attempt.catch((e: Error) => e.message);
    expect(message).toContain('SLACK_SIGNING_SECRET');
    expect(message).toContain('ENCRYPTION_KEY');
    expect(message).not.toContain(secret);
  });
});

describe('main: the real process', () => {
  it('serves, then on SIGTERM stops cleanly and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'main-process-'));
    // Slack's Web API for the start-up check, on loopback.
    const slack = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, user_id: 'UBOT', bot_id: 'B', team_id: 'T1' }));
    });
    await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: fileURLToPath(new URL('../', import.meta.url)),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        PLANNING_API_URL: 'sandbox',
        SLACK_SIGNING_SECRET: 'secret',
        SLACK_BOT_TOKEN: 'xoxb-process-test',
        SLACK_API_URL: `http://127.0.0.1:${(slack.address() as AddressInfo).port}/api/`,
        DATA_DIR: dir,
        PORT: '0',
        LOG_LEVEL: 'info',
      },
      timeout: 30_000,
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const logs: Record<string, unknown>[] = [];
    const listening = new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        logs.push(entry);
        if (entry.msg?.startsWith('Slack app listening') && entry.port) resolve(entry.port);
      });
      exited.then((code) => reject(new Error(`exited early with ${code}`)));
    });
    try {
      const port = await listening;
      expect((await request(`http://127.0.0.1:${port}/healthz`)).statusCode).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(logs.map((l) => l.msg)).toContain('shutting down');
      await expect(request(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      expect(JSON.stringify(logs)).not.toContain('xoxb-process-test');
    } finally {
      child.kill();
      slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
