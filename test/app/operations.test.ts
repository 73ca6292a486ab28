/**
 * What an operator sees of a running app (issue 26): /metrics (never open on the Slack port without
 * a token, low-cardinality names, a counter moving after a signed command), /readyz during a stop,
 * and the address it binds (HOST). The whole composition, as `npm start` runs it, against the fake
 * Slack and the built-in sandbox.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Running, startApp } from '../../src/app/start-app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createMetrics, observedSlackFetch, slackMethodOf } from '../../src/metrics.js';
import { type FakeSlack, startFakeSlack } from '../../src/playground/fake-slack.js';
import { commandBody, eventually, sign } from '../helpers/slack-harness.js';

const SECRET = 'operations-signing-secret';
const BOT_TOKEN = 'xoxb-operations-test';
const METRICS_TOKEN = randomBytes(24).toString('hex');
const TEAM = 'T0OPSTEAM';
const USER = 'U0OPSUSER';
const CHANNEL = 'C0OPSCHAN';

describe('operating the app: metrics, readiness, HOST', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ops-'));
  let slack: FakeSlack;
  beforeAll(async () => {
    slack = await startFakeSlack({ tokens: [BOT_TOKEN] });
  });
  afterAll(async () => {
    await slack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (extra: Record<string, string> = {}) =>
    startApp({
      NODE_ENV: 'development',
      PLANNING_API_URL: 'sandbox',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      DATA_DIR: dir,
      PORT: '0',
      LOG_LEVEL: 'error',
      ...extra,
    });

  /** `/plan <text>` as Slack sends it, signed. */
  async function command(running: Running, text: string) {
    slack.workspace.addUser({
      id: USER,
      name: 'ops',
      realName: 'Ops Person',
      displayName: '',
      isAdmin: false,
      isOwner: false,
      guest: false,
      isBot: false,
      tz: 'Europe/Paris',
    });
    slack.workspace.addChannel({ id: CHANNEL, members: [USER] });
    const body = commandBody(slack, text, { user: USER, channel: CHANNEL, team: TEAM });
    const res = await request(`http://127.0.0.1:${running.port}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...sign(body, undefined, SECRET) },
      body,
    });
    await res.body.dump();
    return res.statusCode;
  }

  async function scrape(url: string, token?: string) {
    const res = await request(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    return { status: res.statusCode, text: await res.body.text(), type: res.headers['content-type'] };
  }

  /** A sample's value in Prometheus' text format (0 when absent). */
  function sample(text: string, series: string): number {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  }

  it('/metrics on the Slack port answers 401 without METRICS_TOKEN, whatever is sent', async () => {
    const running = await start();
    try {
      const url = `http://127.0.0.1:${running.port}/metrics`;
      expect((await scrape(url)).status).toBe(401);
      expect((await scrape(url, 'anything-at-all-long-enough')).status).toBe(401);
      const refused = await scrape(url);
      expect(refused.text).not.toContain('team_planning_');
    } finally {
      await running.stop();
    }
  });

  it('/metrics on the Slack port wants the bearer token; a command moves its counters; no id, token or text in it', async () => {
    const running = await start({ METRICS_TOKEN });
    try {
      const url = `http://127.0.0.1:${running.port}/metrics`;
      expect((await scrape(url)).status).toBe(401);
      expect((await scrape(url, `${METRICS_TOKEN}x`)).status).toBe(401);
      const before = await scrape(url, METRICS_TOKEN);
      expect(before.status).toBe(200);
      expect(before.type).toContain('text/plain');
      const handled = 'team_planning_slack_requests_total{kind="command",outcome="handled"}';
      expect(sample(before.text, handled)).toBe(0);

      expect(await command(running, 'help secret-words-typed-by-someone')).toBe(200);
      let after = '';
      await eventually(async () => {
        after = (await scrape(url, METRICS_TOKEN)).text;
        return sample(after, 'team_planning_slack_listener_duration_seconds_count{kind="command"}') === 1;
      }, 'the listener to finish');
      expect(sample(after, handled)).toBe(1);
      expect(sample(after, 'team_planning_slack_ack_duration_seconds_count{kind="command"}')).toBe(1);
      // The help answer went to the response_url after the ack, counted without its address.
      expect(sample(after, 'team_planning_slack_api_calls_total{method="response_url",status="200"}')).toBe(
        1,
      );
      // Bolt's start-up check went through the counted fetch.
      expect(sample(after, 'team_planning_slack_api_calls_total{method="auth.test",status="200"}')).toBe(1);
      // Process defaults and every metric of the app, in Prometheus' naming.
      for (const name of [
        'process_cpu_seconds_total',
        'nodejs_eventloop_lag_seconds',
        'team_planning_slack_requests_total',
        'team_planning_slack_ack_duration_seconds',
        'team_planning_slack_listener_duration_seconds',
        'team_planning_planning_requests_total',
        'team_planning_planning_request_duration_seconds',
        'team_planning_slack_api_calls_total',
        'team_planning_slack_api_rate_limited_total',
        'team_planning_digests_total',
        'team_planning_watch_links_total',
        'team_planning_held_dms_waiting',
        'team_planning_store_errors_total',
        'team_planning_slack_requests_in_flight',
      ]) {
        expect(after).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
      }
      expect(sample(after, 'team_planning_held_dms_waiting')).toBe(0);
      // A DM held by quiet hours shows in the gauge; a query the store refuses in the errors.
      await running.store.notifications.enqueue({
        workspaceId: TEAM,
        slackUserId: USER,
        kind: 'assigned',
        body: '{"text":"later"}',
        deliverAt: Date.now() + 3_600_000,
      });
      await expect(sql`select * from no_such_table`.execute(running.store.db)).rejects.toThrow();
      const later = (await scrape(url, METRICS_TOKEN)).text;
      expect(sample(later, 'team_planning_held_dms_waiting')).toBe(1);
      expect(sample(later, 'team_planning_store_errors_total{kind="query"}')).toBe(1);
      expect(sample(after, 'team_planning_digests_total{outcome="posted"}')).toBe(0);
      // Low cardinality: nothing of who, where or what.
      for (const secret of [
        USER,
        TEAM,
        CHANNEL,
        BOT_TOKEN,
        METRICS_TOKEN,
        SECRET,
        'secret-words-typed-by-someone',
      ]) {
        expect(after).not.toContain(secret);
      }
    } finally {
      await running.stop();
    }
  });

  it('METRICS_PORT serves /metrics alone on its own port (with the token when one is set)', async () => {
    const open = await start({ METRICS_PORT: '0' });
    try {
      expect(open.metricsPort).toBeGreaterThan(0);
      expect(open.metricsPort).not.toBe(open.port);
      const served = await scrape(`http://127.0.0.1:${open.metricsPort}/metrics`);
      expect(served.status).toBe(200);
      expect(served.text).toContain('team_planning_slack_requests_total');
      expect((await scrape(`http://127.0.0.1:${open.metricsPort}/healthz`)).status).toBe(404);
      // Still never open on the Slack port.
      expect((await scrape(`http://127.0.0.1:${open.port}/metrics`)).status).toBe(401);
    } finally {
      await open.stop();
    }
    const guarded = await start({ METRICS_PORT: '0', METRICS_TOKEN });
    try {
      expect((await scrape(`http://127.0.0.1:${guarded.metricsPort}/metrics`)).status).toBe(401);
      expect((await scrape(`http://127.0.0.1:${guarded.metricsPort}/metrics`, METRICS_TOKEN)).status).toBe(
        200,
      );
    } finally {
      await guarded.stop();
    }
    // Its port is closed with the app.
    await expect(request(`http://127.0.0.1:${guarded.metricsPort}/metrics`)).rejects.toThrow();
  });

  it('/readyz: 200 once started, 503 from the moment a stop begins while the app still serves; /healthz stays 200', async () => {
    const running = await start({ SHUTDOWN_GRACE_MS: '120000' });
    const base = `http://127.0.0.1:${running.port}`;
    let stopped: Promise<void> | undefined;
    try {
      const ready = await request(`${base}/readyz`);
      expect(ready.statusCode).toBe(200);
      expect(await ready.body.json()).toEqual({ status: 'ready' });

      stopped = running.stop();
      const draining = await request(`${base}/readyz`);
      expect(draining.statusCode).toBe(503);
      expect(await draining.body.json()).toEqual({ status: 'draining' });
      // Liveness is not readiness: the process is well, and still takes Slack's requests.
      expect((await request(`${base}/healthz`)).statusCode).toBe(200);
      expect(await command(running, 'help')).toBe(200);
    } finally {
      // A second stop without the grace ends it at once (a test must not wait two minutes).
      await running.stop({ graceMs: 0 });
      await stopped;
    }
    await expect(request(`${base}/readyz`)).rejects.toThrow();
  });

  it('HOST binds the app (and METRICS_PORT) to one address; unset, every interface', async () => {
    const everywhere = await start();
    try {
      expect(['::', '0.0.0.0']).toContain(everywhere.address);
    } finally {
      await everywhere.stop();
    }
    const loopback = await start({ HOST: '127.0.0.1', METRICS_PORT: '0' });
    try {
      expect(loopback.address).toBe('127.0.0.1');
      expect((await request(`http://127.0.0.1:${loopback.port}/healthz`)).statusCode).toBe(200);
      // Another interface of this machine, when it has one, is refused.
      const other = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
      if (other) {
        await expect(request(`http://${other}:${loopback.port}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
        await expect(request(`http://${other}:${loopback.metricsPort}/metrics`)).rejects.toThrow(
          /ECONNREFUSED/,
        );
      }
    } finally {
      await loopback.stop();
    }
  });
});

