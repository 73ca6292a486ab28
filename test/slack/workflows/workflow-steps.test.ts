/**
 * Workflow Builder steps (issue 25 item 1): `function_executed` delivered as Slack signs it, the
 * work checked in the sandbox and the store, and the step's end — `functions.completeSuccess` with
 * its outputs, or `functions.completeError` with the sentence the workflow's builder reads.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PRESS_LOCK_PREFIX } from '../../../src/slack/kit/press.js';
import { STEP_PARAM, WORKFLOW_STEP } from '../../../src/slack/workflows/ids.js';
import { Harness, TEAM } from '../../helpers/slack-harness.js';

let h: Harness;
afterEach(() => h.close());

/** The step's end for one execution: Slack's record of completeSuccess or completeError. */
function ended(executionId: string, since = 0) {
  const ofIt = (b: Record<string, unknown>) => b.function_execution_id === executionId;
  return Promise.race([
    h.slack.waitFor('functions.completeSuccess', ofIt, { since }),
    h.slack.waitFor('functions.completeError', ofIt, { since }),
  ]);
}

async function start(options: Parameters<typeof Harness.start>[0] = {}) {
  h = await Harness.start(options);
  await h.connect('U1', 'member');
  await h.link('C1', 'U1');
}

const createInputs = (extra: Record<string, unknown> = {}) => ({
  [STEP_PARAM.channel]: 'C1',
  [STEP_PARAM.feature]: 'login PAGE',
  [STEP_PARAM.heading]: 'Write the FAQ',
  [STEP_PARAM.details]: 'For the support team',
  [STEP_PARAM.actAs]: 'U1',
  ...extra,
});

