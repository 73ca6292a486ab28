/**
 * A press names its entity and where it lives (team, channel, feature); the app recorded where each
 * card's entity lives when it posted the card. A press whose place is not the recorded one — a real
 * task or feature id with another team's id — is refused privately: nothing changes in the service,
 * and no card is retired while its entity exists. A card is retired only when its entity is gone
 * where the app recorded it, read by someone of the card's organization. Over signed HTTP against
 * the sandbox; the service's state and the fake Slack's messages are checked, not only the replies.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEATURE_ACTION } from '../../../src/slack/features/ids.js';
import { TASK_ACTION } from '../../../src/slack/tasks/ids.js';
import { eventually, Harness, TEAM } from '../../helpers/slack-harness.js';

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

/** What Slack shows at `ts` in C1 now. */
const shown = (ts: string) => json(h.slack.message('C1', ts));

describe('a task press whose place is not the one recorded for its card', () => {
  it('is refused privately: the task does not move, its card is not retired and stays remembered', async () => {
    const { coords, cardTs } = await h.createTask();
    const wrong = { ...coords, teamId: otherTeamId };
    const since = mark();
    await h.press({ message: cardTs }, TASK_ACTION.stateForward, {
      value: json({ ...wrong, s: 'idle', a: '', to: 'in progress' }),
    });
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
    await h.press({ message: '1700000099.000100', ephemeral: true }, TASK_ACTION.delete, {
      value: json({ ...wrong, s: 'idle', a: '', l: 1 }),
    });
    await saidSince(fromList, 'nothing was changed');
    await h.pressesSettled();
    expect((await h.tasksOfFeature()).map((t) => t.id)).toContain(coords.taskId);
    expect(shown(cardTs)).not.toContain('was deleted');
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toHaveLength(1);

    // The card's own button, with the recorded place, still works.
    await h.press({ message: cardTs }, TASK_ACTION.stateForward, {
      value: json({ ...coords, s: 'idle', a: '', to: 'in progress' }),
    });
    await eventually(
      async () =>
        (await h.owner().tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId))
          .state === 'in progress',
      'the task started',
    );
  });

  it('a press naming another task than the card it is on is refused, and neither card is retired', async () => {
    const first = await h.createTask('First');
    const second = await h.createTask('Second');
    const since = mark();
    // The second task's Delete, carried by the first task's card.
    await h.press({ message: first.cardTs }, TASK_ACTION.delete, {
      value: json({ ...second.coords, s: 'idle', a: '' }),
    });
    await saidSince(since, 'nothing was changed');
    await h.pressesSettled();
    expect((await h.tasksOfFeature()).map((t) => t.heading).sort()).toEqual(['First', 'Second']);
    expect(shown(first.cardTs)).toContain('First');
    expect(shown(second.cardTs)).toContain('Second');
    expect(await h.store.cards.list(TEAM, 'task', second.coords.taskId)).toHaveLength(1);
  });

  it('a task deleted where its card says it lives still retires the card', async () => {
    const { coords, cardTs } = await h.createTask();
    await h.owner().tasks.delete(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
    const since = mark();
    await h.press({ message: cardTs }, TASK_ACTION.stateForward, {
      value: json({ ...coords, s: 'idle', a: '', to: 'in progress' }),
    });
    await saidSince(since, 'it was deleted');
    await h.pressesSettled();
    expect(shown(cardTs)).toContain('This task was deleted');
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toEqual([]);
  });
});

describe('a feature press whose place is not the one recorded for its card', () => {
  it('Advance and Delete with another team id: refused, the feature unchanged, its card kept', async () => {
    const { featureId, ts } = await h.newFeature('Passkeys');
    const { channelId } = h.fixture;
    const wrong = json({ teamId: otherTeamId, channelId, featureId, stage: 'planning' });
    for (const action of [FEATURE_ACTION.advance, FEATURE_ACTION.delete]) {
      const since = mark();
      await h.press({ message: ts }, action, { value: wrong, user: 'U2' });
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
    const { featureId, ts } = await h.newFeature('Passkeys');
    const digestTs = h.slack.postAsBot('C1', { text: 'Digest', blocks: [] });
    const since = mark();
    await h.press({ message: digestTs }, 'digest_feature_advance', {
      value: json({ teamId: otherTeamId, channelId: h.fixture.channelId, featureId, stage: 'planning' }),
      user: 'U2',
    });
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
    const { coords, cardTs } = await h.createTask();
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
    await h.press({ message: cardTs }, TASK_ACTION.delete, {
      value: json({ ...coords, s: 'idle', a: '' }),
      user: 'U5',
    });
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
    const { coords, cardTs } = await h.createTask();
    // As an older version recorded it: no place.
    await h.store.db
      .updateTable('posted_cards')
      .set({ team_id: null, channel_id: null, feature_id: null, org_id: null })
      .execute();
    const since = mark();
    await h.press({ message: cardTs }, TASK_ACTION.stateForward, {
      value: json({ ...coords, teamId: otherTeamId, s: 'idle', a: '', to: 'in progress' }),
    });
    const told = await saidSince(since, 'not found in your organization');
    expect(json(told.body)).not.toContain('was deleted');
    await h.pressesSettled();
    expect(shown(cardTs)).not.toContain('was deleted');
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toHaveLength(1);

    // The right place reads the task: the card's place is recorded, and the press applies.
    await h.press({ message: cardTs }, TASK_ACTION.stateForward, {
      value: json({ ...coords, s: 'idle', a: '', to: 'in progress' }),
    });
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
