import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIGEST_EVENT_TYPE } from '../../src/digest/index.js';
import { createPlanningClient } from '../../src/planning/index.js';
import { FEATURE_ACTION } from '../../src/slack/features/ids.js';
import { TASK_ACTION, TASK_FIELD, TASK_VIEW } from '../../src/slack/tasks/ids.js';
import { Harness, TEAM, text, user } from '../helpers/slack-harness.js';

type Element = { action_id?: string; value?: string; options?: { value: string }[] };
type Block = { type: string; block_id?: string; accessory?: Element; elements?: Element[] };
type Msg = { ts: string; blocks: Block[]; text?: string; metadata?: unknown };

let h: Harness;
const json = (v: unknown) => JSON.stringify(v);
const mark = () => h.slack.calls.length;
const has = (what: string) => (b: Record<string, unknown>) => json(b).includes(what);
const next = (method: string, since: number, match: (b: Record<string, unknown>) => boolean = () => true) =>
  h.slack.waitFor(method, match, { since });
const said = (since: number, what: string) => next('respond', since, has(what));
const callbackIs = (id: string) => (b: Record<string, unknown>) =>
  (b.view as { callback_id?: string } | undefined)?.callback_id === id;

beforeEach(async () => {
  h = await Harness.start();
  await h.connect('U1', 'member');
  await h.connect('U2', 'admin');
  await h.link();
});
afterEach(() => h.close());

/** The button `actionId` of `blocks` and the block it sits in. */
function find(blocks: Block[], actionId: string): { element: Element; blockId?: string } | undefined {
  for (const b of blocks) {
    const element = [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])].find(
      (e) => e.action_id === actionId,
    );
    if (element) return { element, ...(b.block_id ? { blockId: b.block_id } : {}) };
  }
  return undefined;
}

/** A message as Slack holds it now. */
function messageAt(channel: string, ts: string): Msg {
  const m = h.slack.message(channel, ts);
  if (!m) throw new Error(`no message ${ts}`);
  return { ts, blocks: (m.blocks ?? []) as Block[], text: m.text, metadata: m.metadata };
}

const stageOf = async (featureId: string) =>
  (await h.owner().features.read(h.fixture.teamId, h.fixture.channelId, featureId)).stage;

/** A feature moved to deep context by the owner, behind Slack's back. */
async function inDeepContext(heading: string) {
  const { teamId, channelId } = h.fixture;
  const { featureId, ts } = await h.newFeature(heading);
  const owner = h.owner();
  const assm = await owner.assumptions.create(teamId, channelId, featureId, { heading: 'It matters' });
  await owner.features.advance(teamId, channelId, featureId);
  await owner.assumptions.experiment(teamId, channelId, featureId, assm.id, { state: 'done' });
  await owner.features.advance(teamId, channelId, featureId);
  await owner.features.advance(teamId, channelId, featureId);
  return { featureId, ts };
}

describe('item 2: a private surface offers a button only to whoever can use it', () => {
  it('a feature in deep context: Delete in the member’s /plan features and Details is not offered; the admin’s is', async () => {
    await inDeepContext('Audit log');
    const lists: Record<string, Msg> = {};
    for (const who of ['U1', 'U2']) {
      const since = mark();
      await h.command('features deep-context', who);
      lists[who] = {
        ts: '1700000500.000100',
        blocks: (await said(since, 'Audit log')).body.blocks as Block[],
      };
    }
    expect(find(lists.U1!.blocks, FEATURE_ACTION.delete)).toBeUndefined();
    expect(find(lists.U2!.blocks, FEATURE_ACTION.delete)).toBeDefined();

    for (const [who, offered] of [
      ['U1', false],
      ['U2', true],
    ] as const) {
      const since = mark();
      await h.press({ message: lists[who]!, ephemeral: true }, FEATURE_ACTION.details, { user: who });
      const details = await next('views.update', since, (b) => has('Audit log')(b) && has('Read-only')(b));
      expect(json(details.body.view).includes(FEATURE_ACTION.delete)).toBe(offered);
    }
  });
});

