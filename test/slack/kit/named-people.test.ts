/**
 * People named in a form — experiment participants, a person added to a team or channel, an
 * assignee, a graded peer — get an account from the app only for a change the service accepts:
 * when it refuses, nothing the app stores about the object changes and no account made for the
 * change stays open. Driven through signed requests against the sandbox, whose state is checked.
 */
import type { ViewStateValue } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlanningClient } from '../../../src/planning/index.js';
import { ADMIN_FIELD } from '../../../src/slack/admin/ids.js';
import { personForm } from '../../../src/slack/admin/person-form.js';
import { experimentModal } from '../../../src/slack/features/experiments.js';
import { FEATURE_FIELD } from '../../../src/slack/features/ids.js';
import { gradeModal } from '../../../src/slack/grades/blocks.js';
import { GRADE_FIELD } from '../../../src/slack/grades/ids.js';
import { FIELD, type Field } from '../../../src/slack/kit/ids.js';
import { assignModal } from '../../../src/slack/tasks/assign.js';
import { TASK_FIELD } from '../../../src/slack/tasks/ids.js';
import { choice, external, Harness, TEAM, text, user } from '../../helpers/slack-harness.js';

const ACTOR = 'U1';
/** A full member of the workspace with no planning account yet. */
const NEW = 'UNEW';

const radio = (value: string): ViewStateValue => ({
  type: 'radio_buttons',
  selected_option: { value, text: { type: 'plain_text', text: value } },
});
const users = (...ids: string[]): ViewStateValue => ({ type: 'multi_users_select', selected_users: ids });
const json = (value: unknown) => JSON.stringify(value);

let h: Harness;
beforeEach(async () => {
  h = await Harness.start({ provisioning: true });
  h.slack.users.set(ACTOR, { id: ACTOR, name: 'ana', isAdmin: true });
  h.slack.users.set(NEW, { id: NEW, name: 'newcomer' });
  await h.connect(ACTOR, 'owner');
});
afterEach(() => h.close());

/** The modal's next update that says `what`. */
const answered = (viewId: string, what: string) =>
  h.slack.waitFor('views.update', (b) => b.view_id === viewId && json(b.view).includes(what));

/** Submits the form `viewId`, then waits for it to be given back (refused: what was typed, and why). */
async function refusedForm(viewId: string, values: [Field, ViewStateValue][]) {
  const callbackId = h.slack.views.get(viewId)?.callback_id;
  const since = h.slack.calls.length;
  await h.submit(viewId, values);
  return h.slack.waitFor(
    'views.update',
    (b) => b.view_id === viewId && (b.view as { callback_id?: string }).callback_id === callbackId,
    { since },
  );
}

/** Accounts the app made in the organization (its seeded ones aside), with whether each is open. */
function made() {
  const seeded = [h.sandbox.ownerId, h.sandbox.adminId, h.sandbox.memberId];
  return Object.values(h.sandbox.state().accounts)
    .filter((a) => a.homeOrgId === h.sandbox.orgId && !seeded.includes(a.id))
    .map((a) => ({ id: a.id, open: a.closedTime === 0 }));
}

/** What a refused change must leave: no identity for the newcomer, and no account of theirs open. */
async function noAccountLeft() {
  expect(await h.store.identities.get(TEAM, NEW)).toBeUndefined();
  expect(made().filter((a) => a.open)).toEqual([]);
  expect(await h.unheldAccounts()).toEqual([]);
}

