/**
 * A press names its entity and where it lives (team, channel, feature); the app recorded where each
 * card's entity lives when it posted the card. A press whose place is not the recorded one — a real
 * task or feature id with another team's id — is refused privately: nothing changes in the service,
 * and no card is retired while its entity exists. A card is retired only when its entity is gone
 * where the app recorded it, read by someone of the card's organization. Over signed HTTP against
 * the sandbox; the service's state and the fake Slack's messages are checked, not only the replies.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FEATURE_ACTION,
  FEATURE_CARD_EVENT,
  FEATURE_FIELD,
  FEATURE_VIEW,
} from '../../../src/slack/features/ids.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { TASK_ACTION, TASK_FIELD, TASK_SHORTCUT, TASK_VIEW } from '../../../src/slack/tasks/ids.js';
import { choice, eventually, external, Harness, TEAM, text } from '../../helpers/slack-harness.js';

const ORIGIN = { channel: 'C1', ts: '1700000000.000100' };
const json = (v: unknown) => JSON.stringify(v);
const mark = () => h.slack.calls.length;
const saidSince = (since: number, what: string) =>
  h.slack.waitFor('respond', (b) => json(b).includes(what), { since });

let h: Harness;
/** Another planning team of the same organization: a real team id, but not the task's. */
let otherTeamId: string;

beforeEach(async () => {
  h = await Harness.start();
  await h.connect('U1', 'member');
  await h.connect('U2', 'admin');
  await h.link();
  otherTeamId = (await h.owner().teams.create({ teamName: 'Other team' })).id;
});
afterEach(() => h.close());

/** A task created from a message by U1 (the real form): its coordinates and its card's ts. */
async function createTask(heading = 'Fix the login') {
  const since = mark();
  await h.interact({
    type: 'message_action',
    callback_id: TASK_SHORTCUT.createTask,
    channel: { id: ORIGIN.channel, name: 'general' },
    message: { type: 'message', user: 'U9', ts: ORIGIN.ts, text: heading },
    message_ts: ORIGIN.ts,
    action_ts: '1',
  });
  const form = await h.slack.waitFor(
    'views.update',
    (b) => (b.view as { callback_id?: string }).callback_id === TASK_VIEW.create,
    { since },
  );
  await h.submit(String(form.body.view_id), [
    [TASK_FIELD.feature, external(h.fixture.featureId, h.fixture.featureHeading)],
    [FIELD.heading, text(heading)],
  ]);
  const { teamId, channelId, featureId } = h.fixture;
  let taskId = '';
  await eventually(async () => {
    taskId = (await h.tasksOfFeature()).find((t) => t.heading === heading)?.id ?? '';
    return taskId !== '' && (await h.store.cards.list(TEAM, 'task', taskId)).length === 1;
  }, 'the task and its card');
  const [card] = await h.store.cards.list(TEAM, 'task', taskId);
  return { coords: { teamId, channelId, featureId, taskId }, cardTs: card!.messageTs };
}

/** `/plan feature new` in C1, submitted: the feature's id and its card's ts. */
async function createFeature(heading = 'Passkeys') {
  const since = mark();
  await h.command('feature new');
  const form = await h.slack.waitFor(
    'views.update',
    (b) => (b.view as { callback_id?: string }).callback_id === FEATURE_VIEW.feature,
    { since },
  );
  await h.submit(String(form.body.view_id), [
    [FIELD.team, choice(h.fixture.teamId)],
    [FIELD.channel, choice(h.fixture.channelId)],
    [FIELD.heading, text(heading)],
    [FEATURE_FIELD.priority, choice('5')],
  ]);
  const posted = await h.slack.waitFor(
    'chat.postMessage',
    (b) => (b.metadata as { event_type?: string } | undefined)?.event_type === FEATURE_CARD_EVENT,
    { since },
  );
  const featureId = (posted.body.metadata as { event_payload: { featureId: string } }).event_payload
    .featureId;
  let ts = '';
  await eventually(async () => {
    ts = (await h.store.cards.list(TEAM, 'feature', featureId))[0]?.messageTs ?? '';
    return ts !== '';
  }, 'the feature card remembered');
  return { featureId, ts };
}