describe('item 2: a task pressed in /plan tasks', () => {
  it('becomes its card without the Delete the app would refuse: shown to an admin, not to a member who did not create it', async () => {
    const { teamId, channelId, featureId } = h.fixture;
    await h.owner().tasks.create(teamId, channelId, featureId, { heading: 'Tidy the backlog' });
    for (const [who, offered] of [
      ['U1', false],
      ['U2', true],
    ] as const) {
      let since = mark();
      await h.command('tasks backlog', who);
      const list = {
        ts: '1700000900.000100',
        blocks: (await said(since, 'Tidy the backlog')).body.blocks as Block[],
      };
      since = mark();
      await h.press({ message: list, ephemeral: true }, TASK_ACTION.stateForward, { user: who });
      const card = await next(
        'respond',
        since,
        (b) => b.replace_original === true && has('Tidy the backlog')(b),
      );
      expect(json(card.body)).toContain(TASK_ACTION.editOpen);
      expect(json(card.body).includes(TASK_ACTION.delete)).toBe(offered);
      await h.pressesSettled();
    }
  });
});

describe('item 3: forms and lists keep or redraw what they showed', () => {
  it('the Assign form that refuses a guest keeps its title, the task’s heading and the ranked candidates', async () => {
    const { cardTs } = await h.createTask('Fix the login');

    let at = mark();
    await h.press({ message: messageAt('C1', cardTs) }, TASK_ACTION.assignOpen);
    const opened = await next('views.update', at, callbackIs(TASK_VIEW.assign));
    const viewId = String(opened.body.view_id);
    const shown = (opened.body.view as { blocks: Block[]; title: unknown }).blocks;
    const candidates = json(shown.find((b) => b.block_id === TASK_FIELD.candidate.block));
    // The sandbox ranks the organization's members for the task: more than "Assign to me".
    expect(candidates).toContain('fit');

    h.slack.users.set('UG', { id: 'UG', name: 'gus', guest: 'single-channel' });
    at = mark();
    await h.submit(viewId, [[TASK_FIELD.assignee, user('UG')]]);
    const refused = await next('views.update', at, (b) => b.view_id === viewId && has(':warning:')(b));
    const again = refused.body.view as { blocks: Block[]; title: unknown; callback_id: string };
    expect(again.callback_id).toBe(TASK_VIEW.assign);
    expect(json(again.title)).toContain('Assign task');
    expect(json(again.blocks)).toContain('Who should do *Fix the login*?');
    expect(json(again.blocks.find((b) => b.block_id === TASK_FIELD.candidate.block))).toBe(candidates);
    // Nothing was assigned.
    const { teamId, channelId, featureId } = h.fixture;
    const task = (await h.owner().tasks.list(teamId, channelId, featureId)).tasks.find(
      (t) => t.heading === 'Fix the login',
    );
    expect(task?.assigneeUserId).toBeUndefined();
  });

  it('the task’s Details modal shows an edit made in the form pushed over it', async () => {
    const { teamId, channelId, featureId } = h.fixture;
    const task = await h.owner().tasks.create(teamId, channelId, featureId, { heading: 'Ship it' });
    const mine = (await h.store.identities.get(TEAM, 'U1'))!;
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: mine.token });
    await member.tasks.discoveryCreate(teamId, channelId, featureId, task.id, { details: 'First words' });
    const coords = { teamId, channelId, featureId, taskId: task.id };
    const value = JSON.stringify({ ...coords, s: 'idle', a: '' });

    let since = mark();
    await h.press({ message: { ts: '1700000600.000100', text: 'a task card' } }, TASK_ACTION.detailsOpen, {
      value,
    });
    const detailsId = String((await next('views.update', since, callbackIs(TASK_VIEW.details))).body.view_id);
    expect(json(h.slack.views.get(detailsId))).toContain('First words');

    since = mark();
    await h.press({ view: detailsId }, TASK_ACTION.minuteEditOpen);
    const editId = String((await next('views.update', since, callbackIs(TASK_VIEW.minuteEdit))).body.view_id);
    since = mark();
    await h.submit(editId, [[TASK_FIELD.minuteText, text('Better words')]]);
    await next('views.update', since, (b) => b.view_id === editId && has('is saved')(b));
    // Back in the Details: the edit is there.
    await next('views.update', since, (b) => b.view_id === detailsId && has('Better words')(b));
    expect(json(h.slack.views.get(detailsId))).not.toContain('First words');
  });

  it('/plan features: a press in the list redraws the list, with its stage filter', async () => {
    const { featureId } = await h.newFeature('Export to CSV');
    const { teamId, channelId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People export' });
    let since = mark();
    await h.command('features planning');
    const list = {
      ts: '1700000700.000100',
      blocks: (await said(since, 'Export to CSV')).body.blocks as Block[],
    };
    since = mark();
    await h.press({ message: list, ephemeral: true }, FEATURE_ACTION.advance);
    await said(since, 'is now in *Validation*');
    // The same list again (in Planning): the feature has left it; the fixture's own feature is still there.
    const redrawn = await next('respond', since, (b) => b.replace_original === true);
    expect(json(redrawn.body)).toContain('in *Planning* (1)');
    expect(json(redrawn.body)).not.toContain('Export to CSV');
    expect(await stageOf(featureId)).toBe('validation');
  });

  it('the feature’s Details modal is redrawn after a press in it', async () => {
    const { featureId } = await h.newFeature('Dark mode');
    const { teamId, channelId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    let since = mark();
    await h.command('features');
    const list = { ts: '1700000800.000100', blocks: (await said(since, 'Dark mode')).body.blocks as Block[] };
    since = mark();
    await h.press({ message: list, ephemeral: true }, FEATURE_ACTION.details);
    const detailsId = String(
      (await next('views.update', since, (b) => has('Dark mode')(b) && has(FEATURE_ACTION.advance)(b))).body
        .view_id,
    );
    since = mark();
    await h.press({ view: detailsId }, FEATURE_ACTION.advance);
    await next('views.update', since, (b) => b.view_id === detailsId && has('*:test_tube: Validation*')(b));
    expect(await stageOf(featureId)).toBe('validation');
  });
});

