/**
 * A message typed to the app in its DM gets an answer: signed `message` events of channel_type `im`
 * to the Bolt app, the answer read back from the fake Slack's DM, once however often Slack delivers
 * the event — with the once keys in SQLite and in PostgreSQL. Bots, edits and deletions get none;
 * a guest gets the one sentence any request of theirs gets.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND } from '../../../src/slack/kit/ids.js';
import { describeWithPostgres } from '../../helpers/postgres.js';
import { eventually, type Harness, harnessEachTest } from '../../helpers/slack-harness.js';

const MEMBER = 'U1';
const GUEST = 'UGUEST';
const RETRY = { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' };

/** Runs the suite against a harness whose store is `backend`. */
function suite(backend: 'sqlite' | 'postgres') {
  let h: Harness;
  harnessEachTest(backend, 'app_dm', async (started) => {
    h = started;
    started.slack.users.set(MEMBER, { id: MEMBER, name: 'mia' });
  });

  /** What the app posted in `user`'s DM with it. */
  const answers = (user: string) =>
    h.slack.workspace.inChannel(`D${user}`).filter((m) => m.user === h.slack.workspace.bot.userId);
  /** How many deliveries were taken as done already (Slack's retries). */
  const retriesTaken = () => h.logs.join('').split('event already handled').length - 1;
  const answerText = (user: string) => answers(user).map((m) => JSON.stringify(m.blocks ?? m.text));

  /** `user` types `text` in their DM with the app: the message exists, then its event is sent. */
  function typed(text: string, user = MEMBER, extra: Record<string, unknown> = {}) {
    const ts = h.slack.workspace.post({ channel: `D${user}`, user, text }).ts;
    const event = {
      type: 'message',
      channel: `D${user}`,
      channel_type: 'im',
      user,
      text,
      ts,
      event_ts: ts,
      ...extra,
    };
    return { ts, event, send: (headers: Record<string, string> = {}) => h.event(event, headers) };
  }

  it('answers a message with what the app can do — once, however often Slack delivers it', async () => {
    const m = typed('hello there');
    expect((await m.send()).status).toBe(200);
    await eventually(() => answers(MEMBER).length === 1, 'the answer');
    const [answer] = answerText(MEMBER);
    expect(answer).toContain('I answer commands rather than messages');
    // The help's own list, built from the route tables: every subcommand is there.
    for (const sub of ['help', 'connect', 'tasks', 'digest', 'grade'])
      expect(answer).toContain(`${COMMAND} ${sub}`);

    // Slack retries the event (its ack was late): nothing answered twice.
    expect((await m.send(RETRY)).status).toBe(200);
    await eventually(() => retriesTaken() === 1 || answers(MEMBER).length > 1, 'the retry taken');
    expect(answers(MEMBER)).toHaveLength(1);
    // It answered in the DM; it told the service nothing and made no account.
    expect(h.slack.called('chat.postMessage').map((c) => c.body.channel)).toEqual([`D${MEMBER}`]);
    expect(h.sandbox.requests.count('serviceAccountCreate')).toBe(0);
  });

  it('a retry arriving while the first delivery is answered still makes one answer', async () => {
    const m = typed('what can you do?');
    await Promise.all([m.send(), m.send(RETRY), m.send({ ...RETRY, 'x-slack-retry-num': '2' })]);
    await eventually(() => answers(MEMBER).length >= 1, 'the answer');
    await eventually(() => retriesTaken() === 2 || answers(MEMBER).length > 1, 'both retries taken');
    expect(answers(MEMBER)).toHaveLength(1);
  });

  it('a message naming a command points to the exact /plan command', async () => {
    await typed('tasks').send();
    await eventually(() => answers(MEMBER).length === 1, 'the answer to "tasks"');
    expect(answerText(MEMBER)[0]).toContain('type it as a command');
    expect(answerText(MEMBER)[0]).toContain(
      `\`${COMMAND} tasks [mine | review | unassigned | &lt;words&gt;]\``,
    );
    expect(answerText(MEMBER)[0]).not.toContain(`${COMMAND} grade`);

    await typed(`${COMMAND} Connect`).send();
    await eventually(() => answers(MEMBER).length === 2, 'the answer to "/plan Connect"');
    expect(answerText(MEMBER)[1]).toContain(`\`${COMMAND} connect`);
    expect(answerText(MEMBER)[1]).not.toContain(`${COMMAND} tasks`);

    await typed('Digest?').send();
    await eventually(() => answers(MEMBER).length === 3, 'the answer to "Digest?"');
    expect(answerText(MEMBER)[2]).toContain(`\`${COMMAND} digest`);

    // `help` is the help itself, as `/plan help` shows it.
    await typed('help').send();
    await eventually(() => answers(MEMBER).length === 4, 'the answer to "help"');
    expect(answerText(MEMBER)[3]).toContain('what you can do');
    expect(answerText(MEMBER)[3]).toContain(`${COMMAND} grade`);
  });

  it('answers a reply in a DM thread in that thread', async () => {
    const root = h.slack.postAsBot(`D${MEMBER}`, { text: 'You were assigned a task' });
    const ts = h.slack.workspace.post({ channel: `D${MEMBER}`, user: MEMBER, text: 'ok', threadTs: root }).ts;
    await h.event({
      type: 'message',
      channel: `D${MEMBER}`,
      channel_type: 'im',
      user: MEMBER,
      text: 'ok',
      ts,
      thread_ts: root,
    });
    await eventually(
      () => answers(MEMBER).some((m) => m.threadTs === root && m.ts !== root),
      'the answer in the thread',
    );
  });

  it('answers no bot, no app, no edit, no deletion, no broadcast — only the person’s message after them', async () => {
    const bot = h.slack.workspace.bot;
    const ignored = [
      typed('a bot speaks', MEMBER, { subtype: 'bot_message', bot_id: 'BOTHER', user: undefined }),
      typed('another app', MEMBER, { bot_id: 'BOTHER', app_id: 'AOTHER' }),
      // The app's own answer, as Slack tells a subscribed app of it too.
      typed('my own answer', bot.userId, { bot_id: bot.botId, app_id: bot.appId, channel: `D${MEMBER}` }),
      typed('edited', MEMBER, {
        subtype: 'message_changed',
        message: { user: MEMBER, text: 'edited', ts: '1.1' },
      }),
      typed('deleted', MEMBER, { subtype: 'message_deleted', deleted_ts: '1.1' }),
      typed('also to the conversation', MEMBER, { subtype: 'thread_broadcast', thread_ts: '1.1' }),
    ];
    for (const m of ignored) expect((await m.send()).status).toBe(200);
    await typed('tasks').send();
    // Stopping drains the listeners still working: every delivery has been handled when it returns.
    await h.app.stop({ drainMs: 30_000 });
    // The person's own message is the one answer.
    expect(answers(MEMBER)).toHaveLength(1);
    expect(answerText(MEMBER)[0]).toContain(`${COMMAND} tasks`);
    expect(h.slack.called('chat.postMessage')).toHaveLength(1);
  });

  it('Slack refusing the answer is logged without a token, and the next message is answered', async () => {
    h.slack.fail('chat.postMessage', { ok: false, error: 'channel_not_found' });
    await typed('hello').send();
    await eventually(
      () => h.logs.join('').includes('a message typed to the app was not answered'),
      'the refusal logged',
    );
    expect(h.logs.join('')).not.toContain('xoxb-');
    expect(answers(MEMBER)).toHaveLength(0);
    await typed('tasks').send();
    await eventually(() => answers(MEMBER).length === 1, 'the next answer');
  });

  it('a guest gets the one sentence, once, and no help', async () => {
    h.slack.users.set(GUEST, { id: GUEST, name: 'gus', guest: 'multi-channel' });
    const m = typed('hello', GUEST);
    await m.send();
    await eventually(() => answers(GUEST).length === 1, 'the refusal');
    const [refusal] = answerText(GUEST);
    expect(refusal).toContain('Only full members of this workspace');
    expect(refusal).not.toContain(`${COMMAND} tasks`);
    await m.send(RETRY);
    await eventually(() => retriesTaken() === 1 || answers(GUEST).length > 1, 'the retry taken');
    expect(answers(GUEST)).toHaveLength(1);
    expect(h.logs.join('')).toContain('request refused: not a full member');
  });
}

describe('a message typed to the app in its DM (SQLite)', () => suite('sqlite'));
describeWithPostgres('a message typed to the app in its DM (PostgreSQL)', () => suite('postgres'));
