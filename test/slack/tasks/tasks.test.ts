/**
 * Tasks in Slack, end to end over signed HTTP against the sandbox: the live card's buttons (state,
 * Assign…, Log discovery, Details, Edit, Delete), the Log discovery shortcut, the minutes' own
 * entries, `/plan tasks` with paging, the DMs a change sends, and presses applied once.
 */
import type { ViewStateValue } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FEEDBACK_FIELD, FEEDBACK_VIEW } from '../../../src/slack/feedback/ids.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { ASSIGN_ME, ASSIGN_SOMEONE } from '../../../src/slack/tasks/assign.js';
import { TASK_ACTION, TASK_FIELD, TASK_SHORTCUT, TASK_VIEW } from '../../../src/slack/tasks/ids.js';
import { TASKS_PAGE_SIZE } from '../../../src/slack/tasks/list.js';
import {
  eventually,
  external,
  Harness,
  profilesOffered,
  SOURCE_TS,
  submitted,
  TEAM,
  text,
  viewIdOf,
} from '../../helpers/slack-harness.js';

interface Block {
  type: string;
  block_id?: string;
  elements?: { action_id?: string; value?: string; text?: { text: string } }[];
  element?: { options?: { value: string; text: { text: string } }[] };
}

/** The message tasks are created from (the harness's `createTask`). */
const ORIGIN = { channel: 'C1', ts: SOURCE_TS };
const json = (v: unknown) => JSON.stringify(v);

let h: Harness;
let coords: { teamId: string; channelId: string; featureId: string; taskId: string };
/** The thread card's ts (its chat.postMessage answer). */
let cardTs: string;

/** The blocks of the last message or update the app sent for the card at `ts`. */
function lastCard(ts = cardTs): Block[] {
  const sent = h.slack.calls.filter(
    (c) =>
      (c.method === 'chat.update' && c.body.ts === ts) ||
      (c.method === 'chat.postMessage' && c.body.thread_ts === ORIGIN.ts && c.body.metadata),
  );
  return (sent.at(-1)?.body.blocks ?? []) as Block[];
}

function buttonOf(blocks: Block[], actionId: string) {
  for (const b of blocks) {
    const found = b.elements?.find((e) => e.action_id === actionId);
    if (found) return found;
  }
  throw new Error(`no ${actionId} button in ${json(blocks).slice(0, 400)}`);
}

/** Waits until no press holds a task's lock (the press is over, its answer sent). */
const settled = () => h.pressesSettled();

const readTask = () => h.owner().tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
const said = (what: string) => h.slack.waitFor('respond', (b) => json(b).includes(what));
/** The modal filled after its loading view, found by callback id. */
const filled = (callbackId: string) =>
  h.slack.waitFor('views.update', (b) => (b.view as { callback_id?: string }).callback_id === callbackId);

beforeEach(async () => {
  h = await Harness.start();
  await h.connect('U1', 'member');
  await h.connect('U2', 'admin');
  await h.connect('U3', 'owner');
  await h.link();
});
afterEach(() => h.close());

