/**
 * Link previews as Work Objects (issue 25 item 2): `link_shared` and `entity_details_requested`
 * signed as Slack sends them, the sandbox read over its socket, and what Slack was asked to show —
 * with whose data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { webLink } from '../../../src/planning/web-links.js';
import { MAX_LINKS } from '../../../src/slack/unfurl/routes.js';
import { STEP_PARAM, WORKFLOW_STEP } from '../../../src/slack/workflows/ids.js';
import { eventually, Harness, TEAM } from '../../helpers/slack-harness.js';

const FEATURE_URL = 'https://plan.example.test/t/{teamId}/c/{channelId}/f/{featureId}';
const TASK_URL = 'https://plan.example.test/t/{teamId}/c/{channelId}/f/{featureId}/tasks/{taskId}';
const WEB_LINKS = { PLANNING_WEB_FEATURE_URL: FEATURE_URL, PLANNING_WEB_TASK_URL: TASK_URL };

let h: Harness;
afterEach(() => h.close());

/** A message in `channel` by `user` with `urls`, as Slack tells the app of its links. */
function linkShared(user: string, urls: readonly string[], channel = 'C1', ts = '1700000000.000100') {
  h.slack.ensurePerson(user);
  return h.event({
    type: 'link_shared',
    channel,
    user,
    message_ts: ts,
    is_bot_user_member: true,
    source: 'conversations_history',
    unfurl_id: `U${ts}`,
    links: urls.map((url) => ({ domain: new URL(url).hostname, url })),
    event_ts: ts,
  });
}

/** The flexpane opened on an unfurled entity by `user`. */
function detailsRequested(user: string, entity: Record<string, unknown>) {
  h.slack.ensurePerson(user);
  return h.event({
    type: 'entity_details_requested',
    user,
    trigger_id: `trig-${user}`,
    link: { url: entity.app_unfurl_url, domain: 'plan.example.test' },
    entity_url: entity.url,
    app_unfurl_url: entity.app_unfurl_url,
    external_ref: entity.external_ref,
    user_locale: 'en-US',
    event_ts: '1700000001.000100',
    channel: 'C1',
    message_ts: '1700000000.000100',
  });
}

const logged = (line: string) => eventually(async () => h.logs.join('').includes(line), line);

type Entity = {
  entity_type: string;
  app_unfurl_url: string;
  url: string;
  external_ref: { id: string };
  entity_payload: {
    attributes: { title: { text: string } };
    fields: {
      status?: { value: string };
      assignee?: { user: { user_id: string } };
      description?: { value: string };
    };
    custom_fields?: { key: string; value: string }[];
  };
};
const entitiesOf = (body: Record<string, unknown>) => (body.metadata as { entities: Entity[] }).entities;

async function taskLink() {
  const coords = await h.assignedTask('Write the FAQ');
  return { coords, url: webLink('task', TASK_URL, coords) };
}

