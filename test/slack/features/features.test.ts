/**
 * The planning loop through Slack surfaces only, over signed HTTP against the sandbox: a feature
 * from creation to deep context, evidence logged from messages, deep context searched, read and
 * deleted, and Advance applied once however often it is pressed or retried.
 */
import type { ViewStateValue } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FeatureButtonValue } from '../../../src/slack/features/card.js';
import {
  FEATURE_ACTION,
  FEATURE_CARD_EVENT,
  FEATURE_FIELD,
  FEATURE_SHORTCUT,
  FEATURE_VIEW,
} from '../../../src/slack/features/ids.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { TASK_ACTION, TASK_FIELD, TASK_VIEW } from '../../../src/slack/tasks/ids.js';
import {
  choice,
  eventually,
  external,
  Harness,
  profilesOffered,
  TEAM,
  text,
} from '../../helpers/slack-harness.js';

let h: Harness;
const radio = (value: string): ViewStateValue => ({
  type: 'radio_buttons',
  selected_option: { value, text: { type: 'plain_text', text: value } },
});
const checked = (...values: string[]): ViewStateValue => ({
  type: 'checkboxes',
  selected_options: values.map((value) => ({ value, text: { type: 'plain_text', text: value } })),
});
const users = (...ids: string[]): ViewStateValue => ({ type: 'multi_users_select', selected_users: ids });

type Block = { type: string; block_id?: string; accessory?: Element; elements?: Element[] };
type Element = { action_id: string; value?: string; options?: { value: string }[]; confirm?: unknown };

/** The first call of `method` after `since` (an index into the recorded calls) that matches, once Slack accepted it. */
const next = (
  method: string,
  since: number,
  match: (body: Record<string, unknown>) => boolean = () => true,
) => h.slack.waitFor(method, match, { since });
const mark = () => h.slack.calls.length;
const has = (what: string) => (b: Record<string, unknown>) => JSON.stringify(b).includes(what);

/** The card in C1 as it is now in Slack: its post with the last update applied. */
function cardAt(ts: string) {
  const card = h.slack.message('C1', ts);
  if (!card) throw new Error(`no card ${ts}`);
  return {
    type: 'message',
    ts,
    blocks: (card.blocks ?? []) as Block[],
    metadata: card.metadata,
    text: card.text,
  };
}

function buttonOf(blocks: Block[], actionId: string): Element | undefined {
  return blocks
    .flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
    .find((e) => e.action_id === actionId);
}

/** Picks an option of an assumption's menu on the card. */
function menu(msg: { ts: string; blocks: Block[]; metadata?: unknown }, op: string, who = 'U1') {
  const element = buttonOf(msg.blocks, FEATURE_ACTION.assumptionMenu)!;
  const picked = element.options!.find((o) => JSON.parse(o.value).op === op)!;
  return h.choose(
    { message: msg },
    { action: FEATURE_ACTION.assumptionMenu, block: 'assm' },
    {
      type: 'overflow',
      selected_option: { ...picked, text: { type: 'plain_text', text: op } },
    } as ViewStateValue,
    { user: who },
  );
}

const said = (since: number, what: string) => next('respond', since, has(what));

async function stageOf(featureId: string) {
  const { teamId, channelId } = h.fixture;
  return (await h.owner().features.read(teamId, channelId, featureId)).stage;
}

/** `/plan feature new` in C1 (linked), filled and submitted: the feature's id and its card's ts. */
async function newFeature(heading: string) {
  const since = mark();
  await h.command('feature new');
  const viewId = await h.formShown(FEATURE_VIEW.feature, since);
  const filled = JSON.stringify(h.slack.views.get(viewId));
  // Team and channel default to the channel's link.
  expect(filled).toContain(`"value":"${h.fixture.channelId}"`);
  const res = await h.submit(viewId, [
    [FIELD.team, choice(h.fixture.teamId)],
    [FIELD.channel, choice(h.fixture.channelId)],
    [FIELD.heading, text(heading)],
    [FIELD.details, text('Customers sign in with *one* click')],
    [FEATURE_FIELD.priority, choice('7')],
    [FEATURE_FIELD.focus, radio('utilitas')],
  ]);
  expect(res.json()).toMatchObject({ response_action: 'update' });
  const posted = await next(
    'chat.postMessage',
    since,
    (b) => (b.metadata as { event_type?: string })?.event_type === FEATURE_CARD_EVENT,
  );
  expect(posted.body.channel).toBe('C1');
  const featureId = (posted.body.metadata as { event_payload: { featureId: string } }).event_payload
    .featureId;
  let ts = '';
  await eventually(async () => {
    ts = (await h.store.cards.list(TEAM, 'feature', featureId))[0]?.messageTs ?? '';
    return ts !== '';
  }, 'the card remembered');
  return { featureId, ts };
}