describe('experiment participants', () => {
  async function assumption() {
    const { teamId, channelId, featureId } = h.fixture;
    const assm = await h
      .owner()
      .assumptions.create(teamId, channelId, featureId, { heading: 'They want it' });
    return { coords: { teamId, channelId, featureId }, assmId: assm.id };
  }

  it('are stored only once the service took the experiment: a feature that reached deep context meanwhile keeps the earlier ones, and no account', async () => {
    const { teamId, channelId, featureId } = h.fixture;
    const meta = await assumption();
    await h.connect('U2', 'member');
    const first = await h.openedModal(ACTOR, experimentModal({ meta }));
    await h.submit(first, [
      [FEATURE_FIELD.experimentState, radio('running')],
      [FEATURE_FIELD.participants, users('U2')],
    ]);
    await answered(first, 'Experiment saved');
    expect(await h.store.participants.get(TEAM, [meta.assmId])).toEqual({
      [meta.assmId]: [h.sandbox.memberId],
    });

    // The form is open again while the feature moves on to deep context, where it is read-only.
    const viewId = await h.openedModal(ACTOR, experimentModal({ meta }));
    const owner = h.owner();
    await owner.features.advance(teamId, channelId, featureId);
    await owner.assumptions.experiment(teamId, channelId, featureId, meta.assmId, { state: 'done' });
    await owner.features.advance(teamId, channelId, featureId);
    await owner.features.advance(teamId, channelId, featureId);
    expect((await owner.features.read(teamId, channelId, featureId)).stage).toBe('deep context');

    await refusedForm(viewId, [
      [FEATURE_FIELD.experimentState, radio('done')],
      [FEATURE_FIELD.participants, users('U2', NEW)],
    ]);
    await answered(viewId, 'read-only');
    expect(await h.store.participants.get(TEAM, [meta.assmId])).toEqual({
      [meta.assmId]: [h.sandbox.memberId],
    });
    await noAccountLeft();
  });

  it("of another organization's assumption: nothing stored, no account", async () => {
    const other = await h.sandbox.createOrganization('Elsewhere');
    const theirs = createPlanningClient({ baseUrl: h.sandbox.url, token: other.ownerToken });
    const team = await theirs.teams.create({ teamName: 'Theirs' });
    const channelId = team.channels[0]!.id;
    const feature = await theirs.features.create(team.id, channelId, { heading: 'Secret' });
    const assm = await theirs.assumptions.create(team.id, channelId, feature.id, { heading: 'Hidden' });
    const meta = { coords: { teamId: team.id, channelId, featureId: feature.id }, assmId: assm.id };

    const viewId = await h.openedModal(ACTOR, experimentModal({ meta }));
    await refusedForm(viewId, [
      [FEATURE_FIELD.experimentState, radio('running')],
      [FEATURE_FIELD.participants, users(NEW)],
    ]);
    expect(await h.store.participants.get(TEAM, [assm.id])).toEqual({});
    await noAccountLeft();
  });

  it('accepted: the newcomer gets an account, stored, and is kept as a participant', async () => {
    const meta = await assumption();
    const viewId = await h.openedModal(ACTOR, experimentModal({ meta }));
    await h.submit(viewId, [
      [FEATURE_FIELD.experimentState, radio('running')],
      [FEATURE_FIELD.participants, users(NEW)],
    ]);
    await answered(viewId, 'Experiment saved');
    const identity = await h.store.identities.get(TEAM, NEW);
    expect(identity?.origin).toBe('provisioned');
    expect(await h.store.participants.get(TEAM, [meta.assmId])).toEqual({
      [meta.assmId]: [identity?.planningUserId],
    });
    expect(made()).toEqual([{ id: identity?.serviceAccountId, open: true }]);
  });
});