describe('item 4: a press on a digest makes the digest’s line true', () => {
  /** A digest the app posted in C1, listing the feature under "Can advance" as in `stage`. */
  function postedDigest(featureId: string, stage: string) {
    const { teamId, channelId } = h.fixture;
    const value = JSON.stringify({ teamId, channelId, featureId, stage });
    const blocks: Block[] = [
      {
        type: 'section',
        block_id: 'digest_can_advance',
        text: { type: 'mrkdwn', text: '*Can advance* (1)' },
      } as Block,
      {
        type: 'section',
        block_id: 'digest_can_advance_0',
        text: { type: 'mrkdwn', text: '• Search — _Planning_' },
        accessory: {
          type: 'button',
          action_id: 'digest_feature_advance',
          value,
          text: { type: 'plain_text', text: 'Advance' },
        },
      } as Block,
    ];
    const ts = h.slack.postAsBot('C1', {
      text: 'Daily planning digest',
      blocks,
      metadata: { event_type: DIGEST_EVENT_TYPE, event_payload: { local_date: '2026-11-26', channel: 'C1' } },
    });
    return ts;
  }

  it('out of date (advanced elsewhere): the line shows the stage it is in, without Advance, and the answer says so', async () => {
    const { featureId } = await h.newFeature('Search');
    const { teamId, channelId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People search' });
    const ts = postedDigest(featureId, 'planning');
    await h.owner().features.advance(teamId, channelId, featureId);

    const since = mark();
    await h.press({ message: messageAt('C1', ts) }, 'digest_feature_advance');
    const answer = await said(since, 'out of date');
    expect(json(answer.body)).toContain('Nothing was changed');
    await next('chat.update', since, (b) => b.ts === ts && has('now in _Validation_')(b));
    const digest = messageAt('C1', ts);
    expect(json(digest.blocks)).not.toContain('digest_feature_advance');
    expect(json(digest.blocks)).toContain('*Can advance* (1)');
    expect(digest.metadata).toMatchObject({ event_type: DIGEST_EVENT_TYPE });
    expect(await stageOf(featureId)).toBe('validation');
  });

  it('advanced from the digest: its line shows the new stage, so a second press is not offered', async () => {
    const { featureId } = await h.newFeature('Search');
    const { teamId, channelId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People search' });
    const ts = postedDigest(featureId, 'planning');

    const since = mark();
    await h.press({ message: messageAt('C1', ts) }, 'digest_feature_advance');
    await said(since, 'is now in *Validation*');
    await next('chat.update', since, (b) => b.ts === ts && has('now in _Validation_')(b));
    expect(json(messageAt('C1', ts).blocks)).not.toContain('digest_feature_advance');
  });
});