describe('the live task card', () => {
  it('a state change is applied once and reflected on every posted card; retries and double clicks change nothing more', async () => {
    ({ coords, cardTs } = await h.createTask());
    // A copy of the card posted elsewhere (e.g. in a channel list) is remembered too.
    const copy = h.slack.message('C1', cardTs)!;
    const copyTs = h.slack.postAsBot('C2', { text: copy.text, blocks: copy.blocks ?? [] });
    await h.store.cards.record({
      workspaceId: TEAM,
      kind: 'task',
      entityId: coords.taskId,
      slackChannelId: 'C2',
      messageTs: copyTs,
    });
    const start = buttonOf(lastCard(), TASK_ACTION.stateForward);
    expect(start.text?.text).toBe('Start');

    const pressStart = (headers: Record<string, string> = {}) =>
      h.press({ message: cardTs }, start, { headers });
    expect((await pressStart()).status).toBe(200);
    await eventually(async () => (await readTask()).state === 'in progress', 'the task started');
    const updated = await h.slack.waitFor('chat.update', (b) => b.ts === copyTs);
    expect(json(updated.body.blocks)).toContain('in progress');
    await h.slack.waitFor('chat.update', (b) => b.ts === cardTs && json(b.blocks).includes('Send to review'));

    // Slack's retry of the same press, and a second click on the same (now stale) card.
    await pressStart({ 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' });
    await pressStart();
    await said('out of date');
    expect(h.sandbox.requests.count('taskUpdate')).toBe(1);
    expect((await readTask()).state).toBe('in progress');
  });

  it("a press reads the task's cards and its feature's once, and updates each card once", async () => {
    ({ coords, cardTs } = await h.createTask());
    const listed = vi.spyOn(h.store.cards, 'list');
    const listedTogether = vi.spyOn(h.store.cards, 'listWithFeature');
    const updates = () =>
      h.slack.calls.filter((c) => c.method === 'chat.update' && c.body.ts === cardTs).length;
    const before = updates();
    await h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.stateForward));
    await h.slack.waitFor('chat.update', (b) => b.ts === cardTs && json(b.blocks).includes('Send to review'));
    await settled();
    expect(listedTogether).toHaveBeenCalledTimes(1);
    expect(listedTogether).toHaveBeenCalledWith(TEAM, 'task', coords.taskId, coords.featureId);
    // Neither the press nor the change funnel lists them again.
    expect(listed).not.toHaveBeenCalled();
    expect(updates() - before).toBe(1);
  });

  it('walks the states forward and back, and a 403 is explained in one private sentence naming the rule', async () => {
    ({ coords, cardTs } = await h.createTask());
    const step = async (actionId: string, shows: string) => {
      const before = h.slack.called('chat.update').length;
      await h.press({ message: cardTs }, buttonOf(lastCard(), actionId));
      await eventually(
        () =>
          h.slack
            .called('chat.update')
            .slice(before)
            .some((c) => json(c.body.blocks).includes(shows)),
        shows,
      );
      await settled();
    };
    await step(TASK_ACTION.stateForward, 'Send to review');
    await step(TASK_ACTION.stateForward, 'Mark done');
    expect((await readTask()).state).toBe('in review');
    await step(TASK_ACTION.stateBack, 'Back to idle');
    expect((await readTask()).state).toBe('in progress');

    const updates = h.slack.called('chat.update').length;
    h.sandbox.inject({
      operationId: 'taskUpdate',
      status: 403,
      body: { id: 'not-allowed', message: 'Features in deep context are read-only' },
    });
    await h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.stateForward));
    const refusal = await said('refused');
    expect(json(refusal.body)).toContain('Features in deep context are read-only');
    expect(h.slack.called('chat.update')).toHaveLength(updates);
    expect((await readTask()).state).toBe('in progress');
  });

  it('a press on a stale card refreshes it and says what changed instead of applying', async () => {
    ({ coords, cardTs } = await h.createTask());
    const start = buttonOf(lastCard(), TASK_ACTION.stateForward);
    await h
      .owner()
      .tasks.update(coords.teamId, coords.channelId, coords.featureId, coords.taskId, { state: 'in review' });
    await h.press({ message: cardTs }, start);
    const told = await said('out of date');
    expect(json(told.body)).toContain('it is now *in review* (it was *idle*)');
    await h.slack.waitFor('chat.update', (b) => b.ts === cardTs && json(b.blocks).includes('Mark done'));
    expect((await readTask()).state).toBe('in review');
    expect(h.sandbox.requests.count('taskUpdate')).toBe(1); // the owner's only
  });

  it('a task deleted elsewhere turns its card into one line', async () => {
    ({ coords, cardTs } = await h.createTask());
    const start = buttonOf(lastCard(), TASK_ACTION.stateForward);
    await h.owner().tasks.delete(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
    await h.press({ message: cardTs }, start);
    const update = await h.slack.waitFor('chat.update', (b) => b.ts === cardTs);
    expect(update.body.blocks).toHaveLength(1);
    expect(json(update.body)).toContain('This task was deleted');
    await settled();
    expect(await h.store.cards.list(TEAM, 'task', coords.taskId)).toEqual([]);
  });

  it('moving the task to review DMs its assignee, and done DMs its author, naming who acted with a link to the card', async () => {
    ({ coords, cardTs } = await h.createTask());
    await h
      .owner()
      .tasks.assign(coords.teamId, coords.channelId, coords.featureId, coords.taskId, h.sandbox.ownerId);
    await h.owner().tasks.update(coords.teamId, coords.channelId, coords.featureId, coords.taskId, {
      state: 'in progress',
    });
    // U2 presses on a card showing the task as it is now (U3, the owner, is its assignee).
    await h.press({ message: cardTs }, TASK_ACTION.stateForward, {
      value: json({ ...coords, s: 'in progress', a: h.sandbox.ownerId, to: 'in review' }),
      user: 'U2',
    });
    const dm = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DU3');
    await settled();
    expect(json(dm.body)).toContain('<@U2> moved your task *Fix the login* to *in review*');
    expect(json(dm.body)).toContain('Open the card');
    // Who acted is named: their planning profile is one press away.
    expect(profilesOffered(dm.body.blocks)).toEqual(['U2']);
    await h.press({ message: cardTs }, TASK_ACTION.stateForward, {
      value: json({ ...coords, s: 'in review', a: h.sandbox.ownerId, to: 'done' }),
      user: 'U2',
    });
    const done = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DU1');
    expect(json(done.body)).toContain('<@U2> marked your task *Fix the login* done');
    expect(profilesOffered(done.body.blocks)).toEqual(['U2']);
  });
});