describe('Create a task step', () => {
  it('creates the task as the person named, assigned, with its live card in the linked channel; outputs its id and permalink', async () => {
    await start();
    await h.connect('U2', 'admin');
    const res = await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs({ assignee: 'U2' }), 'Fx1');
    expect(res.status).toBe(200);
    const end = await ended('Fx1');
    expect(end.method).toBe('functions.completeSuccess');

    const [task, ...others] = await h.tasksOfFeature();
    expect(others).toEqual([]);
    const { teamId, channelId, featureId } = h.fixture;
    expect(await h.owner().tasks.read(teamId, channelId, featureId, task!.id)).toMatchObject({
      heading: 'Write the FAQ',
      details: 'For the support team',
    });
    expect(task?.assigneeUserId).toBe(h.sandbox.adminId);
    const outputs = end.body.outputs as Record<string, string>;
    expect(outputs[STEP_PARAM.taskId]).toBe(task?.id);
    // The card is a live card of the task, in the linked channel, and the permalink is its own.
    const [card] = await h.store.cards.list(TEAM, 'task', task!.id);
    expect(card?.slackChannelId).toBe('C1');
    expect(outputs[STEP_PARAM.permalink]).toBe(
      `https://slack.test/archives/C1/p${card!.messageTs.replace('.', '')}`,
    );
    // Posted with the execution's own token.
    const posted = h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'C1');
    expect(posted.map((c) => c.token)).toEqual(['xwfp-Fx1']);
    // The assignee hears of it as from any surface: once, naming who ran it, with a link to the card.
    const dmsToU2 = () => h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'DU2');
    expect(dmsToU2()).toHaveLength(1);
    expect(JSON.stringify(dmsToU2()[0]!.body)).toContain('<@U1> assigned you the task *Write the FAQ*');
    // Slack delivers the same execution again: nobody is told twice.
    const since = h.slack.calls.length;
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs({ assignee: 'U2' }), 'Fx1', 1);
    await ended('Fx1', since);
    expect(dmsToU2()).toHaveLength(1);
  });

  it('delivered twice (Slack retries the same execution) creates one task, and ends the same way both times', async () => {
    await start();
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs(), 'Fx2');
    const first = await ended('Fx2');
    const since = h.slack.calls.length;
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs(), 'Fx2', 1);
    const second = await ended('Fx2', since);
    expect(second.method).toBe('functions.completeSuccess');
    expect(second.body.outputs).toEqual(first.body.outputs);
    expect(await h.tasksOfFeature()).toHaveLength(1);
    expect(h.sandbox.requests.count('taskCreate')).toBe(1);
  });

  it('fails with a sentence the builder can act on when the person has not connected: nothing is created', async () => {
    await start();
    h.slack.ensurePerson('U5');
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs({ [STEP_PARAM.actAs]: 'U5' }), 'Fx3');
    const end = await ended('Fx3');
    expect(end.method).toBe('functions.completeError');
    expect(end.body.error).toBe(
      "<@U5> has not connected a planning account: they can connect from the app's Home.",
    );
    expect(await h.tasksOfFeature()).toEqual([]);
  });

  it('acts only as a connected full member: a guest with a connection of their own fails, and a full member who never connected is not provisioned', async () => {
    await start({ provisioning: true });
    h.slack.users.set('UGUEST', { id: 'UGUEST', name: 'gus', guest: 'multi-channel' });
    await h.connect('UGUEST', 'admin');
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs({ [STEP_PARAM.actAs]: 'UGUEST' }), 'Fx4');
    const guest = await ended('Fx4');
    expect(guest.method).toBe('functions.completeError');
    expect(guest.body.error).toBe(
      '<@UGUEST> cannot act in this step: it acts only as a full member of this workspace, and they are a guest in this workspace.',
    );

    // A full member the app could provision for a button press: a step never makes them an account.
    h.slack.users.set('UNEW', { id: 'UNEW', name: 'nova' });
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs({ [STEP_PARAM.actAs]: 'UNEW' }), 'Fx4b');
    expect((await ended('Fx4b')).body.error).toBe(
      "<@UNEW> has not connected a planning account: they can connect from the app's Home.",
    );
    expect(await h.store.identities.get(TEAM, 'UNEW')).toBeUndefined();
    expect(h.sandbox.requests.count('serviceAccountCreate')).toBe(0);
    expect(await h.tasksOfFeature()).toEqual([]);
  });

  it('fails when the service answers 503, and when it does not answer in time', async () => {
    await start();
    h.sandbox.inject({ operationId: 'taskCreate', status: 503, times: 1 });
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs(), 'Fx5');
    const unavailable = await ended('Fx5');
    expect(unavailable.method).toBe('functions.completeError');
    expect(unavailable.body.error).toContain(
      'The planning service is not answering right now; nothing was saved',
    );
    expect(await h.tasksOfFeature()).toEqual([]);

    h.sandbox.inject({ operationId: 'taskCreate', hang: true, times: 1 });
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs(), 'Fx6');
    const late = await ended('Fx6');
    expect(late.method).toBe('functions.completeError');
    expect(late.body.error).toContain('The planning service did not answer in time');
  });

  it('fails when the channel is not linked, or no feature has that heading', async () => {
    await start();
    h.slack.channel('C9', 'U1');
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs({ [STEP_PARAM.channel]: 'C9' }), 'Fx7');
    expect((await ended('Fx7')).body.error).toBe(
      '<#C9> is not linked to a planning channel: run `/plan link` in it first, or give the planning team and channel.',
    );
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs({ [STEP_PARAM.feature]: 'Nope' }), 'Fx8');
    expect((await ended('Fx8')).body.error).toBe(
      'No feature “Nope” in the planning channel linked to <#C1>.',
    );
    expect(await h.tasksOfFeature()).toEqual([]);
  });

  it('works in the planning team and channel chosen in the step, posting the card in an unlinked Slack channel', async () => {
    await start();
    h.slack.channel('C9', 'U1');
    const { teamId, channelId, featureId } = h.fixture;
    const place = { [STEP_PARAM.channel]: 'C9', [STEP_PARAM.feature]: featureId };
    // Only one of the two: told to give both, nothing created.
    await h.stepExecuted(
      WORKFLOW_STEP.createTask,
      createInputs({ ...place, planning_team_id: teamId }),
      'Fx9',
    );
    expect((await ended('Fx9')).body.error).toBe(
      "Give both the planning team and the planning channel, or neither (then <#C9>'s link says which).",
    );
    expect(await h.tasksOfFeature()).toEqual([]);

    const chosen = { ...place, planning_team_id: teamId, planning_channel_id: channelId };
    await h.stepExecuted(WORKFLOW_STEP.createTask, createInputs(chosen), 'Fx10');
    expect((await ended('Fx10')).method).toBe('functions.completeSuccess');
    const [task] = await h.tasksOfFeature();
    expect(task?.heading).toBe('Write the FAQ');
    const [card] = await h.store.cards.list(TEAM, 'task', task!.id);
    expect(card?.slackChannelId).toBe('C9');
  });
});

