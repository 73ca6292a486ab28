import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIELD, SHORTCUT, TASK_CARD_EVENT, VIEW } from '../../src/slack/ids.js';
import { external, Harness, TEAM, text, user } from './harness.js';

const message = { type: 'message', user: 'U9', ts: '1700000000.000100', text: 'Fix the &lt;b&gt;login&lt;/b&gt; &amp; signup\nIt breaks on Safari.' };

function shortcut(h: Harness, msg: Record<string, unknown> = message) {
  return h.interact({
    type: 'message_action',
    callback_id: SHORTCUT.createTask,
    channel: { id: 'C1', name: 'general' },
    message: msg,
    message_ts: msg.ts,
    action_ts: '1',
  });
}

/** Opens the create-task modal from the message and waits until it is filled. */
async function openForm(h: Harness) {
  expect((await shortcut(h)).status).toBe(200);
  const update = await h.slack.waitFor('views.update', (b) => (b.view as { callback_id?: string }).callback_id === VIEW.createTask);
  return update.body.view_id as string;
}

async function tasksOfFeature(h: Harness) {
  const { teamId, channelId, featureId } = h.fixture;
  return (await h.owner().tasks.list(teamId, channelId, featureId)).tasks;
}

describe('Create task from a message', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
    await h.store.links.upsert({
      workspaceId: TEAM,
      slackChannelId: 'C1',
      teamId: h.fixture.teamId,
      channelId: h.fixture.channelId,
      createdBy: 'U1',
    });
  });
  afterEach(() => h.close());

  it('opens a loading modal at once, fills it from the message, creates, assigns and posts the card in the thread', async () => {
    await h.connect('U2', 'admin');
    const viewId = await openForm(h);
    const open = h.slack.called('views.open')[0]!;
    expect(JSON.stringify(open.body.view)).toContain('Loading');
    const form = h.slack.views.get(viewId)!;
    const json = JSON.stringify(form);
    expect(json).toContain('"initial_value":"Fix the <b>login</b> & signup"');
    expect(json).toContain('https://slack.test/archives/C1/p1700000000000100');

    const res = await h.submit(viewId, [
      [FIELD.feature, external(h.fixture.featureId, 'Login page')],
      [FIELD.heading, text('Fix the login & signup')],
      [FIELD.details, text('It breaks on Safari.')],
      [FIELD.assignee, user('U2')],
    ]);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ response_action: 'update' });

    const card = await h.slack.waitFor('chat.postMessage');
    expect(card.body).toMatchObject({ channel: 'C1', thread_ts: message.ts });
    const tasks = await tasksOfFeature(h);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ heading: 'Fix the login & signup', assigneeUserId: h.sandbox.adminId });
    const metadata = card.body.metadata as { event_type: string; event_payload: Record<string, string> };
    expect(metadata.event_type).toBe(TASK_CARD_EVENT);
    const { teamId, channelId, featureId } = h.fixture;
    expect(metadata.event_payload).toEqual({ teamId, channelId, featureId, taskId: tasks[0]!.id });
    expect(JSON.stringify(card.body.blocks)).toContain('<@U2>');
    const read = await h.owner().tasks.read(h.fixture.teamId, h.fixture.channelId, h.fixture.featureId, tasks[0]!.id);
    expect(read.details).toBe('It breaks on Safari.');
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('created'));
  });
});