describe('Give feedback from the card', () => {
  it('the card counts the feedback, waiting for a reply', async () => {
    ({ coords, cardTs } = await h.createTask());
    await h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.feedbackOpen));
    const open = await h.slack.waitFor(
      'views.open',
      (b) => (b.view as { callback_id?: string }).callback_id === FEEDBACK_VIEW.feedback,
    );
    const viewId = viewIdOf(open);
    await h.submit(viewId, [
      [
        FEEDBACK_FIELD.issue,
        {
          type: 'static_select',
          selected_option: { value: 'testing', text: { type: 'plain_text', text: 'Testing' } },
        } as ViewStateValue,
      ],
      [FEEDBACK_FIELD.message, text('Needs a test')],
    ]);
    await h.slack.waitFor(
      'chat.update',
      (b) => b.ts === cardTs && json(b.blocks).includes('1 feedback (0 answered, 1 waiting)'),
    );
  });
});

describe('Assign…', () => {
  it('lists the candidates by fit in plain language, and assigns the top one; the assignee is told', async () => {
    ({ coords, cardTs } = await h.createTask());
    const { teamId, channelId } = h.fixture;
    for (const id of [h.sandbox.memberId, h.sandbox.adminId]) {
      await h.owner().teams.assign(teamId, id);
      await h.owner().channels.assign(teamId, channelId, id);
    }
    await h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.assignOpen));
    const form = await filled(TASK_VIEW.assign);
    const options = ((form.body.view as { blocks: Block[] }).blocks.find(
      (b) => b.block_id === TASK_FIELD.candidate.block,
    )?.element?.options ?? []) as { value: string; text: { text: string } }[];
    expect(options[0]).toMatchObject({ value: ASSIGN_ME, text: { text: 'Assign to me' } });
    const { candidates } = await h
      .owner()
      .tasks.listCandidates(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
    expect(candidates.length).toBeGreaterThan(0);
    const top = [...candidates].sort((a, b) => (b.ydScore ?? 0) - (a.ydScore ?? 0))[0]!;
    expect(options[1]?.value).toBe(top.userId);
    expect(options[1]?.text.text).toMatch(/(great|good|weak) fit \(\d+\) · \d+ features? on their plate/);

    const viewId = String(form.body.view_id);
    await h.submit(viewId, [
      [TASK_FIELD.candidate, { type: 'static_select', selected_option: options[1]! } as ViewStateValue],
    ]);
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && json(b.view).includes('is assigned to'),
    );
    expect((await readTask()).assigneeUserId).toBe(top.userId);
    const slackOfTop = (await h.store.identities.findByPlanningUsers(TEAM, [top.userId]))[0]?.slackUserId;
    await h.slack.waitFor(
      'chat.update',
      (b) => b.ts === cardTs && json(b.blocks).includes(`<@${slackOfTop}>`),
    );
    const dms = h.slack.called('chat.postMessage').filter((c) => String(c.body.channel).startsWith('D'));
    if (slackOfTop && slackOfTop !== 'U1') {
      const dm = await h.slack.waitFor('chat.postMessage', (b) => b.channel === `D${slackOfTop}`);
      expect(json(dm.body)).toContain('<@U1> assigned you the task');
      expect(profilesOffered(dm.body.blocks)).toEqual(['U1']);
    } else {
      expect(dms).toEqual([]); // assigning oneself tells nobody
    }
  });

  it('"Assign to me" assigns the presser and sends nobody a DM; choosing nobody is refused on the field', async () => {
    ({ coords, cardTs } = await h.createTask());
    await h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.assignOpen));
    const viewId = String((await filled(TASK_VIEW.assign)).body.view_id);
    const none = await h.submit(viewId, []);
    expect(none.json()).toMatchObject({
      response_action: 'errors',
      errors: { [TASK_FIELD.candidate.block]: expect.any(String) },
    });
    await h.submit(viewId, [
      [
        TASK_FIELD.candidate,
        {
          type: 'static_select',
          selected_option: { value: ASSIGN_ME, text: { type: 'plain_text', text: 'Assign to me' } },
        } as ViewStateValue,
      ],
    ]);
    await eventually(async () => (await readTask()).assigneeUserId === h.sandbox.memberId, 'assigned to U1');
    expect(h.slack.called('chat.postMessage').filter((c) => String(c.body.channel).startsWith('D'))).toEqual(
      [],
    );
  });

  it('asks who as one required choice — no "(optional)" — and someone else with a required picker; neither is refused on its field (issue 23 item 6)', async () => {
    ({ coords, cardTs } = await h.createTask());
    const before = (await readTask()).assigneeUserId;
    await h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.assignOpen));
    const opened = await filled(TASK_VIEW.assign);
    const viewId = String(opened.body.view_id);
    const form = opened.body.view as {
      blocks: (Block & { optional?: boolean; dispatch_action?: boolean })[];
    };
    const inputs = form.blocks.filter((b) => b.type === 'input');
    expect(inputs.map((b) => b.block_id)).toEqual([TASK_FIELD.candidate.block]);
    expect(inputs.every((b) => !b.optional)).toBe(true);
    expect(inputs[0]?.dispatch_action).toBe(true);
    const options = (inputs[0]?.element?.options ?? []) as { value: string }[];
    expect(options.at(-1)?.value).toBe(ASSIGN_SOMEONE);

    // Nothing picked: refused on the choice, nothing assigned.
    const none = await h.submit(viewId, []);
    expect(none.json()).toMatchObject({
      response_action: 'errors',
      errors: { [TASK_FIELD.candidate.block]: expect.any(String) },
    });

    // "Someone else in the workspace…": the form shows a required people picker under the choice.
    const someone = {
      type: 'static_select',
      selected_option: { value: ASSIGN_SOMEONE, text: { type: 'plain_text', text: 'Someone else' } },
    } as ViewStateValue;
    await h.choose({ view: viewId }, TASK_FIELD.candidate, someone);
    const redrawn = await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && json(b.view).includes(TASK_FIELD.assignee.action),
    );
    const picker = (redrawn.body.view as { blocks: (Block & { optional?: boolean })[] }).blocks.find(
      (b) => b.block_id === TASK_FIELD.assignee.block,
    );
    expect(picker?.optional).toBeUndefined();
    // The ranked candidates are still there, not read again.
    expect(json(redrawn.body.view)).toContain(json(options));

    const nobody = await h.submit(viewId, [[TASK_FIELD.candidate, someone]]);
    expect(nobody.json()).toMatchObject({
      response_action: 'errors',
      errors: { [TASK_FIELD.assignee.block]: 'Pick someone in the workspace.' },
    });
    expect((await readTask()).assigneeUserId).toBe(before);
  });
});

