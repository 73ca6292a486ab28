import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../src/app/start-app.js';
import { ConfigError } from '../src/config.js';
import { type FakeSlack, startFakeSlack } from '../src/playground/fake-slack.js';
import { HEALTH_TIMEOUT_MS } from '../src/slack/app.js';
import { describeWithPostgres, type PgSchema, TEST_DATABASE_URL, withPgSchema } from './helpers/postgres.js';
import { eventually, sign } from './helpers/slack-harness.js';
import { type SilenceableProxy, silenceableProxy } from './helpers/tcp.js';

describe('main: the whole process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'main-'));
  // Bolt checks the bot token once at start-up: Slack knows this one.
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack({ tokens: ['xoxb-main-test'] });
  });
  afterAll(async () => {
    await slack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts with the built-in sandbox, answers /healthz, and stops cleanly', async () => {
    const running = await startApp({
      NODE_ENV: 'development',
      PLANNING_API_URL: 'sandbox',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_BOT_TOKEN: 'xoxb-main-test',
      SLACK_API_URL: slack.apiUrl,
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'error',
    });
    try {
      expect(running.planningUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const res = await request(`http://127.0.0.1:${running.port}/healthz`);
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ status: 'ok' });
    } finally {
      await running.stop();
      await running.stop(); // twice is harmless (SIGTERM after SIGINT)
    }
    expect(slack.called('auth.test').map((c) => c.answer?.ok)).toEqual([true]);
    await expect(request(`http://127.0.0.1:${running.port}/healthz`)).rejects.toThrow();
  });

  it('stops start-up with a clear error, without the token, when Slack refuses the bot token', async () => {
    // A token this Slack never issued.
    const attempt = startApp({
      NODE_ENV: 'development',
      PLANNING_API_URL: 'sandbox',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_BOT_TOKEN: 'xoxb-refused-token',
      SLACK_API_URL: slack.apiUrl,
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

/** A started app process: its port, its log lines, and its exit. */
interface AppProcess {
  port: number;
  logs: Record<string, unknown>[];
  exited: Promise<number | null>;
  /** Whether the process is still running (checked without waiting). */
  alive(): boolean;
  signal(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/** Spawns `src/bin/start.ts` (what `npm start` runs) as a real process (HTTP mode, built-in sandbox, SQLite in a temp dir). */
async function spawnApp(extraEnv: Record<string, string> = {}): Promise<AppProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'main-process-'));
  // Slack's Web API for the start-up check, on loopback.
  const slack = await startFakeSlack({ tokens: ['xoxb-process-test'] });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/bin/start.ts'], {
    cwd: fileURLToPath(new URL('../', import.meta.url)),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PLANNING_API_URL: 'sandbox',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_BOT_TOKEN: 'xoxb-process-test',
      SLACK_API_URL: slack.apiUrl,
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    timeout: 120_000,
  });
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      ended = true;
      resolve(code);
    }),
  );
  const logs: Record<string, unknown>[] = [];
  const cleanup = async () => {
    child.kill();
    await slack.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        logs.push(entry);
        if (entry.msg?.startsWith('Slack app listening') && entry.port) resolve(entry.port);
      });
      exited.then((code) => reject(new Error(`exited early with ${code}`)));
    });
    return {
      port,
      logs,
      exited,
      alive: () => !ended,
      signal: (signal) => child.kill(signal),
      stop: async () => {
        await cleanup();
        await exited;
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

describe('main: the real process', () => {
  it('serves, then on SIGTERM stops cleanly and exits 0', async () => {
    const app = await spawnApp();
    try {
      expect((await request(`http://127.0.0.1:${app.port}/healthz`)).statusCode).toBe(200);
      app.signal('SIGTERM');
      expect(await app.exited).toBe(0);
      expect(app.logs.map((l) => l.msg)).toContain('shutting down');
      await expect(request(`http://127.0.0.1:${app.port}/healthz`)).rejects.toThrow();
      expect(JSON.stringify(app.logs)).not.toContain('xoxb-process-test');
    } finally {
      await app.stop();
    }
  }, 150_000);

  it('survives signed bodies that parse to null (form payload=null, JSON null) and keeps serving', async () => {
    const app = await spawnApp();
    try {
      const send = async (body: string, contentType: string) => {
        const res = await request(`http://127.0.0.1:${app.port}/slack/events`, {
          method: 'POST',
          headers: { 'content-type': contentType, ...sign(body, undefined, 'secret') },
          headersTimeout: 10_000,
          body,
        });
        await res.body.dump();
        return res.statusCode;
      };
      // One after another: each answer is awaited before the next request starts.
      expect(await send('payload=null', 'application/x-www-form-urlencoded')).toBe(400);
      expect(await send('null', 'application/json')).toBe(400);
      expect(
        await send('payload=%7B%22type%22%3A%22block_actions%22%7D', 'application/x-www-form-urlencoded'),
      ).toBe(400);
      expect((await request(`http://127.0.0.1:${app.port}/healthz`)).statusCode).toBe(200);
      expect(app.alive()).toBe(true);
    } finally {
      await app.stop();
    }
  }, 150_000);
});

describeWithPostgres('main: PostgreSQL that stops answering', () => {
  const dir = mkdtempSync(join(tmpdir(), 'main-pg-'));
  let schema: PgSchema;
  let proxy: SilenceableProxy;
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack({ tokens: ['xoxb-main-pg-test'] });
    schema = await withPgSchema('main_health');
    const target = new URL(TEST_DATABASE_URL);
    proxy = await silenceableProxy(target.hostname, Number(target.port || 5432));
  });
  afterAll(async () => {
    await slack?.close();
    await proxy?.close();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('/healthz answers 503 within its own bound, then 200 once the database answers again', async () => {
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const running = await startApp({
      NODE_ENV: 'development',
      PLANNING_API_URL: 'sandbox',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_BOT_TOKEN: 'xoxb-main-pg-test',
      SLACK_API_URL: slack.apiUrl,
      DATABASE_URL: url.toString(),
      // Far longer than /healthz's own bound (and than the request's patience below): the 503 must
      // come from that bound, not from the pool's.
      DATABASE_CONNECT_TIMEOUT_MS: String(HEALTH_TIMEOUT_MS * 30),
      DATABASE_QUERY_TIMEOUT_MS: String(HEALTH_TIMEOUT_MS * 30),
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'error',
    });
    const health = async () => {
      const res = await request(`http://127.0.0.1:${running.port}/healthz`, {
        headersTimeout: HEALTH_TIMEOUT_MS * 5,
      });
      return { status: res.statusCode, body: (await res.body.json()) as { status: string } };
    };
    try {
      expect(await health()).toMatchObject({ status: 200, body: { status: 'ok' } });
      proxy.silence();
      expect(await health()).toMatchObject({ status: 503, body: { status: 'degraded' } });
      proxy.restore();
      await eventually(async () => (await health()).status === 200, '/healthz back to 200', 20_000);
    } finally {
      proxy.restore();
      // The probe's query stuck on the silenced connection would hold the pool's shutdown.
      proxy.cut();
      await running.stop();
    }
  }, 150_000);
});