/** Presses a button with `value` on the message `ts` in C1 (a card, or a digest) as `user`. */
function press(ts: string, actionId: string, value: string, user = 'U1', ephemeral = false) {
  return h.interact(
    {
      type: 'block_actions',
      container: { type: 'message', message_ts: ts, channel_id: 'C1', is_ephemeral: ephemeral },
      channel: { id: 'C1', name: 'general' },
      message: { ts, type: 'message' },
      actions: [{ type: 'button', action_id: actionId, block_id: 'b', value, action_ts: '1' }],
    },
    user,
  );
}

/** What Slack shows at `ts` in C1 now. */
const shown = (ts: string) => json(h.slack.message('C1', ts));

describe('a task press whose place is not the one recorded for its card', () => {
  it('is refused privately: the task does not move, its card is not retired and stays remembered', async () => {
    const { coords, cardTs } = await createTask();
    const wrong = { ...coords, teamId: otherTeamId };
    const since = mark();
    await press(cardTs, TASK_ACTION.stateForward, json({ ...wrong, s: 'idle', a: '', to: 'in progress' }));
    const told = await saidSince(since, 'nothing was changed');
    expect(json(told.body)).not.toContain('deleted');
    await h.pressesSettled();
    // The service: the task is there, as it was.
    const task = await h.owner().tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
    expect(task.state).toBe('idle');
    expect(h.sandbox.requests.count('taskUpdate')).toBe(0);
    // Slack: the card still shows the task with its buttons; the app still knows it.
    expect(shown(cardTs)).toContain('Fix the login');
    expect(shown(cardTs)).not.toContain('was deleted');
    expect(h.slack.called('chat.update').filter((c) => c.body.ts === cardTs)).toEqual([]);
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toHaveLength(1);

    // A press from a list (not a card) with the same wrong place: refused the same way.
    const fromList = mark();
    await press(
      '1700000099.000100',
      TASK_ACTION.delete,
      json({ ...wrong, s: 'idle', a: '', l: 1 }),
      'U1',
      true,
    );
    await saidSince(fromList, 'nothing was changed');
    await h.pressesSettled();
    expect((await h.tasksOfFeature()).map((t) => t.id)).toContain(coords.taskId);
    expect(shown(cardTs)).not.toContain('was deleted');
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toHaveLength(1);

    // The card's own button, with the recorded place, still works.
    await press(cardTs, TASK_ACTION.stateForward, json({ ...coords, s: 'idle', a: '', to: 'in progress' }));
    await eventually(
      async () =>
        (await h.owner().tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId))
          .state === 'in progress',
      'the task started',
    );
  });

  it('a press naming another task than the card it is on is refused, and neither card is retired', async () => {
    const first = await createTask('First');
    const second = await createTask('Second');
    const since = mark();
    // The second task's Delete, carried by the first task's card.
    await press(first.cardTs, TASK_ACTION.delete, json({ ...second.coords, s: 'idle', a: '' }));
    await saidSince(since, 'nothing was changed');
    await h.pressesSettled();
    expect((await h.tasksOfFeature()).map((t) => t.heading).sort()).toEqual(['First', 'Second']);
    expect(shown(first.cardTs)).toContain('First');
    expect(shown(second.cardTs)).toContain('Second');
    expect(await h.store.cards.list(TEAM, 'task', second.coords.taskId)).toHaveLength(1);
  });

  it('a task deleted where its card says it lives still retires the card', async () => {
    const { coords, cardTs } = await createTask();
    await h.owner().tasks.delete(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
    const since = mark();
    await press(cardTs, TASK_ACTION.stateForward, json({ ...coords, s: 'idle', a: '', to: 'in progress' }));
    await saidSince(since, 'it was deleted');
    await h.pressesSettled();
    expect(shown(cardTs)).toContain('This task was deleted');
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toEqual([]);
  });
});