describe('Log discovery', () => {
  it('from a message in the task card thread: the task is known, the text and permalink prefilled, confirmed in the thread, counted on the card', async () => {
    ({ coords, cardTs } = await h.createTask());
    const msg = {
      type: 'message',
      user: 'U5',
      ts: '1700000100.000200',
      thread_ts: ORIGIN.ts,
      text: 'Safari drops the cookie',
    };
    await h.shortcut(TASK_SHORTCUT.logDiscovery, { message: msg });
    const form = await filled(TASK_VIEW.discovery);
    const view = json(form.body.view);
    expect(view).toContain('On task *Fix the login*');
    expect(view).toContain('Safari drops the cookie\\n\\nhttps://slack.test/archives/C1/p1700000100000200');
    const viewId = String(form.body.view_id);
    const payload = {
      type: 'view_submission',
      view: submitted(viewId, h.slack.views.get(viewId)!, [
        [TASK_FIELD.discovery, text('Safari drops the cookie')],
      ]),
    };
    await h.interact(payload);
    await h.interact(payload, 'U1', { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' });
    const confirm = await h.slack.waitFor(
      'chat.postMessage',
      (b) => b.thread_ts === ORIGIN.ts && json(b).includes('logged a discovery'),
    );
    expect(confirm.body.channel).toBe('C1');
    await h.slack.waitFor('chat.update', (b) => b.ts === cardTs && json(b.blocks).includes('1 discovery'));
    expect((await readTask()).minute?.discoveries.map((d) => d.details)).toEqual(['Safari drops the cookie']);
    expect(h.sandbox.requests.count('taskDiscoveryCreate')).toBe(1);
  });

  it('from a plain message in the linked channel: the user picks the task in a searchable select', async () => {
    ({ coords, cardTs } = await h.createTask());
    const long = 'x'.repeat(600);
    const msg = { type: 'message', user: 'U5', ts: '1700000200.000300', text: long };
    await h.shortcut(TASK_SHORTCUT.logDiscovery, { message: msg });
    const form = await filled(TASK_VIEW.discovery);
    const view = form.body.view as { blocks: { block_id?: string; element?: { initial_value?: string } }[] };
    const prefilled =
      view.blocks.find((b) => b.block_id === TASK_FIELD.discovery.block)?.element?.initial_value ?? '';
    expect(Array.from(prefilled).length).toBeLessThanOrEqual(512);
    expect(prefilled.endsWith('https://slack.test/archives/C1/p1700000200000300')).toBe(true);
    const viewId = String(form.body.view_id);

    // The select searches the linked channel's tasks.
    const options = await h.suggest(viewId, TASK_FIELD.discoveryTask, 'login');
    const found = (options.json().options ?? []) as { value: string; text: { text: string } }[];
    expect(found.map((o) => o.value)).toEqual([`${coords.featureId}|${coords.taskId}`]);

    const noTask = await h.submit(viewId, [[TASK_FIELD.discovery, text('Seen twice')]]);
    expect(noTask.json()).toMatchObject({
      response_action: 'errors',
      errors: { [TASK_FIELD.discoveryTask.block]: 'Choose a task.' },
    });
    await h.submit(viewId, [
      [TASK_FIELD.discoveryTask, external(found[0]!.value, found[0]!.text.text)],
      [TASK_FIELD.discovery, text('Seen twice')],
    ]);
    await h.slack.waitFor(
      'chat.postMessage',
      (b) => b.thread_ts === ORIGIN.ts && json(b).includes('Seen twice'),
    );
    expect((await readTask()).minute?.discoveries.map((d) => d.details)).toEqual(['Seen twice']);
  });

  it('in a channel that is not linked, outside a task thread, says how to get there', async () => {
    await h.shortcut(TASK_SHORTCUT.logDiscovery, {
      message: { user: 'U5', ts: '1700000300.000100', text: 'hm' },
      channel: 'C7',
      channelName: 'random',
    });
    await h.slack.waitFor('views.update', (b) => json(b.view).includes('not linked to a planning channel'));
  });
});

describe('Details and the minutes', () => {
  it("shows every entry with its author and time; one's own discovery and feedback can be edited and deleted, someone else's cannot", async () => {
    ({ coords, cardTs } = await h.createTask());
    const mine = await h.connect('U1', 'member');
    const member = (await import('../../../src/planning/index.js')).createPlanningClient({
      baseUrl: h.sandbox.url,
      token: mine.token,
    });
    const admin = (await import('../../../src/planning/index.js')).createPlanningClient({
      baseUrl: h.sandbox.url,
      token: h.sandbox.adminToken,
    });
    const { teamId, channelId, featureId, taskId } = coords;
    const myDiscovery = await member.tasks.discoveryCreate(teamId, channelId, featureId, taskId, {
      details: 'Mine <b>',
    });
    const myFeedback = await member.tasks.feedbackCreate(teamId, channelId, featureId, taskId, {
      message: 'Needs tests',
      issue: 'testing',
    });
    const theirs = await admin.tasks.discoveryCreate(teamId, channelId, featureId, taskId, {
      details: 'Theirs',
    });

    await h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.detailsOpen));
    const details = await filled(TASK_VIEW.details);
    const view = json(details.body.view);
    expect(view).toContain('Mine &lt;b&gt;');
    expect(view).toContain('by <@U2>'); // the admin's entry, authored by U2
    expect(view).toContain('<!date^'); // shown in each viewer's own time zone
    expect(view).toContain('_Waiting for a reply._');
    const blocks = (details.body.view as { blocks: Block[] }).blocks;
    const edits = blocks
      .flatMap((b) => b.elements ?? [])
      .filter((e) => e.action_id === TASK_ACTION.minuteEditOpen);
    expect(edits.map((e) => JSON.parse(e.value!).id).sort()).toEqual([myDiscovery.id, myFeedback.id].sort());
    const detailsId = String(details.body.view_id);

    // Edit my discovery.
    await h.press({ view: detailsId }, edits.find((e) => JSON.parse(e.value!).id === myDiscovery.id)!);
    const editForm = await h.slack.waitFor(
      'views.update',
      (b) => (b.view as { callback_id?: string }).callback_id === TASK_VIEW.minuteEdit,
    );
    expect(json(editForm.body.view)).toContain('Mine <b>');
    const editId = String(editForm.body.view_id);
    await h.submit(editId, [[TASK_FIELD.minuteText, text('Mine, edited')]]);
    await h.slack.waitFor('views.update', (b) => b.view_id === editId && json(b.view).includes('is saved'));

    // Delete my feedback (twice: a retry changes nothing more).
    const deleteFeedback = blocks
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === TASK_ACTION.minuteDelete && JSON.parse(e.value!).id === myFeedback.id)!;
    await h.press({ view: detailsId }, deleteFeedback);
    await h.press({ view: detailsId }, deleteFeedback);
    await eventually(async () => (await readTask()).minute?.feedback.length === 0, 'the feedback deleted');
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === detailsId && !json(b.view).includes('Needs tests'),
    );

    // Someone else's discovery: the service refuses, in one private sentence; it stays.
    const forged = { action_id: TASK_ACTION.minuteDelete, value: json({ ...coords, k: 'd', id: theirs.id }) };
    await h.press({ view: detailsId }, forged);
    await said('The planning service refused');
    const forgedEdit = { ...forged, action_id: TASK_ACTION.minuteEditOpen };
    const since = h.slack.calls.length;
    await h.press({ view: detailsId }, forgedEdit);
    const secondEditId = viewIdOf(await h.slack.waitFor('views.push', undefined, { since }));
    const editTheirs = await h.slack.waitFor(
      'views.update',
      (b) =>
        b.view_id === secondEditId &&
        (b.view as { callback_id?: string }).callback_id === TASK_VIEW.minuteEdit,
    );
    expect(json(editTheirs.body.view)).toContain('Theirs');
    await h.submit(String(editTheirs.body.view_id), [[TASK_FIELD.minuteText, text('Hijacked')]]);
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === editTheirs.body.view_id && json(b.view).includes('refused'),
    );
    const after = await readTask();
    expect(after.minute?.discoveries.map((d) => d.details).sort()).toEqual(['Mine, edited', 'Theirs']);
  });
});

