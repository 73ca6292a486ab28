/**
 * Text that shows nothing — zero-width spaces and joiners, the word joiner, direction marks,
 * embeddings and isolates, the BOM, the soft hyphen — is an empty field wherever a heading or a
 * name is required: the form says so on the field and nothing reaches the service. Real text with
 * such characters inside is kept as typed. Over signed HTTP against the sandbox: what the service
 * holds is checked, not only what the form said.
 */
import type { ViewStateValue } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_FIELD } from '../../../src/slack/account/ids.js';
import { FormRequest, formActionId } from '../../../src/slack/admin/common.js';
import { ADMIN_ACTION, ADMIN_FIELD, ADMIN_VIEW } from '../../../src/slack/admin/ids.js';
import {
  FEATURE_CARD_EVENT,
  FEATURE_FIELD,
  FEATURE_SHORTCUT,
  FEATURE_VIEW,
} from '../../../src/slack/features/ids.js';
import { FEEDBACK_FIELD, FEEDBACK_VIEW } from '../../../src/slack/feedback/ids.js';
import { GRADE_VIEW } from '../../../src/slack/grades/ids.js';
import { FIELD, type Field } from '../../../src/slack/kit/ids.js';
import { toWire } from '../../../src/slack/kit/round-trip.js';
import { TASK_ACTION, TASK_FIELD, TASK_SHORTCUT } from '../../../src/slack/tasks/ids.js';
import { STEP_PARAM, WORKFLOW_STEP } from '../../../src/slack/workflows/ids.js';
import {
  choice,
  eventually,
  external,
  Harness,
  SOURCE_TS,
  TEAM,
  text,
  viewIdOf,
} from '../../helpers/slack-harness.js';

/** Each shows nothing on its own. */
const INVISIBLE = [
  '\u200b\u200b\u200b', // zero-width spaces
  '\u200c\u200d', // zero-width non-joiner, joiner
  '\u2060\ufeff', // word joiner, BOM
  '\u200e\u200f', // left-to-right and right-to-left marks
  '\u202a\u202e\u202c', // embedding, override, pop
  '\u2066\u2069', // isolate, pop isolate
  ' \u00ad \u200b ', // soft hyphen and a zero-width space between spaces
];

const json = (v: unknown) => JSON.stringify(v);
const mark = () => h.slack.calls.length;
const callbackIs = (id: string) => (b: Record<string, unknown>) =>
  (b.view as { callback_id?: string } | undefined)?.callback_id === id;

let h: Harness;

beforeEach(async () => {
  h = await Harness.start();
  h.slack.users.set('U1', { id: 'U1', name: 'boss', isAdmin: true });
  await h.connect('U1', 'owner');
  await h.link();
});
afterEach(() => h.close());

/** Submits `viewId` and expects the error Slack shows under `field`'s block. */
async function refusedOn(viewId: string, values: [Field, ViewStateValue][], field: Field, says: string) {
  const res = await h.submit(viewId, values);
  expect(res.json()).toMatchObject({
    response_action: 'errors',
    errors: { [field.block]: expect.stringContaining(says) },
  });
}