describe('a feature press whose place is not the one recorded for its card', () => {
  it('Advance and Delete with another team id: refused, the feature unchanged, its card kept', async () => {
    const { featureId, ts } = await createFeature();
    const { channelId } = h.fixture;
    const wrong = json({ teamId: otherTeamId, channelId, featureId, stage: 'planning' });
    for (const action of [FEATURE_ACTION.advance, FEATURE_ACTION.delete]) {
      const since = mark();
      await press(ts, action, wrong, 'U2');
      const told = await saidSince(since, 'nothing was changed');
      expect(json(told.body)).not.toContain('deleted');
      await h.pressesSettled();
    }
    const feature = await h.owner().features.read(h.fixture.teamId, channelId, featureId);
    expect(feature.stage).toBe('planning');
    expect(shown(ts)).toContain('Passkeys');
    expect(shown(ts)).not.toContain('was deleted');
    expect(await h.store.cards.list(TEAM, 'feature', featureId)).toHaveLength(1);
  });

  it("the digest's Advance with another team id: the same refusal, the feature's card kept", async () => {
    const { featureId, ts } = await createFeature();
    const digestTs = h.slack.postAsBot('C1', { text: 'Digest', blocks: [] });
    const since = mark();
    await press(
      digestTs,
      'digest_feature_advance',
      json({ teamId: otherTeamId, channelId: h.fixture.channelId, featureId, stage: 'planning' }),
      'U2',
    );
    await saidSince(since, 'nothing was changed');
    await h.pressesSettled();
    expect((await h.owner().features.read(h.fixture.teamId, h.fixture.channelId, featureId)).id).toBe(
      featureId,
    );
    expect(shown(ts)).not.toContain('was deleted');
    expect(await h.store.cards.list(TEAM, 'feature', featureId)).toHaveLength(1);
  });
});

describe('a press by someone acting in another planning organization', () => {
  it("is refused as such: the card's task is not called deleted, nor its card retired", async () => {
    const { coords, cardTs } = await createTask();
    // U5 connected a token of another organization (as `/plan connect` allows).
    const other = await h.sandbox.createOrganization('Elsewhere');
    h.slack.ensurePerson('U5');
    await h.store.identities.save({
      workspaceId: TEAM,
      slackUserId: 'U5',
      serviceAccountId: other.memberId,
      planningUserId: other.memberId,
      orgId: other.orgId,
      token: other.memberToken,
      origin: 'brought',
    });
    const since = mark();
    await press(cardTs, TASK_ACTION.delete, json({ ...coords, s: 'idle', a: '' }), 'U5');
    const told = await saidSince(since, 'another planning organization');
    expect(json(told.body)).not.toContain('deleted');
    await h.pressesSettled();
    expect((await h.tasksOfFeature()).map((t) => t.id)).toContain(coords.taskId);
    expect(shown(cardTs)).toContain('Fix the login');
    expect(shown(cardTs)).not.toContain('was deleted');
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toHaveLength(1);
  });
});

describe('cards recorded before their place was', () => {
  it('are not retired on a press that reads nothing; a press that reads the entity records its place', async () => {
    const { coords, cardTs } = await createTask();
    // As an older version recorded it: no place.
    await h.store.db
      .updateTable('posted_cards')
      .set({ team_id: null, channel_id: null, feature_id: null, org_id: null })
      .execute();
    const since = mark();
    await press(
      cardTs,
      TASK_ACTION.stateForward,
      json({ ...coords, teamId: otherTeamId, s: 'idle', a: '', to: 'in progress' }),
    );
    const told = await saidSince(since, 'not found in your organization');
    expect(json(told.body)).not.toContain('was deleted');
    await h.pressesSettled();
    expect(shown(cardTs)).not.toContain('was deleted');
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toHaveLength(1);

    // The right place reads the task: the card's place is recorded, and the press applies.
    await press(cardTs, TASK_ACTION.stateForward, json({ ...coords, s: 'idle', a: '', to: 'in progress' }));
    await eventually(
      async () =>
        (await h.owner().tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId))
          .state === 'in progress',
      'the task started',
    );
    await h.pressesSettled();
    const [card] = await h.store.cards.list(TEAM, 'task', coords.taskId);
    expect(card?.place).toMatchObject({
      teamId: coords.teamId,
      channelId: coords.channelId,
      featureId: coords.featureId,
    });
  });
});
