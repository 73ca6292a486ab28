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
import { FEATURE_CARD_EVENT, FEATURE_FIELD, FEATURE_VIEW } from '../../../src/slack/features/ids.js';
import { FEEDBACK_FIELD, FEEDBACK_VIEW } from '../../../src/slack/feedback/ids.js';
import { FIELD, type Field } from '../../../src/slack/kit/ids.js';
import { toWire } from '../../../src/slack/kit/round-trip.js';
import { TASK_ACTION, TASK_FIELD } from '../../../src/slack/tasks/ids.js';
import { choice, eventually, external, Harness, TEAM, text, viewIdOf } from '../../helpers/slack-harness.js';

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
