/**
 * Workflow "Act as" (issue 35 item 4): a step acts as the person who ran the workflow (Slack's
 * interactivity input, from the trigger), or as another person named in *Act as* only if that person
 * turned on “Let workflow steps act for me” on the app's Home — off by default, stored per Slack
 * user per workspace. Otherwise the step fails with functions.completeError and one sentence, and
 * the sandbox shows nothing changed. Over signed requests, the fake Slack and the sandbox.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOME_ACTION } from '../../../src/slack/home/ids.js';
import { STEP_PARAM, WORKFLOW_STEP } from '../../../src/slack/workflows/ids.js';
import { eventually, Harness, ranBy, TEAM } from '../../helpers/slack-harness.js';

let h: Harness;
beforeEach(async () => {
  h = await Harness.start();
  h.slack.users.set('U1', { id: 'U1', name: 'builder' });
  h.slack.users.set('U2', { id: 'U2', name: 'ana' });
  await h.connect('U1', 'member');
  await h.connect('U2', 'admin');
  await h.link('C1', 'U1');
});
afterEach(() => h.close());

function ended(executionId: string) {
  const ofIt = (b: Record<string, unknown>) => b.function_execution_id === executionId;
  return Promise.race([
    h.slack.waitFor('functions.completeSuccess', ofIt),
    h.slack.waitFor('functions.completeError', ofIt),
  ]);
}

const createAs = (actAs: string, runner: string | undefined, heading = 'Write the FAQ') => ({
  [STEP_PARAM.channel]: 'C1',
  [STEP_PARAM.feature]: h.fixture.featureHeading,
  [STEP_PARAM.heading]: heading,
  [STEP_PARAM.actAs]: actAs,
  [STEP_PARAM.interactivity]: runner ? ranBy(runner) : undefined,
});

/** Ticks or unticks “Let workflow steps act for me” on `user`'s Home tab. */
async function letStepsActFor(user: string, on: boolean) {
  const selected = on
    ? [{ value: 'on', text: { type: 'plain_text', text: 'Let workflow steps act for me' } }]
    : [];
  const res = await h.choose(
    { home: {} },
    { block: 'b', action: HOME_ACTION.workflowActFor },
    { type: 'checkboxes', selected_options: selected } as never,
    { user },
  );
  expect(res.status).toBe(200);
  await eventually(
    async () => (await h.store.workflowConsents.allows(TEAM, user)) === on,
    'the preference saved',
  );
}

describe('a step acts as', () => {
  it('the person who ran the workflow', async () => {
    await h.stepExecuted(WORKFLOW_STEP.createTask, createAs('U1', 'U1'), 'FxSelf');
    expect((await ended('FxSelf')).method).toBe('functions.completeSuccess');
    expect((await h.tasksOfFeature()).map((t) => t.heading)).toEqual(['Write the FAQ']);
  });

  it('someone else who has not allowed it: fails with one sentence and the service is unchanged', async () => {
    await h.stepExecuted(WORKFLOW_STEP.createTask, createAs('U2', 'U1'), 'FxOther');
    const end = await ended('FxOther');
    expect(end.method).toBe('functions.completeError');
    expect(String(end.body.error)).toContain('<@U2> if they turn on “Let workflow steps act for me”');
    expect(String(end.body.error)).toContain('(<@U1>)');
    expect(await h.tasksOfFeature()).toEqual([]);
    expect(h.sandbox.requests.count('taskCreate')).toBe(0);
  });

  it('nobody named without consent in a scheduled run (no one ran it)', async () => {
    await h.stepExecuted(WORKFLOW_STEP.createTask, createAs('U2', undefined), 'FxScheduled');
    const end = await ended('FxScheduled');
    expect(end.method).toBe('functions.completeError');
    expect(await h.tasksOfFeature()).toEqual([]);
  });

  it('someone else once they turned it on at their Home, and not after they turned it off', async () => {
    // Off by default: the Home shows the box unticked.
    await h.event({ type: 'app_home_opened', user: 'U2', channel: 'DU2', tab: 'home' });
    const tab = await h.slack.waitFor('views.publish', (b) =>
      JSON.stringify(b).includes(HOME_ACTION.workflowActFor),
    );
    expect(JSON.stringify(tab.body)).not.toContain(
      'initial_options":[{"text":{"type":"plain_text","text":"Let workflow',
    );
    expect(await h.store.workflowConsents.allows(TEAM, 'U2')).toBe(false);

    await letStepsActFor('U2', true);
    await h.stepExecuted(WORKFLOW_STEP.createTask, createAs('U2', 'U1', 'Ana’s task'), 'FxAllowed');
    expect((await ended('FxAllowed')).method).toBe('functions.completeSuccess');
    const [task] = await h.tasksOfFeature();
    expect(task?.heading).toBe('Ana’s task');

    await letStepsActFor('U2', false);
    await h.stepExecuted(WORKFLOW_STEP.createTask, createAs('U2', 'U1', 'Another'), 'FxRevoked');
    expect((await ended('FxRevoked')).method).toBe('functions.completeError');
    expect((await h.tasksOfFeature()).map((t) => t.heading)).toEqual(['Ana’s task']);
  });
});