describe('a heading of invisible characters only', () => {
  it('is an empty heading in the feature form: no feature is created, no card posted', async () => {
    const creates = h.sandbox.requests.count('featureCreate'); // the fixture's
    const since = mark();
    await h.command('feature new');
    const viewId = String(
      (await h.slack.waitFor('views.update', callbackIs(FEATURE_VIEW.feature), { since })).body.view_id,
    );
    const where: [Field, ViewStateValue][] = [
      [FIELD.team, choice(h.fixture.teamId)],
      [FIELD.channel, choice(h.fixture.channelId)],
      [FEATURE_FIELD.priority, choice('5')],
    ];
    for (const heading of INVISIBLE) {
      await refusedOn(
        viewId,
        [...where, [FIELD.heading, text(heading)]],
        FIELD.heading,
        'A feature needs a heading.',
      );
    }
    const { teamId, channelId } = h.fixture;
    expect((await h.owner().features.list(teamId, channelId)).features.map((f) => f.heading)).toEqual([
      h.fixture.featureHeading,
    ]);
    expect(h.sandbox.requests.count('featureCreate')).toBe(creates);
    expect(
      h.slack.called('chat.postMessage').filter((c) => json(c.body).includes(FEATURE_CARD_EVENT)),
    ).toEqual([]);

    // Real text with a zero-width joiner and a direction mark inside is kept as typed.
    const typed = 'Sign\u200din with \u200fpasskeys';
    await h.submit(viewId, [...where, [FIELD.heading, text(typed)]]);
    await eventually(
      async () =>
        (await h.owner().features.list(teamId, channelId)).features.some((f) => f.heading === typed),
      'the feature saved as typed',
    );
  });

  it('is an empty heading when a task is created from a message; a feedback of them is empty too', async () => {
    const viewId = await h.createTaskForm('Anything');
    const feature: [Field, ViewStateValue] = [
      TASK_FIELD.feature,
      external(h.fixture.featureId, h.fixture.featureHeading),
    ];
    await refusedOn(
      viewId,
      [feature, [FIELD.heading, text('\u2060\u200b')]],
      FIELD.heading,
      'A task needs a heading.',
    );
    expect(await h.tasksOfFeature()).toEqual([]);

    // A task to give feedback on.
    await h.submit(viewId, [feature, [FIELD.heading, text('Fix the login')]]);
    let taskId = '';
    await eventually(async () => {
      taskId = (await h.tasksOfFeature())[0]?.id ?? '';
      return taskId !== '' && (await h.store.cards.list(TEAM, 'task', taskId)).length === 1;
    }, 'the task and its card');
    const [card] = await h.store.cards.list(TEAM, 'task', taskId);
    const { teamId, channelId, featureId } = h.fixture;
    const since = mark();
    await h.press({ message: card!.messageTs }, TASK_ACTION.feedbackOpen, {
      value: json({ teamId, channelId, featureId, taskId }),
    });
    const open = await h.slack.waitFor('views.open', callbackIs(FEEDBACK_VIEW.feedback), { since });
    await refusedOn(
      viewIdOf(open),
      [
        [FEEDBACK_FIELD.issue, choice('value')],
        [FEEDBACK_FIELD.message, text('\u200b\u200c\u200d')],
      ],
      FEEDBACK_FIELD.message,
      'Write your feedback.',
    );
    expect((await h.owner().tasks.read(teamId, channelId, featureId, taskId)).minute?.feedback ?? []).toEqual(
      [],
    );
  });
});

describe('a name of invisible characters only', () => {
  /** The admin modal's form to name a new notion, as U1 (a workspace admin acting as the owner). */
  async function newNotionForm() {
    const rootId = await h.openForm(() => h.command('admin'), ADMIN_VIEW.root);
    const sectionId = await h.openForm(
      () => h.press({ view: rootId }, ADMIN_ACTION.section, { value: 'notions' }),
      ADMIN_VIEW.section,
    );
    const request: FormRequest = { form: 'newNotion' };
    return h.openForm(
      () => h.press({ view: sectionId }, formActionId(request.form), { value: toWire(FormRequest, request) }),
      ADMIN_VIEW.name,
    );
  }

  it('is an empty notion name in the admin modal: no notion is created', async () => {
    const formId = await newNotionForm();
    for (const name of INVISIBLE)
      await refusedOn(formId, [[ADMIN_FIELD.name, text(name)]], ADMIN_FIELD.name, 'Write a name.');
    expect(h.sandbox.requests.count('notionCreate')).toBe(0);
    expect((await h.owner().notions.search()).notions).toEqual([]);
  });

  it('is no notion in `/plan grade`: an invisible notion of the organization is not graded', async () => {
    // A notion named with invisible characters only, made before this rule (or elsewhere).
    await h.owner().notions.create({ value: '\u200b\u200b\u200b' });
    await h.connect('U2', 'admin');
    const since = mark();
    await h.command('grade <@U2|peer> \u200b\u200b\u200b 7');
    const said = await h.slack.waitFor('respond', undefined, { since });
    expect(json(said.body)).toContain('/plan grade @user <notion> <1-10>');
    expect(h.sandbox.requests.count('experienceEvaluatePeer')).toBe(0);
    expect(h.sandbox.requests.count('notionSearch')).toBe(0);
  });

  it('is no token in `/plan connect`', async () => {
    await h.command('connect', 'U7');
    const viewId = viewIdOf(await h.slack.waitFor('views.open'));
    const res = await h.submit(viewId, [[ACCOUNT_FIELD.token, text('\u200b\ufeff\u200b')]], { user: 'U7' });
    expect(res.json()).toMatchObject({
      response_action: 'errors',
      errors: { [ACCOUNT_FIELD.token.block]: 'Paste a token.' },
    });
    expect(await h.store.identities.get(TEAM, 'U7')).toBeUndefined();
  });
});