beforeEach(async () => {
  h = await Harness.start();
  await h.connect('U1', 'member');
  await h.connect('U2', 'admin');
  await h.link();
});
afterEach(() => h.close());

describe('one feature from creation to deep context, through Slack only', () => {
  it('walks every stage: reasons shown, refusals explained, cards updated in place', async () => {
    const { featureId, ts } = await newFeature('One-click <login>');
    const { teamId, channelId } = h.fixture;
    const saved = await h.owner().features.read(teamId, channelId, featureId);
    expect(saved).toMatchObject({
      heading: 'One-click <login>',
      priority: 7,
      focus: 'utilitas',
      stage: 'planning',
    });
    let card = cardAt(ts);
    let shown = JSON.stringify(card.blocks);
    expect(shown).toContain('One-click &lt;login&gt;');
    expect(shown).toContain('It cannot advance yet: add at least one assumption.');
    // It cannot advance: the card says why and offers no Advance (nor its confirmation) that can only fail.
    expect(buttonOf(card.blocks, FEATURE_ACTION.advance)).toBeUndefined();

    // An Advance pressed anyway (a card posted before): the service's own refusal, privately; nothing moves.
    const planningValue = JSON.stringify({ teamId, channelId, featureId, stage: 'planning' });
    let since = mark();
    await h.press({ message: card }, FEATURE_ACTION.advance, { value: planningValue });
    expect(JSON.stringify((await said(since, 'refused')).body)).toContain(
      'You must add at least 1 Assumption',
    );
    expect(await stageOf(featureId)).toBe('planning');

    // Add assumption from the card.
    since = mark();
    await h.press({ message: card }, FEATURE_ACTION.addAssumption);
    let viewId = await h.formShown(FEATURE_VIEW.assumption, since);
    await h.submit(viewId, [[FIELD.heading, text('People hate passwords')]]);
    await next('chat.update', since, (b) => b.ts === ts && has('People hate passwords')(b));
    card = cardAt(ts);
    expect(JSON.stringify(card.blocks)).toContain('Ready to advance to *Validation*');
    expect(JSON.stringify(buttonOf(card.blocks, FEATURE_ACTION.advance)?.confirm)).toContain(
      'Advance to Validation',
    );

    // Advance → validation; the card names what is missing now.
    since = mark();
    await h.press({ message: card }, FEATURE_ACTION.advance);
    await said(since, 'is now in *Validation*');
    card = cardAt(ts);
    shown = JSON.stringify(card.blocks);
    expect(shown).toContain('It cannot advance yet: 1 experiment is not done.');

    // The experiment, from the assumption's menu: done and confirmed, with a participant.
    since = mark();
    await menu(card, 'experiment');
    viewId = await h.formShown(FEATURE_VIEW.experiment, since);
    await h.submit(viewId, [
      [FEATURE_FIELD.experimentState, radio('done')],
      [FEATURE_FIELD.confirmed, checked('confirmed')],
      [FIELD.details, text('Five of six users preferred it')],
      [FEATURE_FIELD.participants, users('U2')],
    ]);
    await next('chat.update', since, (b) => b.ts === ts && has('experiment _done_ — confirmed')(b));
    const [assm] = (await h.owner().features.read(teamId, channelId, featureId)).assumptions;
    expect(assm?.experiment).toMatchObject({
      state: 'done',
      confirmed: true,
      details: 'Five of six users preferred it',
    });
    // Participants: the one picked (kept by the app) and the one who saved it (recorded by the service).
    expect(JSON.stringify(cardAt(ts).blocks)).toMatch(/confirmed · <@U2>, <@U1>/);

    // Advance → execution.
    card = cardAt(ts);
    since = mark();
    await h.press({ message: card }, FEATURE_ACTION.advance);
    await said(since, 'is now in *Execution*');

    // Add task: the create-task form with this feature chosen; its card goes in the feature card's thread.
    card = cardAt(ts);
    since = mark();
    await h.press({ message: card }, FEATURE_ACTION.addTask);
    viewId = await h.formShown(TASK_VIEW.create, since);
    expect(JSON.stringify(h.slack.views.get(viewId))).toContain(
      `"initial_option":{"text":{"type":"plain_text","text":"One-click <login>","emoji":true},"value":"${featureId}"}`,
    );
    await h.submit(viewId, [
      [TASK_FIELD.feature, external(featureId, 'One-click <login>')],
      [FIELD.heading, text('Build the button')],
    ]);
    const taskCard = await next('chat.postMessage', since, has('Build the button'));
    expect(taskCard.body).toMatchObject({ channel: 'C1', thread_ts: ts });
    await next('chat.update', since, (b) => b.ts === ts && has('1 task is not done')(b));

    // The task is done, with its card's own state buttons; the feature card counts it each time.
    const taskTs = String(taskCard.answer?.ts);
    for (const [label, counted] of [
      ['Start', '1 task is not done'],
      ['Send to review', '1 task is not done'],
      ['Mark done', 'Ready to advance'],
    ] as const) {
      const current = cardAt(taskTs);
      expect(JSON.stringify(buttonOf(current.blocks, TASK_ACTION.stateForward))).toContain(label);
      since = mark();
      await h.press({ message: current }, TASK_ACTION.stateForward);
      await next('chat.update', since, (b) => b.ts === taskTs);
      await next('chat.update', since, (b) => b.ts === ts && has(counted)(b));
      await h.pressesSettled();
    }
    const [task] = (await h.owner().tasks.list(teamId, channelId, featureId)).tasks;
    expect(task?.state).toBe('done');

    // Advance → deep context: the card is read-only, with Delete only.
    card = cardAt(ts);
    since = mark();
    await h.press({ message: card }, FEATURE_ACTION.advance);
    await said(since, 'is now in *Deep context*');
    card = cardAt(ts);
    shown = JSON.stringify(card.blocks);
    expect(shown).toContain('Read-only: it is in deep context.');
    expect(buttonOf(card.blocks, FEATURE_ACTION.advance)).toBeUndefined();
    expect(buttonOf(card.blocks, FEATURE_ACTION.delete)).toBeDefined();
    expect(await stageOf(featureId)).toBe('deep context');

    // In deep context only owners and admins delete: a member is told so, in one sentence.
    since = mark();
    await h.press({ message: card }, FEATURE_ACTION.delete);
    await said(since, 'Only owners and admins');
    expect(await stageOf(featureId)).toBe('deep context');
  });

  it('an edit arriving after the feature reached deep context is refused on the form, in the service’s words', async () => {
    const { teamId, channelId } = h.fixture;
    const { featureId, ts } = await newFeature('Dark mode');
    const owner = h.owner();
    // Opened while it could still change …
    let since = mark();
    await h.press({ message: cardAt(ts) }, FEATURE_ACTION.edit);
    const viewId = await h.formShown(FEATURE_VIEW.feature, since);
    // … and it moved on to deep context meanwhile.
    const assm = await owner.assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    await owner.features.advance(teamId, channelId, featureId);
    await owner.assumptions.experiment(teamId, channelId, featureId, assm.id, { state: 'done' });
    await owner.features.advance(teamId, channelId, featureId);
    await owner.features.advance(teamId, channelId, featureId);
    since = mark();
    await h.submit(viewId, [
      [FIELD.heading, text('Dark mode everywhere')],
      [FEATURE_FIELD.priority, choice('3')],
    ]);
    await next(
      'views.update',
      since,
      (b) => b.view_id === viewId && has('Features in deep context are read-only')(b),
    );
    expect((await owner.features.read(teamId, channelId, featureId)).heading).toBe('Dark mode');
  });
});

