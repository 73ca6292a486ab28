import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, Harness, SIGNING_SECRET, sign, TEAM } from '../helpers/slack-harness.js';

describe('the Slack app over HTTP', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
  });
  afterEach(() => h.close());

  /** `/plan connect` from U1 in C1, with a trigger id and a response_url Slack issued. */
  const connectCommand = () => {
    h.slack.channel('C1', 'U1');
    return new URLSearchParams({
      team_id: TEAM,
      user_id: 'U1',
      channel_id: 'C1',
      command: '/plan',
      text: 'connect',
      trigger_id: h.slack.trigger('U1'),
      response_url: h.slack.responseUrl({ channel: 'C1', user: 'U1' }),
    }).toString();
  };
  const form = 'application/x-www-form-urlencoded';

  it.each([
    ['a wrong signature', (body: string) => sign(body, undefined, 'not-the-secret')],
    [
      'a stale timestamp (6 minutes old)',
      (body: string) => sign(body, Math.floor(Date.now() / 1000) - 360, SIGNING_SECRET),
    ],
    ['no signature at all', () => ({})],
  ])('refuses a request with %s (401) and does nothing', async (_what, headers) => {
    const before = h.slack.calls.length;
    const connect = connectCommand();
    const res = await h.post(connect, form, headers(connect));
    expect(res.status).toBe(401);
    // A correctly signed twin is accepted: the refusal is about the signature alone.
    expect((await h.post(connect, form)).status).toBe(200);
    await h.slack.waitFor('views.open');
    expect(h.slack.calls.slice(before).filter((c) => c.method === 'views.open')).toHaveLength(1);
  });

  it('acks a shortcut before any planning call is answered', async () => {
    await h.link();
    h.sandbox.setLatency(1_500);
    const res = await h.createTaskFrom({ ts: '1.1', text: 'hi' });
    expect(res.status).toBe(200);
    // The response came back while the planning service was still sleeping on its answer.
    expect(h.slack.called('views.update')).toEqual([]);
    await h.slack.waitFor('views.update');
  });

  it.each([
    [
      'a button',
      {
        type: 'block_actions',
        actions: [{ type: 'button', action_id: 'stale_button', block_id: 'b', value: 'x', action_ts: '1.1' }],
      },
      '',
    ],
    ['a global shortcut', { type: 'shortcut', callback_id: 'retired_shortcut' }, ''],
    [
      'a form',
      { type: 'view_submission', view: { id: 'V9', callback_id: 'retired_form', state: { values: {} } } },
      '',
    ],
    [
      'a select search',
      {
        type: 'block_suggestion',
        action_id: 'retired_select',
        block_id: 'b',
        value: 'x',
        view: { id: 'V9' },
      },
      '{"options":[]}',
    ],
  ])('acks %s no listener handles at once, and does nothing else', async (_what, payload, body) => {
    const before = { slack: h.slack.calls.length, service: h.sandbox.requests.entries.length };
    const res = await h.interact(payload);
    expect(res.status).toBe(200);
    expect(res.body).toBe(body);
    expect(h.slack.calls.slice(before.slack)).toEqual([]);
    expect(h.sandbox.requests.entries.slice(before.service)).toEqual([]);
  });

  it('answers /healthz to anyone with a status alone: no mode, store detail or planning service', async () => {
    // A call to the service first: before, its address and last operation were shown to anyone.
    await h.command('whoami', 'U1');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('You act as'));
    for (const authorization of [undefined, 'Bearer not-the-metrics-token-at-all']) {
      const res = await request(`${h.url}/healthz`, authorization ? { headers: { authorization } } : {});
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ status: 'ok' });
    }
  });

  it('answers /healthz with 503 when the store is unreachable', async () => {
    await h.store.close();
    const res = await request(`${h.url}/healthz`);
    expect(res.statusCode).toBe(503);
    expect(await res.body.json()).toEqual({ status: 'degraded' });
  });

  it('keeps workspaces apart: a user connected in one is not connected in another', async () => {
    // Slack, asked by the other workspace's request, says the user is one of its members.
    h.slack.users.set('U1', { id: 'U1', name: 'user-U1', teamId: 'T0OTHER' });
    await h.command('whoami', 'U1', 'C1', 'T0OTHER');
    const reply = JSON.stringify((await h.slack.waitFor('respond')).body);
    expect(reply).toContain('not connected');
    expect(h.sandbox.requests.count('accountRead')).toBe(0);
  });

  it('app_uninstalled deletes the workspace’s identities and links, and nothing of another workspace', async () => {
    await h.store.links.upsert({
      workspaceId: TEAM,
      slackChannelId: 'C1',
      teamId: 't',
      channelId: 'c',
      createdBy: 'U1',
    });
    await h.store.identities.save({
      workspaceId: 'T0OTHER',
      slackUserId: 'U1',
      serviceAccountId: 's',
      planningUserId: 'p',
      orgId: 'o',
      token: h.sandbox.memberToken,
      origin: 'brought',
    });
    const res = await h.event({ type: 'app_uninstalled' });
    expect(res.status).toBe(200);
    const retried = await h.event(
      { type: 'app_uninstalled' },
      { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    );
    expect(retried.status).toBe(200);
    await eventually(
      async () => (await h.store.identities.get(TEAM, 'U1')) === undefined,
      'the workspace deleted',
    );
    expect(await h.store.links.get(TEAM, 'C1')).toBeUndefined();
    expect(await h.store.identities.get('T0OTHER', 'U1')).toBeDefined();
  });

  it('tokens_revoked for users deletes their identities', async () => {
    await h.connect('U2', 'admin');
    await h.event({ type: 'tokens_revoked', tokens: { oauth: ['U2'] } });
    await eventually(
      async () => (await h.store.identities.get(TEAM, 'U2')) === undefined,
      'the identity deleted',
    );
    expect(await h.store.identities.get(TEAM, 'U1')).toBeDefined();
  });

  it('a stop waits for a command still at work after its ack: its reply goes out before the store closes', async () => {
    h.sandbox.inject({ operationId: 'account.read', delayMs: 300 });
    expect((await h.command('whoami')).status).toBe(200);
    await eventually(() => h.sandbox.requests.count('account.read') > 0, 'whoami at the service');
    await h.app.stop();
    expect(JSON.stringify(h.slack.called('respond'))).toContain('You act as');
    expect(h.logs.join('')).not.toContain('unexpected failure');
  });

  it('a stop gives up after its bound on work that does not end, and says so', async () => {
    h.sandbox.inject({ operationId: 'account.read', hang: true });
    expect((await h.command('whoami')).status).toBe(200);
    await eventually(() => h.sandbox.requests.count('account.read') > 0, 'whoami at the service');
    await h.app.stop({ drainMs: 50 });
    expect(h.logs.join('')).toContain('stopped with listeners still working');
  });
});