describe('Edit and Delete', () => {
  it('Edit changes heading, details and notions, and every card shows the new heading', async () => {
    ({ coords, cardTs } = await h.createTask());
    const notion = await h.owner().notions.create({ value: 'TypeScript' });
    await h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.editOpen));
    const form = await filled(TASK_VIEW.edit);
    const viewId = String(form.body.view_id);
    const bad = await h.submit(viewId, [[FIELD.heading, text('  ')]]);
    expect(bad.json()).toMatchObject({
      response_action: 'errors',
      errors: { [FIELD.heading.block]: 'A task needs a heading.' },
    });
    await h.submit(viewId, [
      [FIELD.heading, text('Fix the login on Safari')],
      [FIELD.details, text('Cookies')],
      [
        TASK_FIELD.notions,
        {
          type: 'multi_external_select',
          selected_options: [{ value: notion.id, text: { type: 'plain_text', text: 'TypeScript' } }],
        } as ViewStateValue,
      ],
    ]);
    await h.slack.waitFor(
      'chat.update',
      (b) => b.ts === cardTs && json(b.blocks).includes('Fix the login on Safari'),
    );
    const task = await readTask();
    expect(task).toMatchObject({ heading: 'Fix the login on Safari', details: 'Cookies' });
    expect(task.notions.map((n) => n.id)).toEqual([notion.id]);
  });

  it('Delete on a shared card: someone who may not delete is told why at once, with no dialog; the author confirms and it is deleted once', async () => {
    ({ coords, cardTs } = await h.createTask());
    const del = buttonOf(lastCard(), TASK_ACTION.deleteAsk);
    // Shown to everyone in the channel: no dialog of its own, which everyone would see first.
    expect((del as { confirm?: unknown }).confirm).toBeUndefined();
    expect(lastCard().some((b) => b.elements?.some((e) => e.action_id === TASK_ACTION.delete))).toBe(false);
    await h.connect('U4', 'member');
    const before = h.slack.calls.length;
    await h.press({ message: cardTs }, del, { user: 'U4' });
    await said('Only the task');
    await settled();
    expect(h.slack.calls.slice(before).filter((c) => c.method.startsWith('views.'))).toEqual([]);
    expect((await readTask()).id).toBe(coords.taskId);

    // The author gets the confirmation, and only then is anything deleted.
    const viewId = await h.openForm(
      () => h.press({ message: cardTs }, del, { user: 'U1' }),
      TASK_VIEW.deleteConfirm,
    );
    expect(h.sandbox.requests.count('taskDelete')).toBe(0);
    // Submitted twice (a double click, or Slack's retry): deleted once.
    await Promise.all([h.submit(viewId, [], { user: 'U1' }), h.submit(viewId, [], { user: 'U1' })]);
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && json(b.view).includes('Task deleted'),
    );
    const update = await h.slack.waitFor(
      'chat.update',
      (b) => b.ts === cardTs && json(b).includes('This task was deleted'),
    );
    expect(update.body.blocks).toHaveLength(1);
    await settled();
    await expect(readTask()).rejects.toThrow();
    expect(h.sandbox.requests.count('taskDelete')).toBe(1);
  });

  it('an organization admin who did not create the task gets the confirmation too', async () => {
    ({ coords, cardTs } = await h.createTask());
    const viewId = await h.openForm(
      () => h.press({ message: cardTs }, buttonOf(lastCard(), TASK_ACTION.deleteAsk), { user: 'U2' }),
      TASK_VIEW.deleteConfirm,
    );
    await h.submit(viewId, [], { user: 'U2' });
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && json(b.view).includes('Task deleted'),
    );
    await expect(readTask()).rejects.toThrow();
  });

  it('a confirmation submitted by someone who may no longer delete is refused; nothing is deleted', async () => {
    ({ coords, cardTs } = await h.createTask());
    const del = buttonOf(lastCard(), TASK_ACTION.deleteAsk);
    const viewId = await h.openForm(
      () => h.press({ message: cardTs }, del, { user: 'U1' }),
      TASK_VIEW.deleteConfirm,
    );
    // The same confirmation sent as someone else (a forged submission): the rule is checked again.
    await h.connect('U4', 'member');
    await h.submit(viewId, [], { user: 'U4' });
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && json(b.view).includes('Only the task'),
    );
    expect(h.sandbox.requests.count('taskDelete')).toBe(0);
    expect((await readTask()).id).toBe(coords.taskId);
  });

  it('a card posted before Delete asked first keeps working: its Delete (with its dialog) is applied once', async () => {
    ({ coords, cardTs } = await h.createTask());
    // The old card's button: the same value under the shipped id.
    const old = { action_id: TASK_ACTION.delete, value: buttonOf(lastCard(), TASK_ACTION.deleteAsk).value };
    await h.connect('U4', 'member');
    await h.press({ message: cardTs }, old, { user: 'U4' });
    await said('Only the task');
    await settled();
    expect((await readTask()).id).toBe(coords.taskId);

    await h.press({ message: cardTs }, old, { user: 'U1' });
    const update = await h.slack.waitFor(
      'chat.update',
      (b) => b.ts === cardTs && json(b).includes('This task was deleted'),
    );
    expect(update.body.blocks).toHaveLength(1);
    await settled();
    // The same press again (a retry arriving late): nothing more is deleted. Its cards are retired
    // and forgotten, so the app knows only what the service says: no such task in the organization.
    await h.press({ message: cardTs }, old, { user: 'U1' });
    await said('not found in your organization');
    expect(h.sandbox.requests.count('taskDelete')).toBe(1);
  });
});

