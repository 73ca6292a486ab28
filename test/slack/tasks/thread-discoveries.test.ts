/**
 * Replies in task card threads become discoveries (issue 24 item 5): signed `message` events to the
 * Bolt app, the sandbox over real sockets read back over its API, the fake Slack's reactions and
 * ephemeral messages, and the store's mapping checked after each flow.
 */

import type { ViewStateValue } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/planning/models.js';
import { ADMIN_ACTION } from '../../../src/slack/admin/ids.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { LINK_CHOICES, LINK_FIELD, LINK_VIEW } from '../../../src/slack/link/ids.js';
import { RECORDED_REACTION } from '../../../src/slack/tasks/thread-replies.js';
import { minuteNote } from '../../../src/watch/changes.js';
import { choice, eventually, Harness, TEAM } from '../../helpers/slack-harness.js';

const MEMBER = 'U1';

describe('thread replies become discoveries', () => {
  let h: Harness;
  let task: { teamId: string; channelId: string; featureId: string; taskId: string };
  let cardTs: string;

  beforeEach(async () => {
    h = await Harness.start();
    h.slack.users.set(MEMBER, { id: MEMBER, name: 'mia' });
    await h.connect(MEMBER, 'member');
    await h.link('C1', MEMBER);
    await h.store.links.update(TEAM, 'C1', { threadDiscoveries: true });
    // The task's card, as the app posted it and remembered it with its place.
    ({ task, cardTs } = await h.taskWithCard());
  });
  afterEach(() => h.close());

  const discoveries = async () =>
    (await h.owner().tasks.read(task.teamId, task.channelId, task.featureId, task.taskId)).minute
      ?.discoveries ?? [];

  /** A reply typed in Slack in the card's thread: the message exists, then its event is sent. */
  function reply(text: string, user = MEMBER, extra: Record<string, unknown> = {}) {
    h.slack.ensurePerson(user);
    h.slack.channel('C1', user);
    const ts = h.slack.workspace.post({ channel: 'C1', user, text, threadTs: cardTs }).ts;
    const event = {
      type: 'message',
      channel: 'C1',
      channel_type: 'channel',
      user,
      text,
      ts,
      thread_ts: cardTs,
      event_ts: ts,
      ...extra,
    };
    return { ts, event, send: (headers: Record<string, string> = {}) => h.event(event, headers) };
  }

  const logged = (line: string) => eventually(() => h.logs.join('').includes(line), line);
  const permalinkOf = (ts: string) => `https://slack.test/archives/C1/p${ts.replace('.', '')}`;
  const reactionsOn = (ts: string) => h.slack.message('C1', ts)?.reactions ?? [];

  it('records a reply as a discovery with its permalink, reacts, notes it for the watch — once, however often Slack sends it', async () => {
    const r = reply('The *token* expires after 5 min & the page <https://x.test|says> nothing');
    expect((await r.send()).status).toBe(200);
    await eventually(async () => (await discoveries()).length === 1, 'the discovery');
    const [d] = await discoveries();
    expect(d!.details).toBe(
      `The *token* expires after 5 min & the page says nothing\n\n${permalinkOf(r.ts)}`,
    );
    // The author's own account, not the owner's nor a provisioned one.
    expect(d!.authorUserId).toBe(h.sandbox.memberId);
    await eventually(() => reactionsOn(r.ts).length === 1, 'the reaction');
    expect(reactionsOn(r.ts)).toEqual([{ name: RECORDED_REACTION, users: ['UBOT'] }]);
    expect(await h.store.threadDiscoveries.get(TEAM, 'C1', r.ts)).toMatchObject({
      discoveryId: d!.id,
      authorSlackId: MEMBER,
      taskId: task.taskId,
      threadTs: cardTs,
    });
    expect(await h.store.slackNotes.since(TEAM, [minuteNote(d!.id)], 0)).toEqual(
      new Set([minuteNote(d!.id)]),
    );

    // Slack retries the event (another delivery, same message): nothing recorded twice.
    await r.send({ 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' });
    await logged('thread reply already handled');
    expect(await discoveries()).toHaveLength(1);
    // Nothing said in the channel for it: no message, no ephemeral.
    expect(h.slack.called('chat.postMessage')).toHaveLength(0);
    expect(h.slack.called('chat.postEphemeral')).toHaveLength(0);
  });

  it('records a reply in the thread of the message a task was made from, where Create task posted its card', async () => {
    // Create task posts the card inside the original message's thread; Slack threads do not nest.
    const { teamId, channelId, featureId } = h.fixture;
    const original = h.slack.workspace.post({ channel: 'C1', user: MEMBER, text: 'The export failed' }).ts;
    const made = await h.owner().tasks.create(teamId, channelId, featureId, { heading: 'Fix the export' });
    const inThread = h.slack.postAsBot('C1', { text: 'Task: Fix the export', threadTs: original });
    await h.store.taskOrigins.record({
      workspaceId: TEAM,
      taskId: made.id,
      teamId,
      channelId,
      featureId,
      authorSlackId: MEMBER,
      slackChannelId: 'C1',
      threadTs: original,
    });
    await h.store.cards.record({
      workspaceId: TEAM,
      kind: 'task',
      entityId: made.id,
      slackChannelId: 'C1',
      messageTs: inThread,
      place: { orgId: h.sandbox.orgId, teamId, channelId, featureId },
    });
    const ts = h.slack.workspace.post({
      channel: 'C1',
      user: MEMBER,
      text: 'It was the CSV size',
      threadTs: original,
    }).ts;
    await h.event({
      type: 'message',
      channel: 'C1',
      channel_type: 'channel',
      user: MEMBER,
      text: 'It was the CSV size',
      ts,
      thread_ts: original,
      event_ts: ts,
    });
    const found = async () =>
      (await h.owner().tasks.read(teamId, channelId, featureId, made.id)).minute?.discoveries ?? [];
    await eventually(
      async () => (await found()).length === 1,
      'the discovery on the task made from the thread',
    );
    expect((await found())[0]!.details).toContain('It was the CSV size');
    // Not on the other task, whose card is elsewhere.
    expect(await discoveries()).toHaveLength(0);
  });

  it('follows the reply’s edit and deletion; an unrecorded message’s do nothing', async () => {
    const r = reply('First thought');
    await r.send();
    await eventually(async () => (await discoveries()).length === 1, 'the discovery');
    const [d] = await discoveries();

    const edit = {
      type: 'message',
      subtype: 'message_changed',
      channel: 'C1',
      hidden: true,
      ts: '9999.1',
      event_ts: '9999.1',
      message: { type: 'message', user: MEMBER, text: 'Second thought', ts: r.ts, thread_ts: cardTs },
      previous_message: { type: 'message', user: MEMBER, text: 'First thought', ts: r.ts, thread_ts: cardTs },
    };
    await h.event(edit);
    await eventually(
      async () => (await discoveries())[0]?.details?.startsWith('Second thought') === true,
      'the edit',
    );
    expect((await discoveries())[0]).toMatchObject({
      id: d!.id,
      details: `Second thought\n\n${permalinkOf(r.ts)}`,
    });

    // Someone else's message edited or deleted in the thread: never recorded, nothing changes.
    const other = reply('Not recorded', 'U9'); // not connected: not recorded
    await other.send();
    await logged('"reason":"not connected"');
    await h.event({
      ...edit,
      message: { ...edit.message, user: 'U9', ts: other.ts, text: 'x' },
      event_ts: '9999.2',
    });
    await h.event({
      type: 'message',
      subtype: 'message_deleted',
      channel: 'C1',
      deleted_ts: other.ts,
      event_ts: '9999.3',
      hidden: true,
    });

    await h.event({
      type: 'message',
      subtype: 'message_deleted',
      channel: 'C1',
      hidden: true,
      deleted_ts: r.ts,
      event_ts: '9999.4',
      ts: '9999.4',
      previous_message: edit.message,
    });
    await eventually(async () => (await discoveries()).length === 0, 'the deletion');
    expect(await h.store.threadDiscoveries.get(TEAM, 'C1', r.ts)).toBeUndefined();
  });

  it('records nothing with the setting off, and nothing for bots, the app itself, guests or people not connected', async () => {
    await h.store.links.update(TEAM, 'C1', { threadDiscoveries: false });
    await reply('Off here').send();
    await logged('"reason":"off for this channel"');
    await h.store.links.update(TEAM, 'C1', { threadDiscoveries: true });

    // Another bot's message in the thread.
    await reply('A bot speaks', MEMBER, { bot_id: 'BOTHER', subtype: 'bot_message' }).send();
    await logged('"reason":"not a person’s reply"');
    // A guest who pasted a token of their own: still not a full member.
    h.slack.users.set('U3', { id: 'U3', name: 'gus', guest: 'multi-channel' });
    await h.connect('U3', 'member');
    await reply('Guest words', 'U3').send();
    await logged('"reason":"guest"');
    // A full member who never connected: never provisioned by a reply.
    h.slack.users.set('U4', { id: 'U4', name: 'nico' });
    await reply('Not connected', 'U4').send();
    await logged('"reason":"not connected"');
    // The app's own message in the thread (Bolt drops it, or the handler does).
    const own = h.slack.postAsBot('C1', { text: 'A confirmation', threadTs: cardTs });
    await h.event({
      type: 'message',
      channel: 'C1',
      user: 'UBOT',
      bot_id: 'BBOT',
      app_id: 'A1',
      text: 'A confirmation',
      ts: own,
      thread_ts: cardTs,
      event_ts: own,
    });
    // A member's reply after all of them is recorded, alone.
    const r = reply('Recorded');
    await r.send();
    await eventually(async () => (await discoveries()).length === 1, 'the member’s discovery');
    expect((await discoveries())[0]!.details).toContain('Recorded');
    expect(h.slack.called('chat.postMessage')).toHaveLength(0);
    expect(h.slack.called('chat.postEphemeral')).toHaveLength(0);
    expect(await h.unheldAccounts()).toEqual([]);
  });

  it('records a reply also sent to the channel (thread_broadcast), a person’s reply too', async () => {
    const r = reply('Shared with the channel', MEMBER, { subtype: 'thread_broadcast' });
    await r.send();
    await eventually(async () => (await discoveries()).length === 1, 'the discovery');
    expect((await discoveries())[0]!.details).toBe(`Shared with the channel\n\n${permalinkOf(r.ts)}`);
  });

  it('cuts a reply longer than the service allows, keeps the permalink and tells the author privately', async () => {
    const long = 'word '.repeat(200).trim();
    const r = reply(long);
    await r.send();
    await eventually(async () => (await discoveries()).length === 1, 'the discovery');
    const details = (await discoveries())[0]!.details!;
    expect(Array.from(details).length).toBeLessThanOrEqual(LIMITS.minuteText);
    expect(details.endsWith(`…\n\n${permalinkOf(r.ts)}`)).toBe(true);
    const told = await h.slack.waitFor('chat.postEphemeral');
    expect(told.body).toMatchObject({ channel: 'C1', user: MEMBER, thread_ts: cardTs });
    expect(JSON.stringify(told.body)).toContain('recorded cut');
    await eventually(() => reactionsOn(r.ts).length === 1, 'the reaction');
  });

  it('records nothing and says nothing in the channel when the task was deleted', async () => {
    await h.owner().tasks.delete(task.teamId, task.channelId, task.featureId, task.taskId);
    const r = reply('Too late');
    await r.send();
    await logged('the task is gone');
    expect(await h.store.threadDiscoveries.get(TEAM, 'C1', r.ts)).toBeUndefined();
    expect(reactionsOn(r.ts)).toEqual([]);
    expect(h.slack.called('chat.postMessage')).toHaveLength(0);
    expect(h.slack.called('chat.postEphemeral')).toHaveLength(0);
    expect(h.logs.join('')).not.toMatch(/"level":"(warn|error)"/);
  });

  it('tells the author privately in one sentence when the service is down, storing nothing', async () => {
    const r = reply('While the service is down');
    h.sandbox.inject({ operationId: 'tasks.discoveryCreate', status: 503 });
    await r.send();
    const told = await h.slack.waitFor('chat.postEphemeral');
    expect(told.body).toMatchObject({ channel: 'C1', user: MEMBER, thread_ts: cardTs });
    expect(JSON.stringify(told.body)).toContain('not recorded as a discovery');
    expect(await h.store.threadDiscoveries.get(TEAM, 'C1', r.ts)).toBeUndefined();
    expect(reactionsOn(r.ts)).toEqual([]);
    expect(h.slack.called('chat.postMessage')).toHaveLength(0);
  });
});

describe('the link’s settings: following changes, thread replies as discoveries', () => {
  const ADMIN = 'UADMIN';
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    h.slack.users.set(ADMIN, { id: ADMIN, name: 'boss', isAdmin: true });
    await h.connect(ADMIN, 'owner');
  });
  afterEach(() => h.close());

  const json = (value: unknown) => JSON.stringify(value);
  const ticked = (...values: string[]): ViewStateValue =>
    ({
      type: 'checkboxes',
      selected_options: values.map((value) => ({ value, text: { type: 'plain_text', text: value } })),
    }) as ViewStateValue;

  it('the /plan link form shows them as stored and saves what is ticked', async () => {
    await h.link('C1', ADMIN);
    await h.store.links.update(TEAM, 'C1', { threadDiscoveries: true });
    await h.command('link', ADMIN, 'C1');
    const filled = await h.slack.waitFor('views.update', (b) =>
      json(b.view).includes(`"callback_id":"${LINK_VIEW.link}"`),
    );
    const viewId = String(filled.body.view_id);
    const settings = ((
      filled.body.view as { blocks: { block_id?: string; element?: unknown }[] }
    ).blocks.find((b) => b.block_id === LINK_FIELD.linkOptions.block)?.element ?? {}) as {
      initial_options?: { value: string }[];
    };
    expect(settings.initial_options?.map((o) => o.value)).toEqual([
      LINK_CHOICES.watch,
      LINK_CHOICES.threadDiscoveries,
    ]);

    await h.submit(
      viewId,
      [
        [FIELD.team, choice(h.fixture.teamId, 'Core team')],
        [FIELD.channel, choice(h.fixture.channelId, 'General')],
        [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '09:00' } as ViewStateValue],
        [LINK_FIELD.timeZone, choice('Europe/Paris')],
        [LINK_FIELD.digestOptions, ticked('enabled')],
        [LINK_FIELD.linkOptions, ticked()],
      ],
      { user: ADMIN },
    );
    await h.slack.waitFor('views.update', (b) => json(b.view).includes('is linked to'));
    expect(await h.store.links.get(TEAM, 'C1')).toMatchObject({
      watchEnabled: false,
      threadDiscoveries: false,
    });
  });

  it('the admin links section turns each on and off, and refuses a member', async () => {
    await h.link('C1', ADMIN);
    const sectionId = await h.adminSection('links', ADMIN);
    const shown = (match: string) =>
      h.slack.waitFor('views.update', (b) => b.view_id === sectionId && json(b.view).includes(match));
    await shown('Changes made outside Slack followed; replies in card threads are not recorded.');
    const C1 = json({ id: 'C1' });

    await h.press({ view: sectionId }, ADMIN_ACTION.threadDiscoveriesOn, { value: C1, user: ADMIN });
    await shown('now become discoveries');
    expect(await h.store.links.get(TEAM, 'C1')).toMatchObject({
      watchEnabled: true,
      threadDiscoveries: true,
    });
    expect(json(h.slack.views.get(sectionId))).toContain(ADMIN_ACTION.threadDiscoveriesOff);

    await h.press({ view: sectionId }, ADMIN_ACTION.watchOff, { value: C1, user: ADMIN });
    await shown('are no longer followed');
    expect(await h.store.links.get(TEAM, 'C1')).toMatchObject({
      watchEnabled: false,
      threadDiscoveries: true,
    });

    // A member sending the admin's buttons (a crafted request): refused, nothing changes.
    h.slack.users.set('U2', { id: 'U2', name: 'member' });
    await h.connect('U2', 'member');
    const before = await h.store.links.get(TEAM, 'C1');
    await h.press({ view: sectionId }, ADMIN_ACTION.threadDiscoveriesOff, { value: C1, user: 'U2' });
    await h.press({ view: sectionId }, ADMIN_ACTION.watchOn, { value: C1, user: 'U2' });
    await eventually(
      () =>
        h.slack.called('respond').filter((c) => json(c.body).includes('Only workspace admins')).length >= 2,
      'both presses refused',
    );
    expect(await h.store.links.get(TEAM, 'C1')).toEqual(before);

    await h.press({ view: sectionId }, ADMIN_ACTION.threadDiscoveriesOff, { value: C1, user: ADMIN });
    await shown('no longer become discoveries');
    await h.press({ view: sectionId }, ADMIN_ACTION.watchOn, { value: C1, user: ADMIN });
    await shown('are followed');
    expect(await h.store.links.get(TEAM, 'C1')).toMatchObject({
      watchEnabled: true,
      threadDiscoveries: false,
    });
  });
});
