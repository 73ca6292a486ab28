import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