describe('a pasted task or feature link', () => {
  it("unfurls a task as a Work Object read with the paster's own account: heading, state, assignee as a Slack user", async () => {
    h = await Harness.start({ env: WEB_LINKS });
    await h.connect('U1', 'member');
    const { coords, url } = await taskLink();
    const owner = h.owner();
    await owner.tasks.update(coords.teamId, coords.channelId, coords.featureId, coords.taskId, {
      state: 'in progress',
    });
    const sandboxTask = await owner.tasks.read(
      coords.teamId,
      coords.channelId,
      coords.featureId,
      coords.taskId,
    );

    await linkShared('U1', [url]);
    const call = await h.slack.waitFor('chat.unfurl');
    expect(call.body).toMatchObject({ channel: 'C1', ts: '1700000000.000100' });
    const [entity, ...others] = entitiesOf(call.body);
    expect(others).toEqual([]);
    expect(entity).toMatchObject({
      entity_type: 'slack#/entities/task',
      app_unfurl_url: url,
      entity_payload: {
        attributes: { title: { text: sandboxTask.heading } },
        // The sandbox's member is U1 here: the assignee is shown as that Slack user.
        fields: { status: { value: sandboxTask.state }, assignee: { user: { user_id: 'U1' } } },
      },
    });
    expect(sandboxTask.state).toBe('in progress');
    expect(h.sandbox.requests.count('taskRead')).toBeGreaterThan(0);
  });

  it('unfurls a feature with its stage', async () => {
    h = await Harness.start({ env: WEB_LINKS });
    await h.connect('U1', 'member');
    const { teamId, channelId, featureId } = h.fixture;
    const url = webLink('feature', FEATURE_URL, { teamId, channelId, featureId });
    // Pasted with a trailing slash: Slack gets back exactly what was pasted, the entity its own page.
    await linkShared('U1', [`${url}/`]);
    const [entity] = entitiesOf((await h.slack.waitFor('chat.unfurl')).body);
    expect(entity).toMatchObject({ app_unfurl_url: `${url}/`, url });
    expect(entity?.entity_payload.attributes.title.text).toBe(h.fixture.featureHeading);
    expect(entity?.entity_payload.fields.status?.value).toBe('Planning');
  });

  it('asks someone not connected to connect, and never shows them what a connected colleague could read', async () => {
    h = await Harness.start({ env: WEB_LINKS });
    await h.connect('U1', 'member');
    const { url } = await taskLink();
    await linkShared('U7', [url]);
    const call = await h.slack.waitFor('chat.unfurl');
    expect(call.body).toMatchObject({ user_auth_required: 'true', channel: 'C1' });
    expect(String(call.body.user_auth_url)).toMatch(/\/app_redirect\?app=A1&team=T0TEST$/);
    expect(call.body.metadata).toBeUndefined();
    expect(JSON.stringify(call.body)).not.toContain('Write the FAQ');
    expect(h.sandbox.requests.count('taskRead')).toBe(0);
  });

  it("previews nothing for a guest, and takes no member's turn: a member pasting it next gets the preview", async () => {
    h = await Harness.start({ env: WEB_LINKS, provisioning: true });
    h.slack.users.set('UGUEST', { id: 'UGUEST', name: 'gus', guest: 'multi-channel' });
    const { url } = await taskLink();
    await linkShared('UGUEST', [url]);
    await logged('link not previewed');
    expect(h.slack.called('chat.unfurl')).toEqual([]);
    expect(h.sandbox.requests.count('taskRead')).toBe(0);

    await h.connect('U1', 'member');
    await linkShared('U1', [url], 'C1', '1700000000.000900');
    const call = await h.slack.waitFor('chat.unfurl');
    expect(call.body.ts).toBe('1700000000.000900');
    expect(entitiesOf(call.body)[0]?.entity_payload.attributes.title.text).toBe('Write the FAQ');
  });

  it('unfurls a link pasted twice in a channel once; in another channel again', async () => {
    h = await Harness.start({ env: WEB_LINKS });
    await h.connect('U1', 'member');
    const { url } = await taskLink();
    await linkShared('U1', [url], 'C1', '1700000000.000100');
    await h.slack.waitFor('chat.unfurl');
    await linkShared('U1', [url], 'C1', '1700000000.000200');
    await logged('links already previewed in this channel');
    expect(h.slack.called('chat.unfurl')).toHaveLength(1);
    expect(await h.store.once.begin(`probe:${url}`, 1000)).toEqual({ state: 'new' });

    await linkShared('U1', [url], 'C2', '1700000000.000300');
    await h.slack.waitFor('chat.unfurl', (b) => b.channel === 'C2');
    expect(h.slack.called('chat.unfurl')).toHaveLength(2);
  });

  it(`previews none of the links of a message with more than ${MAX_LINKS}`, async () => {
    h = await Harness.start({ env: WEB_LINKS });
    await h.connect('U1', 'member');
    const { url } = await taskLink();
    const many = Array.from({ length: MAX_LINKS + 1 }, (_, i) => `${url}?n=${i}`);
    await linkShared('U1', [url, ...many.slice(1)]);
    await logged('too many links to preview');
    expect(h.slack.called('chat.unfurl')).toEqual([]);
  });

  it('does nothing without the link templates, and the manifest has no previews', async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
    const { coords } = await h.assignedTask('Write the FAQ').then((c) => ({ coords: c }));
    await linkShared('U1', [webLink('task', TASK_URL, coords)]);
    await logged('link previews are off');
    expect(h.slack.called('chat.unfurl')).toEqual([]);
    expect(h.sandbox.requests.count('taskRead')).toBe(0);
  });
});