describe('the Edit feature form (issue 23 item 6)', () => {
  it('keeps its own title while saving and in its result: never "New feature"', async () => {
    const { teamId, channelId } = h.fixture;
    const { featureId, ts } = await newFeature('Dark mode');
    let since = mark();
    await h.press({ message: cardAt(ts) }, FEATURE_ACTION.edit);
    const viewId = await h.formShown(FEATURE_VIEW.feature, since);
    since = mark();
    const ack = await h.submit(viewId, [
      [FIELD.heading, text('Dark mode everywhere')],
      [FEATURE_FIELD.priority, choice('3')],
    ]);
    expect(ack.body).toContain('"text":"Edit feature"');
    expect(ack.body).not.toContain('New feature');
    const result = await next('views.update', since, (b) => b.view_id === viewId);
    const title = (result.body.view as { title: { text: string } }).title.text;
    expect(title).toBe('Edit feature');
    expect((await h.owner().features.read(teamId, channelId, featureId)).heading).toBe(
      'Dark mode everywhere',
    );
  });
});

describe('experiment participants', () => {
  it('are mapped to their planning accounts; someone without one stops the form, nothing saved', async () => {
    const { teamId, channelId } = h.fixture;
    const { featureId, ts } = await newFeature('Reports');
    const assm = await h
      .owner()
      .assumptions.create(teamId, channelId, featureId, { heading: 'Managers read them' });
    // A change from Slack refreshes the card, which then shows the assumption and its menu.
    let since = mark();
    await h.press({ message: cardAt(ts) }, FEATURE_ACTION.edit);
    const edit = await h.formShown(FEATURE_VIEW.feature, since);
    await h.submit(edit, [
      [FIELD.heading, text('Reports')],
      [FEATURE_FIELD.priority, choice('5')],
    ]);
    await next('chat.update', since, (b) => b.ts === ts && has('Managers read them')(b));

    since = mark();
    await menu(cardAt(ts), 'experiment');
    const viewId = await h.formShown(FEATURE_VIEW.experiment, since);
    h.slack.users.set('U7', { id: 'U7', name: 'nobody' });
    since = mark();
    await h.submit(viewId, [
      [FEATURE_FIELD.experimentState, radio('running')],
      [FEATURE_FIELD.participants, users('U7')],
    ]);
    await next(
      'views.update',
      since,
      (b) => b.view_id === viewId && has('is not connected to the planning service')(b),
    );
    const read = await h.owner().features.read(teamId, channelId, featureId);
    expect(read.assumptions[0]?.experiment?.state).toBe('idle');
    expect(await h.store.participants.get(TEAM, [assm.id])).toEqual({});

    since = mark();
    await h.submit(viewId, [
      [FEATURE_FIELD.experimentState, radio('running')],
      [FEATURE_FIELD.participants, users('U2', 'U1')],
    ]);
    await next('chat.update', since, (b) => b.ts === ts && has('experiment _running_')(b));
    expect(await h.store.participants.get(TEAM, [assm.id])).toEqual({
      [assm.id]: [h.sandbox.adminId, h.sandbox.memberId],
    });
    // The form opens again with them.
    since = mark();
    await menu(cardAt(ts), 'experiment');
    const again = await h.formShown(FEATURE_VIEW.experiment, since);
    expect(JSON.stringify(h.slack.views.get(again))).toContain('"initial_users":["U2","U1"]');
  });
});