describe('configuration of the operations variables', () => {
  const base = { SLACK_SIGNING_SECRET: 's', SLACK_BOT_TOKEN: 'xoxb-1', NODE_ENV: 'development' };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
      return [];
    } catch (error) {
      return (error as ConfigError).problems;
    }
  };

  it('takes an IP address or a host name for HOST, and names HOST otherwise', () => {
    for (const host of ['127.0.0.1', '::1', '0.0.0.0', 'localhost', 'app.internal']) {
      expect(loadConfig({ ...base, HOST: host }).HOST).toBe(host);
    }
    expect(loadConfig(base).HOST).toBeUndefined();
    expect(problems({ HOST: 'http://x' })[0]).toMatch(/^HOST /);
    expect(problems({ HOST: 'a b' })[0]).toMatch(/^HOST /);
  });

  it('refuses a short METRICS_TOKEN and a bad METRICS_PORT without echoing them', () => {
    const short = problems({ METRICS_TOKEN: 'short-token' });
    expect(short[0]).toMatch(/^METRICS_TOKEN /);
    expect(short.join()).not.toContain('short-token');
    expect(problems({ METRICS_PORT: '70000' })[0]).toMatch(/^METRICS_PORT /);
    expect(problems({ SHUTDOWN_GRACE_MS: '-1' })[0]).toMatch(/^SHUTDOWN_GRACE_MS /);
    expect(loadConfig(base).SHUTDOWN_GRACE_MS).toBe(0);
    expect(loadConfig(base).METRICS_PORT).toBeUndefined();
  });

  it('is a ConfigError', () => {
    expect(() => loadConfig({ ...base, HOST: '!' })).toThrow(ConfigError);
  });
});

