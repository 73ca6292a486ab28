/**
 * What the user is told when something fails around a form: the store, Slack itself, a slow
 * service behind a searchable select — and that user text never reaches Slack as markup.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEEDBACK_FIELD, FEEDBACK_VIEW } from '../../../src/slack/feedback/ids.js';
import { GRADE_FIELD, GRADE_SHORTCUT, GRADE_VIEW } from '../../../src/slack/grades/ids.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { FAILED_OPTION, SLOW_OPTION } from '../../../src/slack/kit/options.js';
import { TASK_FIELD, TASK_VIEW } from '../../../src/slack/tasks/ids.js';
import { choice, external, Harness, submitted, text, user, viewIdOf } from '../../helpers/slack-harness.js';

const HOSTILE = '<!channel> ping <@U2> <https://evil.test|click>';

const fill = (h: Harness, heading: string) =>
  [
    [TASK_FIELD.feature, external(h.fixture.featureId, 'Login page')],
    [FIELD.heading, text(heading)],
  ] as Parameters<Harness['submit']>[1];

describe('failures around a form', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
    await h.link();
  });
  afterEach(() => h.close());

  it('a store failure gives the form back with what was typed and one sentence; nothing is created', async () => {
    const viewId = await h.createTaskForm();
    const begin = h.store.once.begin;
    h.store.once.begin = async () => {
      throw new Error('SQLITE_READONLY: attempt to write a readonly database');
    };
    await h.submit(viewId, fill(h, 'My typed heading'));
    const back = await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes('storage problem'),
    );
    const view = JSON.stringify(back.body.view);
    expect(view).toContain('"initial_value":"My typed heading"');
    expect(view).toContain(`"callback_id":"${TASK_VIEW.create}"`);
    expect(h.sandbox.requests.count('taskCreate')).toBe(0);
    expect(h.logs.join('')).not.toContain(h.sandbox.memberToken);

    h.store.once.begin = begin;
    await h.submit(viewId, fill(h, 'My typed heading'), { hash: `${viewId}-again` });
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('created'));
    expect(await h.tasksOfFeature()).toHaveLength(1);
  });

  it('Slack failing after the task exists: told so by DM, and pressing Create again makes no second task', async () => {
    const viewId = await h.createTaskForm();
    // The form as the person pressed Create on it (the ack then shows a working view in its place).
    const form = h.slack.views.get(viewId)!;
    const update = h.slack.responder('views.update');
    h.slack.on('views.update', () => ({ httpStatus: 500 }));
    await h.submit(viewId, fill(h, 'Only once'));
    const dm = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DU1');
    expect(String(dm.body.text)).toContain('Task *Only once* created');
    // Four attempts (the WebClient's retries): the outcome is still the task, not "nothing was saved".
    expect(h.slack.called('views.update').filter((c) => c.body.view_id === viewId).length).toBeGreaterThan(1);
    expect(JSON.stringify(h.slack.calls)).not.toContain('nothing was saved');

    h.slack.on('views.update', update);
    // Create pressed again on that form: another submission of it (its own hash).
    await h.interact({
      type: 'view_submission',
      view: submitted(viewId, form, fill(h, 'Only once'), `${viewId}-again`),
    });
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes('created'),
    );
    expect(await h.tasksOfFeature()).toHaveLength(1);
    expect(h.sandbox.requests.count('taskCreate')).toBe(1);
  });

  it.each([
    ['expired_trigger_id', 'did not let me open the form in time'],
    ['ratelimited', 'limiting how fast forms open'],
  ])('views.open refused with %s: the user is told on the command’s response_url', async (error, said) => {
    h.slack.on('views.open', () => ({ ok: false, error }));
    await h.command('connect');
    const reply = await h.slack.waitFor('respond');
    expect(JSON.stringify(reply.body)).toContain(said);
    expect(reply.body.response_type).toBe('ephemeral');
    expect(h.logs.join('')).toContain(error);
  });

  it('views.open refused for a global shortcut (no response_url): the user is told by DM', async () => {
    h.slack.on('views.open', () => ({ ok: false, error: 'expired_trigger_id' }));
    await h.shortcut(GRADE_SHORTCUT.gradePeer, { fields: { response_url: undefined } });
    const dm = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DU1');
    expect(String(dm.body.text)).toContain('did not let me open the form in time');
  });

  it('a searchable select answers in time with one option saying the service is slow', async () => {
    h.sandbox.inject({ operationId: 'notions.search', delayMs: 4_000 });
    const res = await h.suggest(
      { id: 'V9', callback_id: GRADE_VIEW.grade, private_metadata: '' },
      GRADE_FIELD.notion,
      'arch',
    );
    expect(res.json()).toEqual({ options: [SLOW_OPTION] });
  });

  it('a failing service gets one attempt and one option saying so', async () => {
    // Even where the client would retry a read, a select has no time for it.
    await h.close();
    h = await Harness.start({ retries: 2 });
    await h.connect('U1', 'member');
    h.sandbox.inject({ operationId: 'notions.search', status: 503, times: 3 });
    const res = await h.suggest(
      { id: 'V9', callback_id: GRADE_VIEW.grade, private_metadata: '' },
      GRADE_FIELD.notion,
      '',
    );
    expect(res.json()).toEqual({ options: [FAILED_OPTION] });
    expect(h.sandbox.requests.count('notions.search')).toBe(1);
  });
});

describe('user text never reaches Slack as markup', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
    await h.connect('U2', 'admin');
    await h.link();
  });
  afterEach(() => h.close());

  it('the task card escapes the heading in its notification text and its blocks', async () => {
    const viewId = await h.createTaskForm();
    await h.submit(viewId, [...fill(h, HOSTILE), [TASK_FIELD.assignee, user('U2')]]);
    const card = await h.slack.waitFor('chat.postMessage');
    const escaped = '&lt;!channel&gt; ping &lt;@U2&gt; &lt;https://evil.test|click&gt;';
    expect(card.body.text).toBe(`Task: ${escaped} (idle)`);
    const blocks = JSON.stringify(card.body.blocks);
    expect(blocks).toContain(escaped);
    expect(blocks).not.toContain('<!channel>');
    expect(blocks).toContain('assigned to <@U2>');
  });

  it('the feedback DM escapes the heading and the message', async () => {
    const viewId = await h.createTaskForm();
    await h.submit(viewId, [...fill(h, HOSTILE), [TASK_FIELD.assignee, user('U2')]]);
    const card = await h.slack.waitFor('chat.postMessage');
    const coords = (card.body.metadata as { event_payload: Record<string, string> }).event_payload;
    await h.press({ channel: 'C1' }, 'feedback_open', { value: JSON.stringify(coords) });
    const open = await h.slack.waitFor('views.open', (b) =>
      JSON.stringify(b.view).includes(FEEDBACK_VIEW.feedback),
    );
    const formId = viewIdOf(open);
    await h.submit(formId, [
      [FEEDBACK_FIELD.issue, choice('value', 'Value')],
      [FEEDBACK_FIELD.message, text('<!here> look')],
    ]);
    // The assignee was told of the assignment first (made in the form): that DM escapes the heading too.
    const assigned = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DU2');
    expect(JSON.stringify(assigned.body)).toContain('assigned you');
    expect(JSON.stringify(assigned.body)).not.toContain('<!channel>');
    const dm = await h.slack.waitFor(
      'chat.postMessage',
      (b) => b.channel === 'DU2' && JSON.stringify(b.blocks).includes('gave feedback'),
    );
    expect(String(dm.body.text)).not.toContain('<!channel>');
    expect(String(dm.body.text)).toContain('&lt;!channel&gt;');
    expect(JSON.stringify(dm.body.blocks)).toContain('&lt;!here&gt; look');
    expect(JSON.stringify(dm.body.blocks)).not.toContain('<!here>');
  });

  it.each(['<!channel>', 'not-a-user', 'U2> <!here'])(
    'refuses %j as an assignee on its field, creating nothing',
    async (forged) => {
      const viewId = await h.createTaskForm();
      const res = await h.submit(viewId, [...fill(h, 'Forged'), [TASK_FIELD.assignee, user(forged)]]);
      expect(res.json()).toEqual({
        response_action: 'errors',
        errors: { [TASK_FIELD.assignee.block]: 'Choose a person from the list.' },
      });
      expect(h.sandbox.requests.count('taskCreate')).toBe(0);
    },
  );
});
