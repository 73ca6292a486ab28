/**
 * The playground's Web API, called with Slack's own WebClient as the app calls it: Slack's answers
 * for the subset the app uses, and Slack's errors — a bad token, an unknown method, a missing
 * channel, too many blocks, a spent trigger, a stale hash — never a silent success.
 */
import { WebClient } from '@slack/web-api';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIGEST_EVENT_TYPE } from '../../src/digest/index.js';
import { createPlanningClient } from '../../src/planning/index.js';
import { type Playground, startPlayground } from '../../src/playground/index.js';

let playground: Playground;
let slack: WebClient;
const logs: string[] = [];

beforeAll(async () => {
  playground = await startPlayground({
    port: 0,
    logLevel: 'info',
    logDestination: { write: (line: string) => logs.push(line) },
  });
  slack = new WebClient(playground.app.config.SLACK_BOT_TOKEN, {
    slackApiUrl: playground.app.config.SLACK_API_URL,
    retryConfig: { retries: 0 },
  });
}, 60_000);
afterAll(() => playground?.stop());

/** The Slack error code a call fails with. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return String((error as { data?: { error?: string } }).data?.error);
  }
  throw new Error('expected Slack to refuse the call');
}

describe('playground Web API', () => {
  it('checks the bot token as Slack does', async () => {
    expect(await slack.auth.test()).toMatchObject({ ok: true, team_id: 'T0PLAYGRND', user_id: 'U0BOTPLAN' });
    const stranger = new WebClient('xoxb-not-ours', {
      slackApiUrl: playground.app.config.SLACK_API_URL,
      retryConfig: { retries: 0 },
    });
    expect(await refusal(stranger.auth.test())).toBe('invalid_auth');
    const res = await request(`${playground.app.config.SLACK_API_URL}auth.test`, { method: 'POST' });
    expect(await res.body.json()).toEqual({ ok: false, error: 'not_authed' });
  });

  it('answers an unknown method with unknown_method and logs it', async () => {
    expect(await refusal(slack.apiCall('reactions.remove', { name: 'tada' }))).toBe('unknown_method');
    expect(logs.some((l) => l.includes('reactions.remove') && l.includes('does not implement'))).toBe(true);
  });

  it('adds a reaction as Slack does: once per emoji, a real name, an existing message', async () => {
    const posted = await slack.chat.postMessage({ channel: 'C0API', text: 'Recorded' });
    const ts = String(posted.ts);
    expect(await slack.reactions.add({ channel: 'C0API', timestamp: ts, name: 'memo' })).toMatchObject({
      ok: true,
    });
    expect(await refusal(slack.reactions.add({ channel: 'C0API', timestamp: ts, name: 'memo' }))).toBe(
      'already_reacted',
    );
    expect(await refusal(slack.reactions.add({ channel: 'C0API', timestamp: ts, name: ':memo:' }))).toBe(
      'invalid_name',
    );
    expect(
      await refusal(slack.reactions.add({ channel: 'C0API', timestamp: '1.000001', name: 'memo' })),
    ).toBe('message_not_found');
    const history = await slack.conversations.replies({ channel: 'C0API', ts });
    expect(history.messages?.[0]?.reactions).toEqual([{ name: 'memo', users: ['U0BOTPLAN'], count: 1 }]);
  });

  it('knows the people, the team and the channels', async () => {
    const guest = await slack.users.info({ user: 'U0GUEST' });
    expect(guest.user).toMatchObject({ is_restricted: true, is_admin: false });
    expect((await slack.users.info({ user: 'U0ADA' })).user).toMatchObject({
      is_admin: true,
      is_owner: true,
    });
    expect(await refusal(slack.users.info({ user: 'U0NOBODY' }))).toBe('user_not_found');
    expect((await slack.users.list({})).members?.length).toBe(9);
    expect((await slack.users.profile.get({ user: 'U0ALAN' })).profile?.real_name).toBe('Alan Turing');
    expect((await slack.team.info()).team?.name).toBe('Northwind Robotics');
    expect((await slack.conversations.info({ channel: 'C0API' })).channel?.name).toBe('api');
    expect((await slack.conversations.members({ channel: 'C0GENERAL' })).members).toContain('U0GUEST');
    expect((await slack.conversations.open({ users: 'U0ALAN' })).channel?.id).toBe('D0ALAN');
    expect(await refusal(slack.conversations.info({ channel: 'C0NOPE' }))).toBe('channel_not_found');
  });

  it('posts, threads, updates and deletes messages, and finds them again with their metadata', async () => {
    const parent = await slack.chat.postMessage({
      channel: 'C0MOBILE',
      text: 'parent',
      metadata: { event_type: 'test_event', event_payload: { n: 1 } },
    });
    const reply = await slack.chat.postMessage({
      channel: 'C0MOBILE',
      text: 'reply',
      thread_ts: String(parent.ts),
    });
    const thread = await slack.conversations.replies({ channel: 'C0MOBILE', ts: String(parent.ts) });
    expect(thread.messages?.map((m) => m.text)).toEqual(['parent', 'reply']);
    const history = await slack.conversations.history({
      channel: 'C0MOBILE',
      include_all_metadata: true,
      limit: 1,
    });
    expect(history.messages?.[0]).toMatchObject({
      text: 'parent',
      reply_count: 1,
      metadata: { event_type: 'test_event' },
    });
    expect(history.has_more).toBe(true);

    await slack.chat.update({ channel: 'C0MOBILE', ts: String(reply.ts), text: 'edited' });
    expect(playground.workspace.find('C0MOBILE', String(reply.ts))?.text).toBe('edited');
    const human = playground.workspace.visible('C0MOBILE', 'U0BARBARA').find((m) => m.user === 'U0BARBARA');
    expect(await refusal(slack.chat.update({ channel: 'C0MOBILE', ts: String(human?.ts), text: 'x' }))).toBe(
      'cant_update_message',
    );
    expect(await refusal(slack.chat.update({ channel: 'C0MOBILE', ts: '1.000001', text: 'x' }))).toBe(
      'message_not_found',
    );
    const link = await slack.chat.getPermalink({ channel: 'C0MOBILE', message_ts: String(parent.ts) });
    expect(link.permalink).toMatch(/\/archives\/C0MOBILE\/p\d+$/);
    await slack.chat.delete({ channel: 'C0MOBILE', ts: String(reply.ts) });
    expect(playground.workspace.find('C0MOBILE', String(reply.ts))).toBeUndefined();

    await slack.chat.postEphemeral({ channel: 'C0MOBILE', user: 'U0ALAN', text: 'just you' });
    const seen = (who: string) =>
      playground.workspace.visible('C0MOBILE', who).some((m) => m.text === 'just you');
    expect([seen('U0ALAN'), seen('U0BARBARA')]).toEqual([true, false]);
  });

  it('sets an assistant thread’s prompts, status and title, and streams a reply — refusing what Slack refuses', async () => {
    const dm = playground.workspace.imWith('U0ALAN').id;
    const root = String((await slack.chat.postMessage({ channel: dm, text: 'New assistant thread' })).ts);
    const where = { channel_id: dm, thread_ts: root };
    await slack.assistant.threads.setSuggestedPrompts({ ...where, prompts: [{ title: 'A', message: 'a?' }] });
    await slack.assistant.threads.setTitle({ ...where, title: 'Plans' });
    await slack.assistant.threads.setStatus({ ...where, status: 'is thinking…' });
    expect(playground.workspace.assistantThreads.get(`${dm}:${root}`)).toEqual({
      status: 'is thinking…',
      title: 'Plans',
      prompts: [{ title: 'A', message: 'a?' }],
    });
    // Bad input, as Slack answers it: not a DM, no such thread, five prompts.
    expect(
      await refusal(slack.assistant.threads.setStatus({ channel_id: 'C0API', thread_ts: root, status: 'x' })),
    ).toBe('channel_not_found');
    expect(
      await refusal(slack.assistant.threads.setTitle({ channel_id: dm, thread_ts: '1.000001', title: 'x' })),
    ).toBe('thread_not_found');
    const five = Array.from({ length: 5 }, (_, i) => ({ title: `${i}`, message: `${i}` }));
    expect(await refusal(slack.assistant.threads.setSuggestedPrompts({ ...where, prompts: five }))).toBe(
      'invalid_arguments',
    );

    // A streamed reply: started in the thread, grown, stopped; the status cleared by the reply.
    const started = await slack.chat.startStream({ channel: dm, thread_ts: root, markdown_text: 'Hel' });
    const ts = String(started.ts);
    await slack.chat.appendStream({ channel: dm, ts, markdown_text: 'lo' });
    await slack.chat.stopStream({ channel: dm, ts, markdown_text: '!' });
    expect(playground.workspace.find(dm, ts)).toMatchObject({ text: 'Hello!', threadTs: root });
    expect(playground.workspace.assistantThreads.get(`${dm}:${root}`)?.status).toBe('');
    // A stopped stream, or a message never streamed, takes no more.
    expect(await refusal(slack.chat.appendStream({ channel: dm, ts, markdown_text: 'x' }))).toBe(
      'message_not_in_streaming_state',
    );
    expect(await refusal(slack.chat.appendStream({ channel: dm, ts: root, markdown_text: 'x' }))).toBe(
      'message_not_in_streaming_state',
    );
    expect(await refusal(slack.chat.startStream({ channel: dm, markdown_text: 'no thread' } as never))).toBe(
      'invalid_arguments',
    );
  });

  it('refuses what Slack refuses: no text, too many blocks, a section over 3000 characters', async () => {
    expect(await refusal(slack.chat.postMessage({ channel: 'C0API' } as never))).toBe('no_text');
    const blocks = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(await refusal(slack.chat.postMessage({ channel: 'C0API', text: 'x', blocks }))).toBe(
      'invalid_blocks',
    );
    const long = [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }];
    expect(await refusal(slack.chat.postMessage({ channel: 'C0API', text: 'x', blocks: long }))).toBe(
      'invalid_blocks',
    );
  });

  it('opens modals only with a live trigger, updates them by hash, and publishes Home tabs', async () => {
    const modal = { type: 'modal' as const, title: { type: 'plain_text' as const, text: 'Hi' }, blocks: [] };
    expect(await refusal(slack.views.open({ trigger_id: 'made-up', view: modal }))).toBe(
      'invalid_trigger_id',
    );
    const home = await slack.views.publish({ user_id: 'U0KATHERINE', view: { type: 'home', blocks: [] } });
    const id = String(home.view?.id);
    const updated = await slack.views.update({
      view_id: id,
      hash: String(home.view?.hash),
      view: { type: 'home', blocks: [{ type: 'divider' }] },
    });
    expect(updated.view?.hash).not.toBe(home.view?.hash);
    expect(
      await refusal(
        slack.views.update({
          view_id: id,
          hash: String(home.view?.hash),
          view: { type: 'home', blocks: [] },
        }),
      ),
    ).toBe('hash_conflict');
    expect(await refusal(slack.views.update({ view_id: 'V0NONE', view: modal }))).toBe('not_found');
    const longTitle = { ...modal, title: { type: 'plain_text' as const, text: 'x'.repeat(25) } };
    expect(await refusal(slack.views.update({ view_id: id, view: longTitle }))).toBe('invalid_arguments');
  });

  it('uploads a file the external way and shares it in a channel', async () => {
    const { upload_url, file_id } = await slack.files.getUploadURLExternal({
      filename: 'plan.csv',
      length: 5,
    });
    expect(await refusal(slack.files.completeUploadExternal({ files: [{ id: String(file_id) }] }))).toBe(
      'file_not_found',
    );
    const put = await request(String(upload_url), { method: 'POST', body: 'a,b\n1' });
    expect(put.statusCode).toBe(200);
    await put.body.text();
    const done = await slack.files.completeUploadExternal({
      files: [{ id: String(file_id), title: 'Plan' }],
      channel_id: 'C0DISCOVERY',
      initial_comment: 'the plan',
    });
    expect(done.files?.[0]).toMatchObject({ id: file_id, title: 'Plan' });
    const shared = playground.workspace.visible('C0DISCOVERY', 'U0ADA').at(-1);
    expect(shared).toMatchObject({ text: 'the plan', files: [{ title: 'Plan' }] });
  });

  it("answers the page's bad requests with 400, never a crash", async () => {
    const post = async (path: string, body: unknown) => {
      const res = await request(`${playground.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.statusCode, body: (await res.body.json()) as { error?: string } };
    };
    const gone = await post('pg/action', { user: 'U0ADA', channel: 'C0API', ts: '1.000001', action: {} });
    expect(gone).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const notYours = await post('pg/submit', { user: 'U0ADA', viewId: 'V0NONE', values: {} });
    expect(notYours.status).toBe(400);
    expect((await post('pg/compose', { user: 'U0ADA', channel: 'C0API' })).status).toBe(400);
  });

  it('lets only a message’s author edit or delete it, and refuses an empty edit (the page’s Edit and Delete)', async () => {
    const post = async (path: string, body: unknown) => {
      const res = await request(`${playground.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.statusCode, body: (await res.body.json()) as { error?: string; detail?: string } };
    };
    const mine = playground.workspace.post({ channel: 'C0API', user: 'U0ADA', text: 'Mine & only mine' });
    const apps = await slack.chat.postMessage({ channel: 'C0API', text: 'The app’s own' });
    const at = { channel: 'C0API', ts: mine.ts };
    // Someone else, the app's message, an empty text, a message that is not there: refused, unchanged.
    expect((await post('pg/edit', { user: 'U0GRACE', ...at, text: 'hijacked' })).status).toBe(400);
    expect((await post('pg/delete', { user: 'U0GRACE', ...at })).body.detail).toContain('only its author');
    expect((await post('pg/edit', { user: 'U0ADA', channel: 'C0API', ts: apps.ts, text: 'x' })).status).toBe(
      400,
    );
    expect((await post('pg/edit', { user: 'U0ADA', ...at, text: '   ' })).status).toBe(400);
    expect((await post('pg/delete', { user: 'U0ADA', channel: 'C0API', ts: '1.000001' })).status).toBe(400);
    expect(playground.workspace.find('C0API', mine.ts)).toMatchObject({ text: 'Mine & only mine' });
    expect(playground.workspace.find('C0API', mine.ts)?.edited).toBeUndefined();
    // Its author: edited (escaped as Slack delivers it, marked edited), then deleted.
    expect((await post('pg/edit', { user: 'U0ADA', ...at, text: 'Mine & @Grace Hopper' })).status).toBe(200);
    expect(playground.workspace.find('C0API', mine.ts)).toMatchObject({
      text: 'Mine &amp; <@U0GRACE|grace>',
      edited: true,
    });
    expect((await post('pg/delete', { user: 'U0ADA', ...at })).status).toBe(200);
    expect(playground.workspace.find('C0API', mine.ts)).toBeUndefined();
  });

  it('sends a reply typed in a task card’s thread to the app as Slack does: a discovery where the link says so', async () => {
    const team = playground.workspace.team.id;
    const { store } = playground.app;
    const [link] = await store.links.listByWorkspace(team);
    await store.links.update(team, link!.slackChannelId, { threadDiscoveries: true });
    const { sandbox } = playground;
    const owner = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken, retries: 0 });
    const feature = await owner.features.create(link!.teamId, link!.channelId, { heading: 'Field notes' });
    const task = await owner.tasks.create(link!.teamId, link!.channelId, feature.id, { heading: 'Visit' });
    const card = await slack.chat.postMessage({ channel: link!.slackChannelId, text: 'Task: Visit' });
    const place = {
      orgId: sandbox.orgId,
      teamId: link!.teamId,
      channelId: link!.channelId,
      featureId: feature.id,
    };
    await store.cards.record({
      workspaceId: team,
      kind: 'task',
      entityId: task.id,
      slackChannelId: link!.slackChannelId,
      messageTs: String(card.ts),
      place,
    });
    const res = await request(`${playground.url}pg/compose`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: 'U0ADA',
        channel: link!.slackChannelId,
        text: 'Seen in the field',
        threadTs: String(card.ts),
      }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    const discoveries = async () =>
      (await owner.tasks.read(link!.teamId, link!.channelId, feature.id, task.id)).minute?.discoveries ?? [];
    const until = Date.now() + 10_000;
    while ((await discoveries()).length === 0 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20));
    expect((await discoveries()).map((d) => d.details?.split('\n')[0])).toEqual(['Seen in the field']);
  });

  it('posts no digest at its first start: each linked channel’s first digest comes at its next time', async () => {
    const links = await playground.app.store.links.listByWorkspace(playground.workspace.team.id);
    expect(links.length).toBeGreaterThan(0);
    // A minute tick now — whatever the time of day — finds none due: the channels were linked just now.
    await playground.app.jobs.pass(new Date());
    const digests = playground.workspace.messages.filter((m) => m.metadata?.event_type === DIGEST_EVENT_TYPE);
    expect(digests).toEqual([]);
    for (const link of links) expect(link.digestFrom).toBeDefined();
  });
});