describe('the flexpane of an unfurled link', () => {
  async function unfurled() {
    h = await Harness.start({ env: WEB_LINKS });
    await h.connect('U1', 'member');
    const { coords, url } = await taskLink();
    const owner = h.owner();
    await owner.tasks.update(coords.teamId, coords.channelId, coords.featureId, coords.taskId, {
      details: 'For the support team',
    });
    await linkShared('U1', [url]);
    const [entity] = entitiesOf((await h.slack.waitFor('chat.unfurl')).body);
    return entity!;
  }

  it("shows the task's details and minutes to a connected person, read with their account", async () => {
    const entity = await unfurled();
    await h.connect('U2', 'admin');
    await detailsRequested('U2', entity as unknown as Record<string, unknown>);
    const call = await h.slack.waitFor('entity.presentDetails');
    expect(call.body.trigger_id).toBe('trig-U2');
    const metadata = call.body.metadata as Entity;
    expect(metadata.external_ref.id).toBe(entity.external_ref.id);
    expect(metadata.entity_payload.fields.description?.value).toBe('For the support team');
    expect(metadata.entity_payload.custom_fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'discoveries', value: '0' }),
        expect.objectContaining({ key: 'feedback', value: '0' }),
      ]),
    );
  });

  it('asks someone not connected to connect, with no data', async () => {
    const entity = await unfurled();
    await detailsRequested('U8', entity as unknown as Record<string, unknown>);
    const call = await h.slack.waitFor('entity.presentDetails');
    expect(call.body).toMatchObject({ trigger_id: 'trig-U8', user_auth_required: 'true' });
    expect(call.body.metadata).toBeUndefined();
  });
});

describe('the flexpane, refused', () => {
  it("tells a guest it is not available to them, with none of the task's data", async () => {
    h = await Harness.start({ env: WEB_LINKS });
    await h.connect('U1', 'member');
    const { url } = await taskLink();
    await linkShared('U1', [url]);
    const [entity] = entitiesOf((await h.slack.waitFor('chat.unfurl')).body);
    h.slack.users.set('UGUEST', { id: 'UGUEST', name: 'gus', guest: 'multi-channel' });
    await detailsRequested('UGUEST', entity as unknown as Record<string, unknown>);
    const call = await h.slack.waitFor('entity.presentDetails');
    expect(call.body).toMatchObject({ trigger_id: 'trig-UGUEST', error: { status: 'custom' } });
    expect(call.body.metadata).toBeUndefined();
  });
});

describe('cards with the link templates set', () => {
  it("carry an Open link to the task's page in the web app", async () => {
    h = await Harness.start({ env: WEB_LINKS });
    await h.connect('U1', 'member');
    await h.link('C1', 'U1');
    await h.stepExecuted(
      WORKFLOW_STEP.createTask,
      {
        [STEP_PARAM.channel]: 'C1',
        [STEP_PARAM.feature]: h.fixture.featureHeading,
        [STEP_PARAM.heading]: 'Write the FAQ',
        [STEP_PARAM.actAs]: 'U1',
      },
      'FxOpen',
    );
    await h.slack.waitFor('functions.completeSuccess');
    const [task] = await h.tasksOfFeature();
    const [card] = await h.store.cards.list(TEAM, 'task', task!.id);
    const posted = h.slack.message('C1', card!.messageTs);
    const url = webLink('task', TASK_URL, { ...h.fixture, taskId: task!.id });
    expect(JSON.stringify(posted?.blocks)).toContain(`<${url}|Open in Team Planning>`);
  });
});