describe('/healthz details behind METRICS_TOKEN', () => {
  const METRICS_TOKEN = 'health-details-token-0123456789';
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ env: { METRICS_TOKEN } });
    await h.connect('U1', 'member');
  });
  afterEach(() => h.close());

  const health = async (token: string) => {
    const res = await request(`${h.url}/healthz`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  };

  it('shows the mode, the store and what the planning service last did, with the token only', async () => {
    const first = await health(METRICS_TOKEN);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'ok',
      store: 'ok',
      mode: { transport: 'http', install: 'single' },
    });
    expect(first.body.planning).toMatchObject({ lastCall: null });

    // After a command that calls the service, the health check shows how that call went.
    await h.command('whoami', 'U1');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('You act as'));
    const after = await health(METRICS_TOKEN);
    expect(after.body.planning).toMatchObject({
      lastCall: { operation: 'account.read', outcome: 'ok', status: 200 },
    });
    expect(JSON.stringify(after.body)).not.toContain(h.sandbox.memberToken);
    expect(JSON.stringify(after.body)).not.toContain('xoxb');
    // Anyone else, a wrong token included, still gets the status alone.
    expect((await health(`${METRICS_TOKEN}x`)).body).toEqual({ status: 'ok' });
    const open = await request(`${h.url}/healthz`);
    expect(await open.body.json()).toEqual({ status: 'ok' });
  });
});