describe('counting Slack calls', () => {
  it('labels a call by its Web API method, never by an address that carries ids', () => {
    expect(slackMethodOf('https://slack.com/api/chat.postMessage')).toBe('chat.postMessage');
    expect(slackMethodOf('http://127.0.0.1:4000/api/views.open')).toBe('views.open');
    expect(slackMethodOf('https://hooks.slack.com/commands/T0001/123/abcDEF')).toBe('response_url');
    expect(slackMethodOf('https://hooks.slack.com/actions/T0001/123/abcDEF')).toBe('response_url');
    expect(slackMethodOf('https://files.slack.com/upload/v1/ABC123')).toBe('upload');
    expect(slackMethodOf('https://example.com/T0001/C0002')).toBe('other');
    expect(slackMethodOf('not a url')).toBe('other');
  });

  it("counts Slack's 429s apart, and a call that got no answer as status none", async () => {
    const metrics = createMetrics();
    const answers = [
      new Response('{}', { status: 429, headers: { 'retry-after': '1' } }),
      new Response('{}'),
    ];
    const counted = observedSlackFetch(
      async () => answers.shift() ?? Promise.reject(new Error('socket hang up')),
      metrics,
    );
    const url = 'https://slack.com/api/chat.postMessage';
    expect((await counted(url, { method: 'POST' })).status).toBe(429);
    expect((await counted(url, { method: 'POST' })).status).toBe(200);
    await expect(counted(url, { method: 'POST' })).rejects.toThrow('socket hang up');
    const text = await metrics.registry.metrics();
    const sampleOf = (series: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${series} `))
          ?.split(' ')[1],
      );
    expect(sampleOf('team_planning_slack_api_calls_total{method="chat.postMessage",status="429"}')).toBe(1);
    expect(sampleOf('team_planning_slack_api_calls_total{method="chat.postMessage",status="200"}')).toBe(1);
    expect(sampleOf('team_planning_slack_api_calls_total{method="chat.postMessage",status="none"}')).toBe(1);
    expect(sampleOf('team_planning_slack_api_rate_limited_total{method="chat.postMessage"}')).toBe(1);
  });
});