describe('Advance is applied once', () => {
  /** A feature in validation with its experiment done and no task: two advances would reach deep context. */
  async function ready() {
    const { teamId, channelId } = h.fixture;
    const { featureId, ts } = await newFeature('Search');
    const owner = h.owner();
    const assm = await owner.assumptions.create(teamId, channelId, featureId, { heading: 'People search' });
    await owner.features.advance(teamId, channelId, featureId);
    await owner.assumptions.experiment(teamId, channelId, featureId, assm.id, { state: 'done' });
    // The card is refreshed by a change from Slack: an edit keeps it showing validation.
    const since = mark();
    await h.press({ message: cardAt(ts) }, FEATURE_ACTION.edit);
    const viewId = await h.formShown(FEATURE_VIEW.feature, since);
    await h.submit(viewId, [
      [FIELD.heading, text('Search')],
      [FEATURE_FIELD.priority, choice('5')],
    ]);
    await next('chat.update', since, (b) => b.ts === ts && has('Ready to advance to *Execution*')(b));
    return { featureId, ts };
  }

  it('a press retried by Slack, and a double click, advance one stage', async () => {
    const { featureId, ts } = await ready();
    const card = cardAt(ts);
    const since = mark();
    const results = await Promise.allSettled([
      h.press({ message: card }, FEATURE_ACTION.advance),
      h.press({ message: card }, FEATURE_ACTION.advance, {
        headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    await said(since, 'is now in *Execution*');
    await eventually(
      () => h.slack.calls.slice(since).filter((c) => c.method === 'respond').length >= 2,
      'both presses answered',
    );
    const answers = h.slack.calls
      .slice(since)
      .filter((c) => c.method === 'respond')
      .map((c) => JSON.stringify(c.body));
    expect(answers.some((a) => a.includes('out of date') || a.includes('still being applied'))).toBe(true);
    expect(await stageOf(featureId)).toBe('execution');

    // Pressed again later on the same (stale) card: refreshed, not advanced.
    const later = mark();
    await h.press({ message: card }, FEATURE_ACTION.advance);
    await said(later, 'out of date');
    expect(await stageOf(featureId)).toBe('execution');
  });

  it('the digest’s Advance button goes through the same press: confirmed, applied once', async () => {
    const { featureId, ts } = await ready();
    const { teamId, channelId } = h.fixture;
    const value = JSON.stringify({ teamId, channelId, featureId, stage: 'validation' });
    const digest = {
      ts: '1700000009.000100',
      blocks: [{ type: 'section', accessory: { action_id: 'digest_feature_advance', value } }] as Block[],
    };
    let since = mark();
    // Pressed by an admin: the feature's author (U1) hears of it in a DM.
    await h.press({ message: digest }, 'digest_feature_advance', { user: 'U2' });
    await said(since, 'is now in *Execution*');
    const dm = await next('chat.postMessage', since, (b) => b.channel === 'DU1');
    expect(JSON.stringify(dm.body)).toContain(
      'Your feature *Search* moved to *Execution* (advanced by <@U2>)',
    );
    expect(profilesOffered(dm.body.blocks)).toEqual(['U2']);
    // The feature's card shows it too.
    await next('chat.update', since, (b) => b.ts === ts && has('Execution*')(b));
    since = mark();
    await h.press({ message: digest }, 'digest_feature_advance');
    await said(since, 'out of date');
    expect(await stageOf(featureId)).toBe('execution');
  });
});

describe('Log as evidence', () => {
  async function withAssumption() {
    const { featureId, ts } = await newFeature('Passkeys');
    const since = mark();
    await h.press({ message: cardAt(ts) }, FEATURE_ACTION.addAssumption);
    const viewId = await h.formShown(FEATURE_VIEW.assumption, since);
    await h.submit(viewId, [[FIELD.heading, text('Users have passkey devices')]]);
    await next('chat.update', since, (b) => b.ts === ts && has('passkey devices')(b));
    const { teamId, channelId } = h.fixture;
    const [assm] = (await h.owner().features.read(teamId, channelId, featureId)).assumptions;
    return { featureId, ts, assmId: assm!.id };
  }

  it('from a feature card’s thread the feature is known; from a plain message it is picked', async () => {
    const { featureId, ts, assmId } = await withAssumption();
    const { teamId, channelId } = h.fixture;

    // In the card's thread.
    let since = mark();
    await h.shortcut(FEATURE_SHORTCUT.logEvidence, {
      message: {
        type: 'message',
        user: 'U9',
        ts: '1700000100.000200',
        thread_ts: ts,
        text: '9 of 10 have one',
      },
    });
    let viewId = await h.formShown(FEATURE_VIEW.evidence, since);
    let view = JSON.stringify(h.slack.views.get(viewId));
    expect(view).toContain('For the feature *Passkeys*');
    expect(view).not.toContain(FEATURE_FIELD.evidenceFeature.block);
    // The assumption select says how much its details can still take.
    const options = await h.suggest(viewId, FEATURE_FIELD.assumption, '');
    expect(options.body).toContain('2048 chars left');
    const kept = '9 of 10 have one\n\nhttps://slack.test/archives/C1/p1700000100000200';
    expect(view).toContain(JSON.stringify(kept).slice(1, -1));
    await h.submit(viewId, [
      [FEATURE_FIELD.assumption, external(assmId)],
      [FIELD.details, text(kept)],
    ]);
    await next('views.update', since, (b) => b.view_id === viewId && has('Logged as evidence')(b));

    // A plain message elsewhere in the linked channel: feature and assumption picked.
    since = mark();
    await h.shortcut(FEATURE_SHORTCUT.logEvidence, {
      message: {
        type: 'message',
        user: 'U8',
        ts: '1700000200.000300',
        text: 'Survey: most use a phone',
      },
    });
    viewId = await h.formShown(FEATURE_VIEW.evidence, since);
    view = JSON.stringify(h.slack.views.get(viewId));
    expect(view).toContain(FEATURE_FIELD.evidenceFeature.block);
    const second = 'Survey: most use a phone\n\nhttps://slack.test/archives/C1/p1700000200000300';
    await h.submit(viewId, [
      [FEATURE_FIELD.evidenceFeature, external(featureId, 'Passkeys')],
      [FEATURE_FIELD.assumption, external(assmId)],
      [FIELD.details, text(second)],
    ]);
    await next('views.update', since, (b) => b.view_id === viewId && has('Logged as evidence')(b));
    const [assm] = (await h.owner().features.read(teamId, channelId, featureId)).assumptions;
    expect(assm?.experiment?.details).toBe(`${kept}\n\n${second}`);
  });

  it('refuses to pick nothing, and keeps the link when the details are nearly full', async () => {
    const { featureId, ts, assmId } = await withAssumption();
    const { teamId, channelId } = h.fixture;
    await h
      .owner()
      .assumptions.experiment(teamId, channelId, featureId, assmId, { details: 'x'.repeat(2000) });
    let since = mark();
    await h.shortcut(FEATURE_SHORTCUT.logEvidence, {
      message: { ts: '1700000300.000100', thread_ts: ts, text: 'y'.repeat(300) },
    });
    const viewId = await h.formShown(FEATURE_VIEW.evidence, since);
    const empty = await h.submit(viewId, [[FIELD.details, text('z')]]);
    expect(empty.json()).toMatchObject({
      response_action: 'errors',
      errors: { [FEATURE_FIELD.assumption.block]: 'Choose the assumption.' },
    });
    const link = 'https://slack.test/archives/C1/p1700000300000100';
    const evidence = [
      [FEATURE_FIELD.assumption, external(assmId)],
      [FIELD.details, text(`${'y'.repeat(300)}\n\n${link}`)],
    ] as Parameters<Harness['submit']>[1];
    // Not even the link fits in what is left: the form says so, nothing is changed.
    since = mark();
    await h.submit(viewId, evidence);
    await next('views.update', since, (b) => b.view_id === viewId && has('details are full')(b));
    expect(
      (await h.owner().features.read(teamId, channelId, featureId)).assumptions[0]?.experiment?.details,
    ).toBe('x'.repeat(2000));

    // With room for the link and some text: the text is cut, the link kept, 2048 characters at most.
    await h
      .owner()
      .assumptions.experiment(teamId, channelId, featureId, assmId, { details: 'x'.repeat(1900) });
    since = mark();
    await h.submit(viewId, evidence);
    await next('views.update', since, (b) => b.view_id === viewId && has('Logged as evidence')(b));
    const details =
      (await h.owner().features.read(teamId, channelId, featureId)).assumptions[0]?.experiment?.details ?? '';
    expect(Array.from(details).length).toBe(2048);
    expect(details.endsWith(`…\n\n${link}`)).toBe(true);
    expect(details.startsWith(`${'x'.repeat(1900)}\n\nyyy`)).toBe(true);
  });
});

describe('deep context: search, read, delete', () => {
  async function inDeepContext(heading: string) {
    const { teamId, channelId } = h.fixture;
    const { featureId, ts } = await newFeature(heading);
    const owner = h.owner();
    const assm = await owner.assumptions.create(teamId, channelId, featureId, { heading: 'It matters' });
    await owner.features.advance(teamId, channelId, featureId);
    await owner.assumptions.experiment(teamId, channelId, featureId, assm.id, {
      state: 'done',
      details: 'We asked 12 people',
    });
    await owner.features.advance(teamId, channelId, featureId);
    await owner.features.advance(teamId, channelId, featureId);
    return { featureId, ts };
  }

  it('finds a finished feature, reads it in a modal; a member may not delete it, an admin may', async () => {
    const { featureId, ts } = await inDeepContext('Audit <log>');
    let since = mark();
    await h.command('search audit');
    const mine = (await said(since, 'Deep context')).body.blocks as Block[];
    expect(JSON.stringify(mine)).toContain('Audit &lt;log&gt;');
    // The results are the member's alone: no Delete they could only be refused.
    expect(buttonOf(mine, FEATURE_ACTION.delete)).toBeUndefined();
    since = mark();
    await h.command('search audit', 'U2');
    const blocks = (await said(since, 'Deep context')).body.blocks as Block[];
    expect(buttonOf(blocks, FEATURE_ACTION.delete)).toBeDefined();
    const list = { ts: '1700000400.000100', blocks };

    since = mark();
    await h.press({ message: list, ephemeral: true }, FEATURE_ACTION.deepContextRead);
    const read = await next('views.update', since, has('We asked 12 people'));
    expect(JSON.stringify(read.body.view)).toContain('Audit &lt;log&gt;');

    // A member pressing a Delete anyway (the admin's, or the shared card's): refused in one sentence, nothing deleted.
    since = mark();
    await h.press({ message: list, ephemeral: true }, FEATURE_ACTION.delete);
    await said(since, 'Only owners and admins of your organization can delete a feature in deep context.');
    expect(await stageOf(featureId)).toBe('deep context');

    // An admin: deleted, and the feature's card says so.
    since = mark();
    await h.press({ message: list, ephemeral: true }, FEATURE_ACTION.delete, { user: 'U2' });
    await said(since, 'was deleted');
    await next('chat.update', since, (b) => b.ts === ts && has('This feature was deleted')(b));
    await expect(h.owner().deepContext.read(featureId)).rejects.toThrow(/not-found|404/);
    expect(await h.store.cards.list(TEAM, 'feature', featureId)).toEqual([]);
  });

  it('answers an over-long search with the limit, never "nothing was saved" for a read (issue 23 item 6)', async () => {
    const since = mark();
    await h.command(`search ${'a'.repeat(300)}`);
    const answer = await said(since, 'A search has at most 256 characters; yours has 300.');
    expect(JSON.stringify(answer.body)).not.toContain('nothing was saved');
    expect(JSON.stringify(answer.body)).not.toContain('searchTerm');
  });

  it('answers an empty search with how to use it', async () => {
    const since = mark();
    await h.command('search');
    await said(since, 'What should I look for?');
  });
});

describe('/plan features and the New feature shortcut', () => {
  it('lists the linked channel’s features by stage with their buttons; a bad stage is explained', async () => {
    const { featureId } = await newFeature('Export to CSV');
    let since = mark();
    await h.command('features planning');
    let list = await said(since, 'Export to CSV');
    expect(JSON.stringify(list.body)).toContain(FEATURE_ACTION.edit);
    // It cannot advance yet: the list says why, and offers no Advance.
    expect(JSON.stringify(list.body)).not.toContain(FEATURE_ACTION.advance);
    const { teamId, channelId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People export' });
    since = mark();
    await h.command('features planning');
    list = await said(since, 'Export to CSV');
    expect(JSON.stringify(list.body)).toContain(FEATURE_ACTION.advance);
    since = mark();
    await h.command('features execution');
    await said(since, '(0)');
    since = mark();
    await h.command('features later');
    await said(since, 'is not a stage');
  });

  it('the global shortcut asks for team and channel, checks the form, and posts the card in the linked channel', async () => {
    const since = mark();
    await h.shortcut(FEATURE_SHORTCUT.newFeature);
    const viewId = await h.formShown(FEATURE_VIEW.feature, since);
    const bad = await h.submit(viewId, [
      [FIELD.heading, text('x'.repeat(201))],
      [FEATURE_FIELD.priority, choice('5')],
    ]);
    expect(bad.json()).toMatchObject({ response_action: 'errors' });
    const errors = (bad.json() as { errors: Record<string, string> }).errors;
    expect(Object.values(errors)).toContain('Choose a planning team.');
    await h.submit(viewId, [
      [FIELD.team, choice(h.fixture.teamId)],
      [FIELD.channel, choice(h.fixture.channelId)],
      [FIELD.heading, text('Offline mode')],
      [FEATURE_FIELD.priority, choice('2')],
    ]);
    const posted = await next('chat.postMessage', since, has('Offline mode'));
    expect(posted.body.channel).toBe('C1');
    expect(
      FeatureButtonValue.safeParse(
        JSON.parse(buttonOf(posted.body.blocks as Block[], FEATURE_ACTION.edit)!.value!),
      ).success,
    ).toBe(true);
  });
});
