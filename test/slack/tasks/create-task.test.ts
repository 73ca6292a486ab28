import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { TASK_CARD_EVENT, TASK_FIELD, TASK_VIEW } from '../../../src/slack/tasks/ids.js';
import {
  choice,
  eventually,
  external,
  Harness,
  submitted,
  TEAM,
  text,
  user,
} from '../../helpers/slack-harness.js';

const message = {
  type: 'message',
  user: 'U9',
  ts: '1700000000.000100',
  text: 'Fix the &lt;b&gt;login&lt;/b&gt; &amp; signup\nIt breaks on Safari.',
};

describe('Create task from a message', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
    await h.link();
  });
  afterEach(() => h.close());

  it("takes a message's heading as plain text, and a heading's own marks cannot end the card's bold (issue 23 item 7)", async () => {
    const viewId = await h.createTaskForm({ ...message, text: 'The *nightly export* failed\nSee the log.' });
    expect(JSON.stringify(h.slack.views.get(viewId))).toContain(
      '"initial_value":"The nightly export failed"',
    );

    // A heading typed with marks of its own: the card's bold holds around all of it.
    await h.submit(viewId, [
      [TASK_FIELD.feature, external(h.fixture.featureId, 'Login page')],
      [FIELD.heading, text('Fix a*b <https://evil.test|click>*')],
    ]);
    const card = await h.slack.waitFor('chat.postMessage');
    const blocks = JSON.stringify(card.body.blocks);
    expect(blocks).toContain('*Fix a∗b &lt;https://evil.test|click&gt;∗*');
    expect(blocks).not.toContain('a*b');
    // The service keeps what was typed.
    expect((await h.tasksOfFeature())[0]?.heading).toBe('Fix a*b <https://evil.test|click>*');
  });

  it('opens a loading modal at once, fills it from the message, creates, assigns and posts the card in the thread', async () => {
    await h.connect('U2', 'admin');
    const viewId = await h.createTaskForm(message);
    const open = h.slack.called('views.open')[0]!;
    expect(JSON.stringify(open.body.view)).toContain('Loading');
    const form = h.slack.views.get(viewId)!;
    const json = JSON.stringify(form);
    expect(json).toContain('"initial_value":"Fix the <b>login</b> & signup"');
    expect(json).toContain('https://slack.test/archives/C1/p1700000000000100');

    const res = await h.submit(viewId, [
      [TASK_FIELD.feature, external(h.fixture.featureId, 'Login page')],
      [FIELD.heading, text('Fix the login & signup')],
      [FIELD.details, text('It breaks on Safari.')],
      [TASK_FIELD.assignee, user('U2')],
    ]);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ response_action: 'update' });

    const card = await h.slack.waitFor('chat.postMessage');
    expect(card.body).toMatchObject({ channel: 'C1', thread_ts: message.ts });
    const tasks = await h.tasksOfFeature();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ heading: 'Fix the login & signup', assigneeUserId: h.sandbox.adminId });
    const metadata = card.body.metadata as { event_type: string; event_payload: Record<string, string> };
    expect(metadata.event_type).toBe(TASK_CARD_EVENT);
    const { teamId, channelId, featureId } = h.fixture;
    expect(metadata.event_payload).toEqual({ teamId, channelId, featureId, taskId: tasks[0]!.id });
    // Remembered, so later changes update it in place.
    const cards = await h.store.cards.list(TEAM, 'task', tasks[0]!.id);
    expect(cards.map((c) => c.slackChannelId)).toEqual(['C1']);
    expect(JSON.stringify(card.body.blocks)).toContain('<@U2>');
    const read = await h
      .owner()
      .tasks.read(h.fixture.teamId, h.fixture.channelId, h.fixture.featureId, tasks[0]!.id);
    expect(read.details).toBe('It breaks on Safari.');
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('created'));
  });

  const fill = (heading = 'A task') =>
    [
      [TASK_FIELD.feature, external(h.fixture.featureId, 'Login page')],
      [FIELD.heading, text(heading)],
    ] as Parameters<Harness['submit']>[1];

  /** The view shown after the work, i.e. the last views.update of that view. */
  async function outcome(viewId: string, what: string) {
    const call = await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes(what),
    );
    return JSON.stringify(call.body.view);
  }

  it('refuses bad input on the right field and creates nothing', async () => {
    const viewId = await h.createTaskForm(message);
    const before = h.slack.calls.length;
    const empty = await h.submit(viewId, [
      [TASK_FIELD.feature, external(h.fixture.featureId)],
      [FIELD.heading, text('   ')],
    ]);
    expect(empty.json()).toEqual({
      response_action: 'errors',
      errors: { [FIELD.heading.block]: 'A task needs a heading.' },
    });
    const long = await h.submit(viewId, fill('x'.repeat(201)));
    expect(long.json()).toMatchObject({
      response_action: 'errors',
      errors: { [FIELD.heading.block]: 'At most 200 characters.' },
    });
    const noFeature = await h.submit(viewId, [[FIELD.heading, text('ok')]]);
    expect(noFeature.json()).toMatchObject({
      response_action: 'errors',
      errors: { [TASK_FIELD.feature.block]: 'Choose a feature.' },
    });
    expect(h.sandbox.requests.count('taskCreate')).toBe(0);
    expect(h.slack.calls.length).toBe(before);
    expect(await h.tasksOfFeature()).toHaveLength(0);
  });

  it('creates one task for a retried or double submission', async () => {
    const viewId = await h.createTaskForm(message);
    // The same payload each time, as Slack resends it.
    const payload = {
      type: 'view_submission',
      view: submitted(viewId, h.slack.views.get(viewId)!, fill('Only once')),
    };
    const [first, second] = await Promise.all([h.interact(payload), h.interact(payload)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await outcome(viewId, 'created');
    const updates = h.slack.called('views.update').length;
    const retried = await h.interact(payload, 'U1', {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(retried.status).toBe(200);
    // The retry shows the stored result again instead of creating anything.
    await eventually(() => h.slack.called('views.update').length > updates, 'the stored result shown again');
    expect(JSON.stringify(h.slack.called('views.update').at(-1)?.body.view)).toContain('created');
    expect(await h.tasksOfFeature()).toHaveLength(1);
    expect(h.sandbox.requests.count('taskCreate')).toBe(1);
    expect(h.slack.called('chat.postMessage')).toHaveLength(1);
  });

  it('tells the assignee picked in the form once, by DM through the change funnel — not again for a double submission or a retry', async () => {
    await h.connect('U2', 'admin');
    const viewId = await h.createTaskForm(message);
    const payload = {
      type: 'view_submission',
      view: submitted(viewId, h.slack.views.get(viewId)!, [
        ...fill('Assigned at once'),
        [TASK_FIELD.assignee, user('U2')],
      ]),
    };
    await Promise.all([h.interact(payload), h.interact(payload)]);
    await outcome(viewId, 'created');
    await h.interact(payload, 'U1', { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' });
    await eventually(
      () => JSON.stringify(h.slack.called('views.update').at(-1)?.body.view).includes('created'),
      'the stored result shown again',
    );
    const [task] = await h.tasksOfFeature();
    expect(task).toMatchObject({ heading: 'Assigned at once', assigneeUserId: h.sandbox.adminId });
    const dms = h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'DU2');
    expect(dms).toHaveLength(1);
    expect(JSON.stringify(dms[0]!.body)).toContain('<@U1> assigned you the task *Assigned at once*');
    // With a link to the card, as the Assign button's DM has.
    expect(JSON.stringify(dms[0]!.body)).toContain('Open the card');
    // The card was posted showing the assignee: not updated again for the same change.
    expect(h.slack.called('chat.update')).toHaveLength(0);
    // Noted as made from Slack: the watch does not tell the assignment again.
    const noted = `task:${task!.id}:assignee:${h.sandbox.adminId}`;
    expect((await h.store.slackNotes.since(TEAM, [noted], 0)).size).toBe(1);
  });

  it("respects the assignee's choices: muted assignments send no DM from the form", async () => {
    await h.connect('U2', 'admin');
    await h.store.notifications.savePrefs(TEAM, 'U2', { muted: ['assigned'], timeZone: 'UTC' });
    const viewId = await h.createTaskForm(message);
    await h.submit(viewId, [...fill('Muted'), [TASK_FIELD.assignee, user('U2')]]);
    const shown = await outcome(viewId, 'created');
    expect(shown).not.toContain(':warning:');
    expect((await h.tasksOfFeature())[0]).toMatchObject({ assigneeUserId: h.sandbox.adminId });
    expect(h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'DU2')).toHaveLength(0);
  });

  it('asks a user who is not connected to connect, and creates nothing', async () => {
    await h.store.identities.delete(TEAM, 'U1');
    await h.createTaskFrom(message);
    const update = await h.slack.waitFor('views.update');
    expect(JSON.stringify(update.body.view)).toContain('connect_open');
    expect(h.sandbox.requests.count('taskCreate')).toBe(0);
  });

  it('marks a refused token invalid and asks to reconnect (401)', async () => {
    const viewId = await h.createTaskForm(message);
    h.sandbox.inject({ operationId: 'taskCreate', status: 401 });
    await h.submit(viewId, fill());
    const view = await outcome(viewId, 'Reconnect');
    expect(view).toContain('connect_open');
    expect((await h.store.identities.get(TEAM, 'U1'))?.valid).toBe(false);
    // The next attempt goes straight to Reconnect, without calling the service.
    const calls = h.sandbox.requests.count();
    await h.createTaskFrom(message);
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id !== viewId && JSON.stringify(b.view).includes('Reconnect'),
    );
    expect(h.sandbox.requests.count()).toBe(calls);
  });

  it.each([
    [403, 'your role does not allow it'],
    [503, 'not answering right now; nothing was saved'],
  ])('keeps the form with what was typed and says why on %i', async (status, why) => {
    const viewId = await h.createTaskForm(message);
    h.sandbox.inject({ operationId: 'taskCreate', status });
    await h.submit(viewId, fill('My typed heading'));
    const view = await outcome(viewId, why);
    expect(view).toContain('"initial_value":"My typed heading"');
    expect(view).toContain(`"callback_id":"${TASK_VIEW.create}"`);
    expect(await h.tasksOfFeature()).toHaveLength(0);
    expect(h.slack.called('chat.postMessage')).toHaveLength(0);
    // Fixed, it goes through from the same modal.
    await h.submit(viewId, fill('My typed heading'), { hash: `${viewId}-again` });
    await outcome(viewId, 'created');
    expect(await h.tasksOfFeature()).toHaveLength(1);
  });

  it('says the service did not answer in time on a timeout', async () => {
    const viewId = await h.createTaskForm(message);
    h.sandbox.inject({ operationId: 'taskCreate', delayMs: 2_500 });
    await h.submit(viewId, fill());
    await outcome(viewId, 'did not answer in time');
  });

  it('refuses an assignee who is not connected when nobody can provision them', async () => {
    const viewId = await h.createTaskForm(message);
    h.slack.users.set('U7', { id: 'U7', name: 'seven' });
    await h.submit(viewId, [...fill(), [TASK_FIELD.assignee, user('U7')]]);
    const view = await outcome(viewId, 'is not connected');
    expect(view).toContain('<@U7>');
    expect(h.sandbox.requests.count('taskCreate')).toBe(0);
  });

  it("lists the linked channel's features, filtered by what is typed", async () => {
    const viewId = await h.createTaskForm(message);
    await h.owner().features.create(h.fixture.teamId, h.fixture.channelId, { heading: 'Billing export' });
    const ask = (value: string) => h.suggest(viewId, TASK_FIELD.feature, value);
    const all = (await ask('')).json() as { options: { value: string; text: { text: string } }[] };
    expect(all.options.map((o) => o.text.text).sort()).toEqual(['Billing export', 'Login page']);
    const some = (await ask('LOG')).json() as { options: { value: string }[] };
    expect(some.options.map((o) => o.value)).toEqual([h.fixture.featureId]);
  });
});

describe('Create task in a channel without a link', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ provisioning: true });
  });
  afterEach(() => h.close());

  it('offers team then channel, provisions the user and the assignee, and creates the task there', async () => {
    h.slack.users.set('U1', { id: 'U1', name: 'ana', realName: 'Ana Lima' });
    h.slack.users.set('U3', { id: 'U3', name: 'bo', realName: 'Bo <Script>' });
    const since = h.slack.calls.length;
    const viewId = await h.createTaskForm(message);
    const filled = await h.slack.waitFor('views.update', (b) => b.view_id === viewId, { since });
    const provisioned = await h.store.identities.get(TEAM, 'U1');
    expect(provisioned).toMatchObject({ origin: 'provisioned', orgId: h.sandbox.orgId });
    expect(JSON.stringify(filled.body.view)).toContain('Core team');

    // Picking the team refreshes the channel select.
    await h.choose({ view: viewId }, FIELD.team, choice(h.fixture.teamId, 'Core team'));
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes(`channel|${h.fixture.teamId}`),
    );

    await h.submit(viewId, [
      [
        FIELD.team,
        {
          type: 'static_select',
          selected_option: { value: h.fixture.teamId, text: { type: 'plain_text', text: 'Core team' } },
        },
      ],
      [
        FIELD.channel,
        {
          type: 'static_select',
          selected_option: { value: h.fixture.channelId, text: { type: 'plain_text', text: 'General' } },
        },
      ],
      [TASK_FIELD.feature, external(h.fixture.featureId, 'Login page')],
      [FIELD.heading, text('Provisioned task')],
      [TASK_FIELD.assignee, user('U3')],
    ]);
    await h.slack.waitFor('chat.postMessage');
    const assignee = await h.store.identities.get(TEAM, 'U3');
    expect(assignee?.origin).toBe('provisioned');
    const accounts = (await h.owner().serviceAccounts.list()).serviceAccounts;
    expect(accounts.find((a) => a.id === assignee?.serviceAccountId)?.userName).toBe('Bo Script');
    const { teamId, channelId, featureId } = h.fixture;
    const tasks = (await h.owner().tasks.list(teamId, channelId, featureId)).tasks;
    expect(tasks).toMatchObject([{ heading: 'Provisioned task', assigneeUserId: assignee?.planningUserId }]);
  });
});