describe('Log a discovery step', () => {
  it("records the discovery in the task's minutes, as the person named", async () => {
    await start();
    const { taskId, featureId } = await h.assignedTask('Check Safari');
    await h.stepExecuted(
      WORKFLOW_STEP.logDiscovery,
      {
        [STEP_PARAM.channel]: 'C1',
        [STEP_PARAM.feature]: featureId,
        [STEP_PARAM.taskId]: taskId,
        [STEP_PARAM.discovery]: 'Safari drops the cookie',
        [STEP_PARAM.actAs]: 'U1',
      },
      'Fx10',
    );
    expect((await ended('Fx10')).method).toBe('functions.completeSuccess');
    const { teamId, channelId } = h.fixture;
    const task = await h.owner().tasks.read(teamId, channelId, featureId, taskId);
    expect(task.minute?.discoveries.map((d) => [d.details, d.authorUserId])).toEqual([
      ['Safari drops the cookie', h.sandbox.memberId],
    ]);
  });
});

describe("Post a feature's status step", () => {
  it('posts the feature card in the linked channel, remembered as a live card; outputs its permalink', async () => {
    await start();
    await h.stepExecuted(
      WORKFLOW_STEP.postFeatureStatus,
      { [STEP_PARAM.channel]: 'C1', [STEP_PARAM.feature]: 'Login page', [STEP_PARAM.actAs]: 'U1' },
      'Fx20',
    );
    const end = await ended('Fx20');
    expect(end.method).toBe('functions.completeSuccess');
    const [card] = await h.store.cards.list(TEAM, 'feature', h.fixture.featureId);
    expect(card?.slackChannelId).toBe('C1');
    expect(h.slack.message('C1', card!.messageTs)?.text).toContain('Login page');
    expect((end.body.outputs as Record<string, string>)[STEP_PARAM.permalink]).toContain('/archives/C1/p');
  });
});

describe('Advance a feature step', () => {
  it('advances once when delivered twice, and fails with the service’s rule when it cannot', async () => {
    await start();
    const { teamId, channelId, featureId } = h.fixture;
    const inputs = { [STEP_PARAM.channel]: 'C1', [STEP_PARAM.feature]: featureId, [STEP_PARAM.actAs]: 'U1' };

    // Planning needs an assumption: the service's refusal ends the step, nothing moves.
    await h.stepExecuted(WORKFLOW_STEP.advanceFeature, inputs, 'Fx30');
    const refused = await ended('Fx30');
    expect(refused.method).toBe('functions.completeError');
    expect(refused.body.error).toContain('The planning service refused');
    expect((await h.owner().features.read(teamId, channelId, featureId)).stage).toBe('planning');

    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People hate passwords' });
    await h.stepExecuted(WORKFLOW_STEP.advanceFeature, inputs, 'Fx31');
    const first = await ended('Fx31');
    expect(first.body.outputs).toEqual({ [STEP_PARAM.stage]: 'Validation' });
    const since = h.slack.calls.length;
    await h.stepExecuted(WORKFLOW_STEP.advanceFeature, inputs, 'Fx31', 1);
    expect((await ended('Fx31', since)).body.outputs).toEqual({ [STEP_PARAM.stage]: 'Validation' });
    expect((await h.owner().features.read(teamId, channelId, featureId)).stage).toBe('validation');
    expect(h.sandbox.requests.count('featureAdvance')).toBe(2);
  });

  it('never runs beside a press of the same feature: while a card press holds its lock, the step fails and nothing moves', async () => {
    await start();
    const { teamId, channelId, featureId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People hate passwords' });
    // The lock a card's Advance takes (kit/press.ts), held as by a press being applied.
    expect(
      await h.store.locks.acquire(`${PRESS_LOCK_PREFIX}${TEAM}:feature:${featureId}`, 60_000),
    ).toBeDefined();
    await h.stepExecuted(
      WORKFLOW_STEP.advanceFeature,
      { [STEP_PARAM.channel]: 'C1', [STEP_PARAM.feature]: featureId, [STEP_PARAM.actAs]: 'U1' },
      'Fx40',
    );
    const end = await ended('Fx40');
    expect(end.method).toBe('functions.completeError');
    expect(end.body.error).toContain('A press on this feature is still being applied');
    expect(h.sandbox.requests.count('featureAdvance')).toBe(0);
    expect((await h.owner().features.read(teamId, channelId, featureId)).stage).toBe('planning');
  });
});