describe('Add person to team / channel', () => {
  async function addForm(form: 'teamAdd' | 'channelAdd') {
    const team = await h.owner().teams.create({ teamName: 'Platform' });
    const channelId = team.channels[0]!.id;
    const viewId = await h.openedModal(
      ACTOR,
      personForm({
        form,
        teamId: team.id,
        name: 'Platform',
        ...(form === 'channelAdd' ? { channelId } : {}),
      }),
    );
    return { viewId, teamId: team.id };
  }

  it.each(['teamAdd', 'channelAdd'] as const)(
    '%s refused by the organization’s roles leaves no account for the person picked',
    async (form) => {
      const area = form === 'teamAdd' ? 'teams' : 'channels';
      // A workspace admin in Slack whose planning account is a member of the organization.
      await h.connect(ACTOR, 'member');
      const { viewId } = await addForm(form);
      await h.submit(viewId, [[ADMIN_FIELD.person, user(NEW)]]);
      await answered(viewId, `cannot assign ${area}`);
      const assigned = h.sandbox.requests.entries.filter((e) => e.operation === `${area}.assign`);
      expect(assigned.map((e) => e.status)).toEqual([403]);
      await noAccountLeft();
    },
  );

  it('accepted: the person gets an account, kept, and joins the team', async () => {
    const { viewId, teamId } = await addForm('teamAdd');
    await h.submit(viewId, [[ADMIN_FIELD.person, user(NEW)]]);
    await answered(viewId, 'joined the team');
    const identity = await h.store.identities.get(TEAM, NEW);
    expect(identity?.origin).toBe('provisioned');
    const teams = await h.owner().teams.listUser(identity!.planningUserId);
    expect(teams.teams.map((t) => t.id)).toContain(teamId);
    expect(made()).toEqual([{ id: identity?.serviceAccountId, open: true }]);
  });
});

describe('assignee and peer', () => {
  it('Assign… to someone in the workspace, on a task deleted meanwhile: no account', async () => {
    const coords = await h.assignedTask('Gone soon');
    const viewId = await h.openedModal(ACTOR, assignModal({ coords, heading: 'Gone soon', candidates: [] }));
    await h.owner().tasks.delete(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
    await refusedForm(viewId, [[TASK_FIELD.assignee, user(NEW)]]);
    // The app's assignment (after the owner's own, which made the task): refused, the task is gone.
    const assigned = h.sandbox.requests.entries.filter((e) => e.operationId === 'taskAssign');
    expect(assigned.map((e) => e.status)).toEqual([200, 404]);
    await noAccountLeft();
  });

  async function createTaskForm() {
    await h.link('C1', ACTOR);
    return h.createTaskForm('Do it', { user: ACTOR });
  }

  const taskValues = (assignee: string): [Field, ViewStateValue][] => [
    [TASK_FIELD.feature, external(h.fixture.featureId, 'Login page')],
    [FIELD.heading, text('Do it')],
    [TASK_FIELD.assignee, user(assignee)],
  ];

  it('Create task refused by the service: no task, and no account for the assignee', async () => {
    const viewId = await createTaskForm();
    const { teamId, channelId, featureId } = h.fixture;
    await h.owner().features.delete(teamId, channelId, featureId);
    await refusedForm(viewId, taskValues(NEW));
    const creates = h.sandbox.requests.entries.filter((e) => e.operationId === 'taskCreate');
    expect(creates.map((e) => e.status)).toEqual([404]);
    expect(h.sandbox.requests.count('serviceAccountCreate')).toBe(0);
    await noAccountLeft();
  });

  it('Create task whose assignment is refused: the task stays, told so, and the account made for it is closed', async () => {
    const viewId = await createTaskForm();
    h.sandbox.inject({ operationId: 'taskAssign', status: 403 });
    await h.submit(viewId, taskValues(NEW));
    await answered(viewId, 'could not be assigned');
    expect((await h.tasksOfFeature()).map((t) => t.heading)).toEqual(['Do it']);
    await noAccountLeft();
  });

  it('a peer graded on a notion the service does not know: no account', async () => {
    const viewId = await h.openedModal(ACTOR, gradeModal());
    await refusedForm(viewId, [
      [GRADE_FIELD.peer, user(NEW)],
      [GRADE_FIELD.notion, external('000000000000000000000fff', 'Nothing')],
      [GRADE_FIELD.grade, choice('7')],
    ]);
    expect(h.sandbox.requests.count('experiences.evaluatePeer')).toBe(1);
    await noAccountLeft();
  });
});
