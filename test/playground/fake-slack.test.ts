/**
 * The fake Slack on its own, called with Slack's own WebClient as the app calls it: trigger ids
 * that open one view within their lifetime, the bot token checked, every fact users.info gives,
 * response_urls applied and recorded, and answers replaced for fault injection — Slack's error, an
 * HTTP 500, a 429 with Retry-After.
 */
import { WebClient } from '@slack/web-api';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeSlack, startFakeSlack } from '../../src/playground/fake-slack.js';
import { TRIGGER_TTL_MS } from '../../src/playground/web-api.js';
import { Workspace } from '../../src/playground/workspace.js';

const TOKEN = 'xoxb-fake-slack-test';
const modal = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 'Hi' }, blocks: [] };

let clock: number;
let slack: FakeSlack;
let web: WebClient;

beforeEach(async () => {
  clock = Date.parse('2026-03-10T09:00:00Z');
  slack = await startFakeSlack({
    workspace: new Workspace({ team: { id: 'T0FAKE', name: 'Fake', domain: 'fake' }, now: () => clock }),
    tokens: [TOKEN],
  });
  slack.workspace.addUser({ id: 'U1', name: 'ana', realName: 'Ana Lima' });
  web = new WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});
afterEach(() => slack.close());

/** The Slack error code a call fails with. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return String(
      (error as { data?: { error?: string }; code?: string }).data?.error ?? (error as Error).message,
    );
  }
  throw new Error('expected Slack to refuse the call');
}

describe('trigger ids', () => {
  it("live Slack's 3 s unless told otherwise (a test on a busy machine may give them longer)", () => {
    expect(TRIGGER_TTL_MS).toBe(3_000);
    expect(new FakeSlack().triggerTtlMs).toBe(3_000);
    expect(new FakeSlack({ triggerTtlMs: 60_000 }).triggerTtlMs).toBe(60_000);
  });

  it('open one view for the person they were given to; a spent one is refused', async () => {
    const trigger = slack.trigger('U1');
    const opened = await web.views.open({ trigger_id: trigger, view: modal });
    expect(slack.workspace.views.get(String(opened.view?.id))?.user).toBe('U1');
    expect(await refusal(web.views.open({ trigger_id: trigger, view: modal }))).toBe('exchanged_trigger_id');
    expect(await refusal(web.views.open({ trigger_id: 'made-up', view: modal }))).toBe('invalid_trigger_id');
  });

  it('expire after their lifetime', async () => {
    const trigger = slack.trigger('U1');
    clock += slack.triggerTtlMs + 1;
    expect(await refusal(web.views.open({ trigger_id: trigger, view: modal }))).toBe('expired_trigger_id');
    // A fresh one, used within its lifetime, works.
    const fresh = slack.trigger('U1');
    clock += slack.triggerTtlMs;
    expect((await web.views.open({ trigger_id: fresh, view: modal })).ok).toBe(true);
  });
});

describe('the Web API', () => {
  it('checks the token as Slack does, and records every call with its token', async () => {
    expect(await web.auth.test()).toMatchObject({ ok: true, team_id: 'T0FAKE' });
    const stranger = new WebClient('xoxb-not-ours', {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    expect(await refusal(stranger.auth.test())).toBe('invalid_auth');
    const res = await request(`${slack.apiUrl}auth.test`, { method: 'POST' });
    expect(await res.body.json()).toEqual({ ok: false, error: 'not_authed' });
    expect(slack.called('auth.test').map((c) => [c.token, c.answer?.ok])).toEqual([
      [TOKEN, true],
      ['xoxb-not-ours', false],
      [undefined, false],
    ]);
    slack.acceptToken('xoxb-not-ours');
    expect((await stranger.auth.test()).ok).toBe(true);
  });

  it("gives every fact users.info has about a person, in Slack's shape", async () => {
    const ws = slack.workspace;
    ws.addUser({ id: 'UADM', name: 'root', isAdmin: true, tz: 'America/New_York', displayName: 'Root' });
    ws.addUser({ id: 'UOWN', name: 'own', isOwner: true });
    ws.addUser({ id: 'UMCG', name: 'multi', guest: 'multi-channel' });
    ws.addUser({ id: 'USCG', name: 'single', guest: 'single-channel' });
    ws.addUser({ id: 'UEXT', name: 'ext', teamId: 'T0OTHER' });
    ws.addUser({ id: 'UGRID', name: 'grid', teamId: 'T0SISTER', enterpriseId: 'E0ORG' });
    ws.addUser({ id: 'USTR', name: 'stranger', stranger: true });
    ws.addUser({ id: 'UGONE', name: 'gone', deleted: true });
    ws.addUser({ id: 'UAPP', name: 'app', isBot: true });
    ws.addUser({ id: 'UPIC', name: 'pic', photo: 'http://127.0.0.1:1/photo.jpg' });
    const info = async (user: string) => (await web.users.info({ user })).user as Record<string, unknown>;

    expect(await info('U1')).toMatchObject({
      team_id: 'T0FAKE',
      name: 'ana',
      real_name: 'Ana Lima',
      deleted: false,
      is_admin: false,
      is_owner: false,
      is_restricted: false,
      is_ultra_restricted: false,
      is_bot: false,
      tz: 'UTC',
      tz_offset: 0,
      profile: { real_name: 'Ana Lima', display_name: '', first_name: 'Ana', last_name: 'Lima' },
    });
    // New York in March 2026, after the switch to daylight time: UTC−4.
    expect(await info('UADM')).toMatchObject({
      is_admin: true,
      tz: 'America/New_York',
      tz_offset: -4 * 3600,
      tz_label: 'Eastern Daylight Time',
      profile: { display_name: 'Root' },
    });
    expect(await info('UOWN')).toMatchObject({ is_owner: true, is_primary_owner: true });
    expect(await info('UMCG')).toMatchObject({ is_restricted: true, is_ultra_restricted: false });
    expect(await info('USCG')).toMatchObject({ is_restricted: true, is_ultra_restricted: true });
    expect(await info('UEXT')).toMatchObject({ team_id: 'T0OTHER' });
    expect(await info('UGRID')).toMatchObject({
      team_id: 'T0SISTER',
      enterprise_user: { enterprise_id: 'E0ORG' },
    });
    expect(await info('USTR')).toMatchObject({ is_stranger: true });
    expect(await info('UGONE')).toMatchObject({ deleted: true });
    expect(await info('UAPP')).toMatchObject({ is_bot: true });
    expect((await info('UPIC')).profile).toMatchObject({ image_original: 'http://127.0.0.1:1/photo.jpg' });
    expect(await refusal(web.users.info({ user: 'UNOBODY' }))).toBe('user_not_found');
  });

  it('posts only where a channel exists, and opens DMs', async () => {
    expect(await refusal(web.chat.postMessage({ channel: 'C404', text: 'x' }))).toBe('channel_not_found');
    slack.workspace.addChannel({ id: 'C1', members: ['U1'] });
    const posted = await web.chat.postMessage({ channel: 'C1', text: 'hello' });
    expect(slack.workspace.find('C1', String(posted.ts))?.text).toBe('hello');
    slack.workspace.imWith('U1', 'DU1');
    expect((await web.conversations.open({ users: 'U1' })).channel?.id).toBe('DU1');
  });
});

describe('replaced answers', () => {
  it("answers Slack's error, then the fake's own again", async () => {
    slack.fail('auth.test', { ok: false, error: 'account_inactive' });
    expect(await refusal(web.auth.test())).toBe('account_inactive');
    expect((await web.auth.test()).ok).toBe(true);
  });

  it('answers an HTTP 500 as many times as told', async () => {
    slack.fail('auth.test', { httpStatus: 500, body: 'oops' }, 2);
    await expect(web.auth.test()).rejects.toThrow();
    await expect(web.auth.test()).rejects.toThrow();
    expect((await web.auth.test()).ok).toBe(true);
    expect(slack.called('auth.test').map((c) => c.status)).toEqual([500, 500, 200]);
  });

  it('answers 429 with Retry-After, as Slack rate-limits', async () => {
    slack.rateLimit('auth.test', 7);
    // As the app's digest client: a 429 is surfaced, not waited out inside the WebClient.
    const surfacing = new WebClient(TOKEN, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    const error = (await surfacing.auth.test().catch((e: unknown) => e)) as {
      code?: string;
      retryAfter?: number;
    };
    expect(error).toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 7 });
    expect((await web.auth.test()).ok).toBe(true);
  });

  it('lets a responder decorate the answer and put it back', async () => {
    const own = slack.responder('auth.test');
    slack.on('auth.test', async (body, context) => ({ ...(await own(body, context)), extra: 1 }));
    expect(await web.auth.test()).toMatchObject({ ok: true, extra: 1 });
    slack.on('auth.test');
    expect(await web.auth.test()).not.toHaveProperty('extra');
  });
});

describe('response_urls', () => {
  it('are recorded as `respond` and applied as Slack applies them: ephemeral, in channel, replacing', async () => {
    slack.workspace.addChannel({ id: 'C1', members: ['U1'] });
    const post = async (url: string, body: unknown) => {
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await res.body.text();
      return res.statusCode;
    };
    const url = slack.responseUrl({ channel: 'C1', user: 'U1' });
    expect(await post(url, { text: 'just you' })).toBe(200);
    expect(await post(url, { text: 'everyone', response_type: 'in_channel' })).toBe(200);
    const seen = slack.workspace.visible('C1', 'U2').map((m) => m.text);
    expect(seen).toEqual(['everyone']);
    expect(slack.workspace.visible('C1', 'U1').map((m) => m.text)).toEqual(['just you', 'everyone']);
    expect(slack.called('respond').map((c) => c.body.text)).toEqual(['just you', 'everyone']);
    await expect(slack.waitFor('respond', (b) => b.text === 'everyone')).resolves.toMatchObject({
      status: 200,
    });

    const card = slack.workspace.post({
      channel: 'C1',
      user: 'UBOT',
      botId: slack.workspace.bot.botId,
      text: 'v1',
    });
    const source = slack.responseUrl({
      channel: 'C1',
      user: 'U1',
      source: { ts: card.ts, ephemeral: false },
    });
    expect(await post(source, { text: 'v2', replace_original: true })).toBe(200);
    expect(slack.workspace.find('C1', card.ts)?.text).toBe('v2');
    expect(await post(`${slack.url}/respond/unknown`, { text: 'x' })).toBe(404);
  });
});

describe('waiting for a call', () => {
  it('resolves with an accepted call, and names the refused ones when it gives up', async () => {
    const waiting = slack.waitFor('auth.test');
    await web.auth.test();
    expect((await waiting).answer).toMatchObject({ ok: true });

    slack.fail('team.info', { ok: false, error: 'missing_scope' });
    await refusal(web.team.info());
    await expect(slack.waitFor('team.info', undefined, { timeoutMs: 50 })).rejects.toThrow(
      /refused 1 that matched: missing_scope/,
    );
    await expect(slack.waitFor('team.info', undefined, { refused: true })).resolves.toMatchObject({
      answer: { error: 'missing_scope' },
    });
  });
});
