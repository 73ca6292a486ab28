/**
 * The one Slack sender (src/slack-api/sender.ts) against the fake Slack on loopback, through a real
 * WebClient as every client of the app is made: what each kind of method does when Slack fails on
 * the way — a post that landed and then failed is found, never posted twice; one that did not land
 * is reported unconfirmed; repeatable calls are sent again; a 429 is waited out on every method.
 */
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClients, SLACK_CLIENT_OPTIONS } from '../../src/clients.js';
import { HttpAttemptError } from '../../src/http/index.js';
import { withPostDeadline } from '../../src/limits.js';
import { createLogger } from '../../src/logger.js';
import { type FakeSlack, startFakeSlack } from '../../src/playground/fake-slack.js';
import { slackSender, unconfirmedCall } from '../../src/slack-api/index.js';

const TOKEN = 'xoxb-sender-test';
const SERVER_ERROR = { httpStatus: 500, body: { ok: false, error: 'internal_error' } };

let slack: FakeSlack;
let sleeps: number[];
let client: InstanceType<typeof webApi.WebClient>;

beforeEach(async () => {
  slack = await startFakeSlack({ tokens: [TOKEN] });
  slack.workspace.addChannel({ id: 'C1', members: [slack.workspace.bot.userId] });
  sleeps = [];
  const clients = createClients({
    planningUrl: 'http://127.0.0.1:9/v1',
    slackApiUrl: slack.apiUrl,
    logger: createLogger({ level: 'error', destination: { write: () => {} } }),
    slackSender: {
      backoff: {
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      },
    },
  });
  client = clients.slack(TOKEN);
});
afterEach(() => slack.close());

const inC1 = () => slack.workspace.inChannel('C1').filter((m) => m.user === slack.workspace.bot.userId);
/** A message the app posted before the test: its ts. */
const posted = (text: string) => {
  const { bot } = slack.workspace;
  return slack.workspace.post({ channel: 'C1', user: bot.userId, botId: bot.botId, text }).ts;
};

describe('a new message (chat.postMessage)', () => {
  it.each([
    ['answered 500', SERVER_ERROR],
    ['its connection reset', { reset: true } as const],
  ])('posted, then %s: found in the channel, answered with its ts, never sent again', async (_, failure) => {
    slack.failAfter('chat.postMessage', failure);
    const answer = await client.chat.postMessage({ channel: 'C1', text: 'The plan for today' });
    expect(inC1().map((m) => m.text)).toEqual(['The plan for today']);
    expect(answer.ts).toBe(inC1()[0]?.ts);
    expect(slack.called('chat.postMessage')).toHaveLength(1);
    expect(slack.called('conversations.history')).toHaveLength(1);
  });

  it('in a thread: looked for in the thread', async () => {
    const root = posted('Fix the login');
    slack.failAfter('chat.postMessage', SERVER_ERROR);
    const card = await client.chat.postMessage({ channel: 'C1', thread_ts: root, text: 'Task card' });
    const replies = slack.workspace.inChannel('C1').filter((m) => m.threadTs === root && m.ts !== root);
    expect(replies.map((m) => m.text)).toEqual(['Task card']);
    expect(card.ts).toBe(replies[0]?.ts);
    expect(slack.called('conversations.replies')).toHaveLength(1);
  });

  it('failed without landing: not found, so unconfirmed — and still not sent again', async () => {
    slack.fail('chat.postMessage', SERVER_ERROR);
    const error = await client.chat.postMessage({ channel: 'C1', text: 'Lost?' }).catch((e: unknown) => e);
    expect(unconfirmedCall(error)?.method).toBe('chat.postMessage');
    expect(inC1()).toEqual([]);
    expect(slack.called('chat.postMessage')).toHaveLength(1);
  });

  it('a Slack refusal (ok: false) is an answer: thrown as Slack said it, nothing looked for', async () => {
    const error = await client.chat.postMessage({ channel: 'C404', text: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(webApi.WebAPIPlatformError);
    expect(unconfirmedCall(error)).toBeUndefined();
    expect(slack.called('conversations.history')).toHaveLength(0);
  });
});

describe('repeatable and once methods', () => {
  it('a repeatable call (chat.update) failing on the way is sent again, with backoff', async () => {
    const ts = posted('v1');
    slack.fail('chat.update', SERVER_ERROR, 2);
    await client.chat.update({ channel: 'C1', ts, text: 'v2' });
    expect(slack.called('chat.update')).toHaveLength(3);
    expect(slack.workspace.find('C1', ts)?.text).toBe('v2');
    expect(sleeps).toHaveLength(2);
  });

  it('a once call (views.open) failing after it may have landed is unconfirmed, never sent again', async () => {
    slack.failAfter('views.open', SERVER_ERROR);
    const error = await client.views
      .open({
        trigger_id: 'anything',
        view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] },
      })
      .catch((e: unknown) => e);
    expect(unconfirmedCall(error)?.method).toBe('views.open');
    expect(slack.called('views.open')).toHaveLength(1);
  });

  it('a request that never left (no connection) is sent again whatever the method', async () => {
    let attempts = 0;
    const send = slackSender({
      attempt: async () => {
        attempts += 1;
        if (attempts === 1) throw new HttpAttemptError('network', 'connect ECONNREFUSED', true);
        return new Response(JSON.stringify({ ok: true, view: { id: 'V1' } }), {
          headers: { 'content-type': 'application/json' },
        });
      },
      backoff: { sleep: async () => {} },
    });
    const bare = new webApi.WebClient('xoxb-x', {
      slackApiUrl: 'http://slack.test/api/',
      ...SLACK_CLIENT_OPTIONS,
      fetch: send,
    });
    await bare.views.open({
      trigger_id: 't',
      view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] },
    });
    expect(attempts).toBe(2);
  });
});

describe('429', () => {
  it.each(['users.info', 'chat.postMessage', 'views.publish'])(
    '%s: Retry-After waited out, then sent again once',
    async (method) => {
      slack.rateLimit(method, 7);
      slack.workspace.addUser({ id: 'U1', name: 'ana' });
      if (method === 'users.info') await client.users.info({ user: 'U1' });
      if (method === 'chat.postMessage') await client.chat.postMessage({ channel: 'C1', text: 'hello' });
      if (method === 'views.publish')
        await client.views.publish({ user_id: 'U1', view: { type: 'home', blocks: [] } });
      expect(sleeps).toEqual([7000]);
      expect(slack.called(method).map((c) => c.status)).toEqual([429, 200]);
    },
  );

  it("a wait past the caller's posting deadline is not waited: the 429 is thrown", async () => {
    slack.rateLimit('chat.postMessage', 30);
    const error = await withPostDeadline(Date.now() + 5_000, () =>
      client.chat.postMessage({ channel: 'C1', text: 'late' }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(webApi.WebAPIRateLimitedError);
    expect(sleeps).toEqual([]);
    expect(inC1()).toEqual([]);
  });
});