describe('/plan tasks', () => {
  it("searches and echoes what was typed: Slack's `&amp;` is decoded once, then escaped once (issue 23 item 1)", async () => {
    const { teamId, channelId, featureId } = h.fixture;
    await h.owner().tasks.create(teamId, channelId, featureId, { heading: 'R&D <!channel> budget' });
    await h.owner().tasks.create(teamId, channelId, featureId, { heading: 'Rent' });
    // Slack sends `/plan tasks R&D <!channel>` typed by a person as below.
    await h.command('tasks R&amp;D &lt;!channel&gt;');
    const reply = await h.slack.waitFor('respond', (b) => json(b).includes('Tasks matching'));
    const shown = json(reply.body);
    expect(shown).toContain('Tasks matching “R&amp;D &lt;!channel&gt;”');
    expect(shown).toContain('R&amp;D &lt;!channel&gt; budget');
    expect(shown).toContain('(1)');
    expect(shown).not.toContain('&amp;amp;');
    expect(shown).not.toContain('&amp;lt;');
    // Only plain_text (the header) may show it as typed: Slack never reads a mention there.
    const mrkdwn = [
      reply.body.text,
      ...JSON.stringify(reply.body.blocks).matchAll(/"type":"mrkdwn","text":"([^"]*)"/g),
    ];
    expect(json(mrkdwn)).not.toContain('<!channel>');
    expect(json(reply.body.blocks)).toContain(
      '"type":"plain_text","text":"Tasks matching “R&D <!channel>” (1)"',
    );
    expect(shown).not.toContain('Rent');
  });

  it('lists the channel tasks with their buttons, filters, and pages with More', async () => {
    ({ coords, cardTs } = await h.createTask('Fix the login'));
    const { teamId, channelId, featureId } = h.fixture;
    for (let i = 1; i <= TASKS_PAGE_SIZE + 2; i += 1) {
      await h
        .owner()
        .tasks.create(teamId, channelId, featureId, { heading: `Chore ${String(i).padStart(2, '0')}` });
    }
    await h.owner().tasks.assign(teamId, channelId, featureId, coords.taskId, h.sandbox.memberId);

    await h.command('tasks');
    const first = await h.slack.waitFor('respond', (b) => json(b).includes('Tasks (13)'));
    const blocks = first.body.blocks as Block[];
    expect(json(blocks)).toContain('Page 1 of 2');
    expect(blocks.length).toBeLessThanOrEqual(50);
    buttonOf(blocks, TASK_ACTION.stateForward);
    const more = buttonOf(blocks, TASK_ACTION.more);
    await h.press({ message: cardTs }, more);
    const second = await h.slack.waitFor(
      'respond',
      (b) => b.replace_original === true && json(b).includes('Chore 12'),
    );
    expect(json(second.body)).not.toContain('More');

    await h.command('tasks mine');
    const mine = await h.slack.waitFor('respond', (b) => json(b).includes('Your tasks (1)'));
    expect(json(mine.body)).toContain('Fix the login');
    await h.command('tasks chore 07');
    await h.slack.waitFor('respond', (b) => json(b).includes('(1)') && json(b).includes('Chore 07'));
    await h.command('tasks review');
    await h.slack.waitFor('respond', (b) => json(b).includes('*Tasks in review*: none.'));
    await h.command('tasks unassigned', 'U1', 'C9');
    await h.slack.waitFor('respond', (b) => json(b).includes('not linked to a planning channel'));

    // A state button pressed in the list: applied, and the list gives way to the task's card.
    const listed = buttonOf(blocks, TASK_ACTION.stateForward);
    await h.press({ message: cardTs }, listed);
    await h.slack.waitFor(
      'respond',
      (b) => b.replace_original === true && json(b).includes('Send to review'),
    );
  });
});
