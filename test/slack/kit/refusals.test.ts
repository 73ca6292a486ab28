/**
 * Refusals say what is true. The service answers 404 for an object of another organization exactly
 * as for a deleted one ("<what> not found", src/sandbox/store.ts), so a 404 alone says only that the
 * object is not in the person's organization: the app says that, and says "deleted" only when it
 * knows (a card it recorded, read where it recorded it, by someone of its organization). A team of
 * another organization is never called "no team yet", nor linked. Over signed HTTP against the
 * sandbox; the service's and the store's state are checked, not only the sentences.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlanningClient, type PlanningClient } from '../../../src/planning/index.js';
import type { OrgHandle } from '../../../src/sandbox/index.js';
import { FEATURE_FIELD, FEATURE_VIEW } from '../../../src/slack/features/ids.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { LINK_FIELD, LINK_VIEW } from '../../../src/slack/link/ids.js';
import { TASK_ACTION } from '../../../src/slack/tasks/ids.js';
import { choice, external, Harness, TEAM, text } from '../../helpers/slack-harness.js';

const json = (v: unknown) => JSON.stringify(v);
const mark = () => h.slack.calls.length;
const callbackIs = (id: string) => (b: Record<string, unknown>) =>
  (b.view as { callback_id?: string } | undefined)?.callback_id === id;
/** What no refusal about another organization's object may say. */
const UNTRUE = ['deleted', 'no longer exists', 'no team yet'];

let h: Harness;
/** Another organization, with a team of its own, and its owner's client. */
let other: OrgHandle;
let elsewhere: PlanningClient;
let foreignTeam: { id: string; channelId: string };

beforeEach(async () => {
  h = await Harness.start();
  h.slack.users.set('U1', { id: 'U1', name: 'boss', isAdmin: true });
  await h.connect('U1', 'owner');
  await h.link();
  other = await h.sandbox.createOrganization('Elsewhere');
  elsewhere = createPlanningClient({ baseUrl: h.sandbox.url, token: other.ownerToken });
  const team = await elsewhere.teams.create({ teamName: 'Foreign' });
  foreignTeam = { id: team.id, channelId: team.channels[0]!.id };
});
afterEach(() => h.close());

describe('a form naming another organization’s team', () => {
  it('the feature form says the team is not in your organization; no feature is made anywhere', async () => {
    let since = mark();
    await h.command('feature new', 'U1', 'C7');
    const viewId = String(
      (await h.slack.waitFor('views.update', callbackIs(FEATURE_VIEW.feature), { since })).body.view_id,
    );
    since = mark();
    await h.submit(viewId, [
      [FIELD.team, choice(foreignTeam.id, 'Foreign')],
      [FIELD.channel, choice(foreignTeam.channelId, 'General')],
      [FIELD.heading, text('Smuggled')],
      [FEATURE_FIELD.priority, choice('5')],
    ]);
    const back = await h.slack.waitFor('views.update', callbackIs(FEATURE_VIEW.feature), { since });
    const said = json(back.body.view);
    expect(said).toContain('in your organization');
    for (const untrue of UNTRUE) expect(said).not.toContain(untrue);
    // What was typed is kept; nothing exists in either organization.
    expect(said).toContain('Smuggled');
    expect((await elsewhere.features.list(foreignTeam.id, foreignTeam.channelId)).features).toEqual([]);
    expect((await h.owner().features.list(h.fixture.teamId, h.fixture.channelId)).features).toHaveLength(1);
  });

  it('the link form refuses it on the form, and the channel is not linked', async () => {
    let since = mark();
    await h.command('link', 'U1', 'C5');
    const viewId = String(
      (await h.slack.waitFor('views.update', callbackIs(LINK_VIEW.link), { since })).body.view_id,
    );
    since = mark();
    await h.submit(viewId, [
      [FIELD.team, choice(foreignTeam.id, 'Foreign')],
      [FIELD.channel, choice(foreignTeam.channelId, 'General')],
      [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '09:00' }],
      [LINK_FIELD.timeZone, external('UTC')],
    ]);
    const back = await h.slack.waitFor('views.update', callbackIs(LINK_VIEW.link), { since });
    const said = json(back.body.view);
    expect(said).toContain('not in your organization');
    for (const untrue of UNTRUE) expect(said).not.toContain(untrue);
    expect(await h.store.links.get(TEAM, 'C5')).toBeUndefined();

    // A channel of another team of the organization is refused too.
    const second = await h.owner().teams.create({ teamName: 'Second' });
    since = mark();
    await h.submit(viewId, [
      [FIELD.team, choice(h.fixture.teamId, 'Core team')],
      [FIELD.channel, choice(second.channels[0]!.id, 'General')],
      [LINK_FIELD.digestTime, { type: 'timepicker', selected_time: '09:00' }],
      [LINK_FIELD.timeZone, external('UTC')],
    ]);
    await h.slack.waitFor(
      'views.update',
      (b) => callbackIs(LINK_VIEW.link)(b) && json(b).includes('not a channel of'),
      {
        since,
      },
    );
    expect(await h.store.links.get(TEAM, 'C5')).toBeUndefined();
  });
});

describe('a press on another organization’s task', () => {
  it('from a list (no card recorded): not found in your organization, never "deleted"', async () => {
    const feature = await elsewhere.features.create(foreignTeam.id, foreignTeam.channelId, {
      heading: 'Theirs',
    });
    const task = await elsewhere.tasks.create(foreignTeam.id, foreignTeam.channelId, feature.id, {
      heading: 'Their task',
    });
    const value = json({
      teamId: foreignTeam.id,
      channelId: foreignTeam.channelId,
      featureId: feature.id,
      taskId: task.id,
      s: 'idle',
      a: '',
      to: 'in progress',
      l: 1,
    });
    const since = mark();
    await h.press({ message: '1700000001.000100', ephemeral: true }, TASK_ACTION.stateForward, { value });
    const said = await h.slack.waitFor('respond', (b) => b.replace_original !== true, { since });
    expect(json(said.body)).toContain('not found in your organization');
    for (const untrue of UNTRUE) expect(json(said.body)).not.toContain(untrue);
    await h.pressesSettled();
    // The list entry was not replaced by "This task was deleted.", and the task is untouched.
    expect(
      h.slack
        .called('respond')
        .slice(since)
        .filter((c) => c.body.replace_original === true),
    ).toEqual([]);
    expect(
      (await elsewhere.tasks.read(foreignTeam.id, foreignTeam.channelId, feature.id, task.id)).state,
    ).toBe('idle');
    expect(other.orgId).not.toBe(h.sandbox.orgId);
  });
});