/** Slack's markup that renders nothing: a link labelled with blanks, emphasis of blanks. */
const SHOWS_NOTHING = [...INVISIBLE, '\u2800', '*\u200b*', '_~\u2060~_', '<https://x.test|\u200b>'];

describe('a message, a reply, a command or a step input that shows nothing', () => {
  /** The owner's task made with *Create task*, its card in C1 whose thread records replies. */
  async function taskWithThread() {
    await h.store.links.update(TEAM, 'C1', { threadDiscoveries: true });
    const made = await h.createTask('Fix the login');
    const discoveries = async () => {
      const { teamId, channelId, featureId, taskId } = made.coords;
      return (await h.owner().tasks.read(teamId, channelId, featureId, taskId)).minute?.discoveries ?? [];
    };
    return { ...made, discoveries };
  }

  /** U1's reply in the card's thread, posted in Slack and then sent as Slack's `message` event. */
  function reply(threadTs: string, text: string) {
    const ts = h.slack.workspace.post({ channel: 'C1', user: 'U1', text, threadTs }).ts;
    const event = { type: 'message', channel: 'C1', channel_type: 'channel', user: 'U1', text, ts };
    return { ts, event: { ...event, thread_ts: threadTs, event_ts: ts } };
  }

  const reactionsOn = (ts: string) => h.slack.message('C1', ts)?.reactions ?? [];
  const linesSaying = (line: string) => h.logs.filter((l) => l.includes(line)).length;

  it('is no thread reply: nothing recorded in the sandbox or the store, no :memo:, nothing said', async () => {
    const { cardTs, discoveries } = await taskWithThread();
    const since = mark();
    for (const typed of SHOWS_NOTHING) {
      const seen = linesSaying('its text shows nothing');
      const r = reply(cardTs, typed);
      expect((await h.event(r.event)).status).toBe(200);
      await eventually(
        async () => linesSaying('its text shows nothing') > seen || (await discoveries()).length > 0,
        `the reply ${json(typed)} handled`,
      );
      expect(await discoveries(), json(typed)).toEqual([]);
      expect(await h.store.threadDiscoveries.get(TEAM, 'C1', r.ts)).toBeUndefined();
      expect(reactionsOn(r.ts)).toEqual([]);
    }
    expect(h.sandbox.requests.count('taskDiscoveryCreate')).toBe(0);
    expect(h.slack.calls.slice(since).map((c) => c.method)).not.toContain('chat.postEphemeral');

    // A reply that shows something is recorded; edited to show nothing, its discovery stays as it was.
    const real = reply(cardTs, 'Safari\u00ad drops the cookie');
    await h.event(real.event);
    await eventually(async () => (await discoveries()).length === 1, 'the real reply recorded');
    const before = (await discoveries())[0]!.details;
    expect(before).toContain('Safari\u00ad drops the cookie');
    const seen = linesSaying('its text shows nothing');
    const edited = { ...real.event, text: '\u200b\u00ad' };
    await h.event({
      type: 'message',
      subtype: 'message_changed',
      channel: 'C1',
      event_ts: `${real.ts}1`,
      message: edited,
      previous_message: real.event,
    });
    await eventually(() => linesSaying('its text shows nothing') > seen, 'the edit handled');
    expect((await discoveries()).map((d) => d.details)).toEqual([before]);
    expect(h.sandbox.requests.count('taskDiscoveryUpdate')).toBe(0);
  });

  it('is no message to log as a discovery or as evidence: a sentence, nothing stored', async () => {
    const { coords, discoveries } = await taskWithThread();
    for (const [i, typed] of ['\u200b\u00ad', '<https://x.test|\u2060>'].entries()) {
      const since = mark();
      await h.shortcut(TASK_SHORTCUT.logDiscovery, {
        message: {
          type: 'message',
          user: 'U5',
          ts: `1700000100.00020${i}`,
          thread_ts: SOURCE_TS,
          text: typed,
        },
      });
      const said = await h.slack.waitFor('views.update', (b) => json(b.view).includes('shows no text'), {
        since,
      });
      expect(json(said.body.view)).toContain('nothing to log as a discovery');
      expect(h.slack.calls.slice(since).map((c) => c.method)).not.toContain('chat.getPermalink');
    }
    expect(await discoveries()).toEqual([]);

    const since = mark();
    await h.shortcut(FEATURE_SHORTCUT.logEvidence, {
      message: { type: 'message', user: 'U5', ts: '1700000200.000300', text: '*\u200b*' },
    });
    const said = await h.slack.waitFor('views.update', (b) => json(b.view).includes('shows no text'), {
      since,
    });
    expect(json(said.body.view)).toContain('nothing to log as evidence');
    const { teamId, channelId, featureId } = coords;
    const feature = await h.owner().features.read(teamId, channelId, featureId);
    expect(feature.assumptions.map((a) => a.experiment?.details ?? '')).not.toContainEqual(
      expect.stringContaining('1700000200000300'),
    );
    expect(h.sandbox.requests.count('taskDiscoveryCreate')).toBe(0);
  });

  it('is no command argument: `/plan search` asks what to look for, `/plan` alone is the help, `/plan grade` the form', async () => {
    let since = mark();
    await h.command('search \u200b\u00ad *\u200b*');
    let said = await h.slack.waitFor('respond', undefined, { since });
    expect(json(said.body)).toContain('What should I look for?');
    expect(h.sandbox.requests.count('deepContextSearch')).toBe(0);

    since = mark();
    await h.command('\u2060\u200b');
    said = await h.slack.waitFor('respond', undefined, { since });
    expect(json(said.body)).toContain('what you can do');
    expect(json(said.body)).not.toContain("I don't know");

    since = mark();
    await h.command('grade \u00ad');
    await h.slack.waitFor('views.open', callbackIs(GRADE_VIEW.grade), { since });
    expect(h.slack.calls.slice(since).map((c) => c.method)).not.toContain('respond');
  });

  it('is no workflow step input: the step fails with a sentence and nothing is created or logged', async () => {
    const { coords, discoveries } = await taskWithThread();
    const ended = (id: string) => {
      const ofIt = (b: Record<string, unknown>) => b.function_execution_id === id;
      return Promise.race([
        h.slack.waitFor('functions.completeSuccess', ofIt),
        h.slack.waitFor('functions.completeError', ofIt),
      ]);
    };
    const place = {
      [STEP_PARAM.channel]: 'C1',
      [STEP_PARAM.feature]: coords.featureId,
      [STEP_PARAM.actAs]: 'U1',
    };
    const tasksBefore = h.sandbox.requests.count('taskCreate');

    await h.stepExecuted(
      WORKFLOW_STEP.createTask,
      { ...place, [STEP_PARAM.heading]: '\u200b\u00ad' },
      'FxBlank1',
    );
    expect((await ended('FxBlank1')).body.error).toBe(
      'The step needs a heading for the task: the text it was given shows nothing (only blanks or invisible characters).',
    );
    expect(h.sandbox.requests.count('taskCreate')).toBe(tasksBefore);
    expect((await h.tasksOfFeature()).map((t) => t.heading)).toEqual(['Fix the login']);

    await h.stepExecuted(
      WORKFLOW_STEP.logDiscovery,
      { ...place, [STEP_PARAM.taskId]: coords.taskId, [STEP_PARAM.discovery]: '*\u200b* \u2800' },
      'FxBlank2',
    );
    expect((await ended('FxBlank2')).body.error).toBe(
      'The step needs the discovery to log: the text it was given shows nothing (only blanks or invisible characters).',
    );
    expect(await discoveries()).toEqual([]);
    expect(h.sandbox.requests.count('taskDiscoveryCreate')).toBe(0);
  });

  it('is no details in a form: the task is created without them', async () => {
    const { coords } = await h.createTask('Fix the export', { details: '\u200b\u00ad\u2060' });
    const { teamId, channelId, featureId, taskId } = coords;
    expect((await h.owner().tasks.read(teamId, channelId, featureId, taskId)).details ?? '').toBe('');
  });
});
