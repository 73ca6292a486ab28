/**
 * The Home tab over signed HTTP: app_home_opened → views.publish at once, then filled from one
 * snapshot read with the person's own token.
 */
import { readFileSync } from 'node:fs';
import type { ViewStateValue } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlanningClient } from '../../../src/planning/index.js';
import { readPngSize } from '../../../src/planning/png.js';
import { ACCOUNT_ACTION } from '../../../src/slack/account/ids.js';
import { ADMIN_ACTION } from '../../../src/slack/admin/ids.js';
import { FEEDBACK_ACTION } from '../../../src/slack/feedback/ids.js';
import { HOME_ACTION } from '../../../src/slack/home/ids.js';
import { ACTION, FIELD } from '../../../src/slack/kit/ids.js';
import { TASK_ACTION, TASK_FIELD } from '../../../src/slack/tasks/ids.js';
import { eventually, external, Harness, TEAM, text } from '../../helpers/slack-harness.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('Home tab', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
  });
  afterEach(() => h.close());

  const open = (user: string) => h.event({ type: 'app_home_opened', user, channel: `D${user}`, tab: 'home' });
  const publishes = (user: string) => h.slack.called('views.publish').filter((c) => c.body.user_id === user);
  /** The last tab published for `user`, once `count` publishes were made. */
  async function published(user: string, count = 2) {
    await eventually(() => publishes(user).length >= count, `${count} publishes for ${user}`);
    const calls = publishes(user);
    return calls.map((c) => JSON.stringify(c.body.view));
  }

  it("says in words what changed in Recent activity, never the service's field names (issue 23 item 6)", async () => {
    await h.connect('UMEM', 'member');
    await h.link('C1', 'UMEM');
    const owner = h.owner();
    const { teamId, channelId, featureId } = h.fixture;
    const notion = await owner.notions.create({ value: 'TypeScript' });
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Build login' });
    await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.memberId);
    await owner.tasks.update(teamId, channelId, featureId, task.id, { notionIds: [notion.id] });
    await open('UMEM');
    const filled = (await published('UMEM')).at(-1)!;
    expect(filled).toContain('Recent activity');
    expect(filled).toContain('Task *Build login* in *Login page* changed: its notions');
    expect(filled).toContain('Task *Build login* in *Login page* changed: its assignee');
    for (const field of ['notionIds', 'assigneeUserId']) expect(filled).not.toContain(field);
    // How they connected, in words that say something.
    expect(filled).toContain('Connected with a token you pasted.');
    expect(filled).not.toContain('the token you connected');
  });

  it("lists the person's own activity only, naming the task or feature, and who did it where known (issue 36 item 6)", async () => {
    await h.connect('UMEM', 'member');
    await h.connect('UOWN', 'owner');
    await h.link('C1', 'UOWN');
    const owner = h.owner();
    const { teamId, channelId, featureId } = h.fixture;
    // A task the owner gives the member: theirs.
    const given = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Build *login* <now>' });
    await owner.tasks.assign(teamId, channelId, featureId, given.id, h.sandbox.memberId);
    // The owner's own task and feature: the service tells the member of them too, the tab does not.
    await owner.tasks.create(teamId, channelId, featureId, { heading: 'Owner chore' });
    await owner.features.create(teamId, channelId, { heading: 'Owner roadmap' });
    // Feedback the member gives on the owner's task: theirs (that feedback, not the task's other changes).
    const reviewed = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Review copy' });
    const memberClient = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    await memberClient.tasks.feedbackCreate(teamId, channelId, featureId, reviewed.id, {
      message: 'Shorter',
    });
    // A task the member creates from a Slack message, assigned to nobody: theirs, made by them.
    const formId = await h.createTaskForm('Fix the export', { user: 'UMEM' });
    const since = h.slack.calls.length;
    await h.submit(
      formId,
      [
        [TASK_FIELD.feature, external(featureId, 'Login page')],
        [FIELD.heading, text('Fix the export')],
      ],
      { user: 'UMEM' },
    );
    // Who made it is stored after Slack answered its card: the form's answer comes after that.
    await h.taskFormAnswered(formId, since);
    const created = (await h.tasksOfFeature()).find((t) => t.heading === 'Fix the export')!;
    expect(created.assigneeUserId ?? '').toBe('');
    expect((await h.store.taskOrigins.get(TEAM, created.id))?.authorSlackId).toBe('UMEM');

    await open('UMEM');
    const member = recentActivity((await published('UMEM')).at(-1)!);
    expect(member).toContain('Task *Build ∗login∗ &lt;now&gt;* in *Login page* changed: its assignee');
    expect(member).toContain('Task *Fix the export* in *Login page* was created by <@UMEM>');
    expect(member).toContain('Task *Review copy* in *Login page* changed: its feedback');
    expect(member).not.toContain('Task *Review copy* in *Login page* was created');
    expect(member).not.toContain('Owner chore');
    expect(member).not.toContain('Owner roadmap');
    // No line says only what kind of thing changed.
    expect(member).not.toMatch(/A (task|feature) (changed|was)/);

    await open('UOWN');
    const ownerTab = recentActivity((await published('UOWN')).at(-1)!);
    expect(ownerTab).toContain('Feature *Owner roadmap* was created by <@UOWN>');
    expect(ownerTab).not.toContain('Owner chore');
    expect(ownerTab).not.toContain('Fix the export');
    // The feedback is on the owner's task, but the owner neither has it nor gave it.
    expect(ownerTab).not.toContain('Review copy');
  });

  /** The Recent activity section of a published tab, as JSON. */
  const recentActivity = (tab: string) => {
    const blocks = (JSON.parse(tab) as { blocks: { type: string; text?: { text?: string } }[] }).blocks;
    const start = blocks.findIndex((b) => b.type === 'header' && b.text?.text === 'Recent activity');
    expect(start).toBeGreaterThan(-1);
    const end = blocks.findIndex((b, i) => i > start && b.type === 'divider');
    return JSON.stringify(blocks.slice(start, end === -1 ? undefined : end));
  };

  it('shows a new user Connect, and nothing else of theirs', async () => {
    h.slack.users.set('UNEW', { id: 'UNEW', name: 'newbie' });
    expect((await open('UNEW')).status).toBe(200);
    const [first, filled] = await published('UNEW');
    expect(first).toContain(ACTION.connectOpen);
    expect(filled).toContain(ACTION.connectOpen);
    expect(filled).not.toContain('My tasks');
    expect(filled).not.toContain(ADMIN_ACTION.openModal);
    expect(JSON.parse(filled!).type).toBe('home');
  });

  it('shows a connected member their tasks in every state, feedback to reply to, features, grades and a chart', async () => {
    await h.connect('UMEM', 'member');
    await h.connect('UOWN', 'owner');
    await h.link('C1', 'UOWN');
    const owner = h.owner();
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    const { teamId, channelId, featureId } = h.fixture;
    for (const [heading, state] of [
      ['Write <specs>', 'idle'],
      ['Build login', 'in progress'],
      ['Review copy', 'in review'],
      ['Ship icons', 'done'],
    ] as const) {
      const task = await owner.tasks.create(teamId, channelId, featureId, { heading });
      await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.memberId);
      if (state !== 'idle') await owner.tasks.update(teamId, channelId, featureId, task.id, { state });
      if (state === 'in review') {
        await owner.tasks.feedbackCreate(teamId, channelId, featureId, task.id, {
          message: 'Please check the wording',
          issue: 'misc',
        });
      }
    }
    const notion = await owner.notions.create({ value: 'TypeScript' });
    await member.experiences.evaluate(notion.id, 6);
    await owner.experiences.evaluatePeer(notion.id, 8, h.sandbox.memberId);
    await open('UMEM');
    const [first, filled] = await published('UMEM');
    expect(first).toContain('Loading…');
    for (const text of ['To do', 'In progress', 'In review', 'Done']) expect(filled).toContain(text);
    expect(filled).toContain('Write &lt;specs&gt;');
    expect(filled).toContain('Please check the wording');
    expect(filled).toContain(FEEDBACK_ACTION.replyOpen);
    expect(filled).toContain('Login page'); // the fixture's feature, by stage
    expect(filled).toContain('*TypeScript* — you *6* · peers *8* (1 grade)');
    // Slack's file upload: an upload URL, the bytes posted there, then the upload completed.
    const fileId = String((await h.slack.waitFor('files.getUploadURLExternal')).answer?.file_id);
    expect(filled).toContain(`"slack_file":{"id":"${fileId}"}`);
    expect(h.slack.called('files.completeUploadExternal')[0]?.body.files).toEqual([
      { id: fileId, title: 'My experience: self vs peers' },
    ]);
    expect(filled).toContain(ACCOUNT_ACTION.disconnect);
    expect(filled).toContain(HOME_ACTION.notifyKinds);
    // Peer grades stay anonymous; the member is no admin.
    expect(filled).not.toContain(h.sandbox.ownerId);
    expect(filled).not.toContain('UOWN');
    expect(filled).not.toContain(ADMIN_ACTION.openModal);
    expect(JSON.parse(filled!).blocks.length).toBeLessThanOrEqual(100);
    // The chart is a PNG the app drew.
    expect(readPngSize(h.slack.workspace.files.get(fileId)?.bytes ?? Buffer.alloc(0))).toMatchObject({
      width: 560,
    });
  });

  it('moves a task with the task card’s own state button from the Home tab, then redraws the tab', async () => {
    await h.connect('UMEM', 'member');
    await h.link();
    const { teamId, channelId, featureId } = h.fixture;
    const owner = h.owner();
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Home task' });
    await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.memberId);
    await open('UMEM');
    const [, filled] = await published('UMEM');
    const view = JSON.parse(filled!) as { blocks: { type: string; elements?: Record<string, unknown>[] }[] };
    const start = view.blocks
      .flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []))
      .find((e) => e.action_id === TASK_ACTION.stateForward && String(e.value).includes(task.id));
    expect(start, 'the task row carries the card’s Start button').toBeDefined();
    // … as the README says (issue 23 item 18).
    expect(README).toContain("Each task row carries the task card's state buttons");
    expect(README).not.toContain('they have none yet');

    await h.press({ home: {} }, TASK_ACTION.stateForward, { value: String(start!.value), user: 'UMEM' });
    await eventually(
      async () => (await owner.tasks.read(teamId, channelId, featureId, task.id)).state === 'in progress',
      'the task started',
    );
    // The tab is published again (at once, then filled) and shows the task in progress.
    const after = await published('UMEM', 4);
    expect(after.at(-1)).toMatch(/In progress[\s\S]*Home task/);
  });

  it('leaves the chart out cleanly when Slack refuses the upload', async () => {
    await h.connect('UMEM', 'member');
    const notion = await h.owner().notions.create({ value: 'Go' });
    await createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken }).experiences.evaluate(
      notion.id,
      5,
    );
    h.slack.on('files.getUploadURLExternal', () => ({ ok: false, error: 'missing_scope' }));
    await open('UMEM');
    const [, filled] = await published('UMEM');
    expect(filled).toContain('*Go* — you *5*');
    expect(filled).not.toContain('slack_file');
  });

  it('shows a workspace admin the channel links, their digest settings and the admin button', async () => {
    h.slack.users.set('UADM', { id: 'UADM', name: 'root', isAdmin: true });
    await h.connect('UADM', 'admin');
    await h.link('C1', 'UADM');
    await open('UADM');
    const [, filled] = await published('UADM');
    expect(filled).toContain('Workspace admin');
    expect(filled).toContain('<#C1>');
    expect(filled).toContain('digest at 09:00');
    expect(filled).toContain(ADMIN_ACTION.openModal);
    // The README names the button as the tab shows it (issue 23 item 18).
    const view = JSON.parse(filled!) as {
      blocks: { elements?: { action_id?: string; text?: { text: string } }[] }[];
    };
    const adminButton = view.blocks
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === ADMIN_ACTION.openModal);
    expect(README).toContain(`*${adminButton?.text?.text}* button on an admin's Home tab`);
  });

  it('opens before a slow service answers, and shows one line where a part failed', async () => {
    await h.connect('UMEM', 'member');
    await h.link('C1', 'UMEM');
    h.sandbox.inject({ operationId: 'accountEventsList', status: 503 });
    h.sandbox.inject({ operationId: 'experienceList', delayMs: 700 });
    await open('UMEM');
    await eventually(() => publishes('UMEM').length >= 1, 'the first publish');
    // The first publish went out while the service was still being asked.
    const first = JSON.stringify(publishes('UMEM')[0]?.body.view);
    expect(first).toContain('Loading…');
    expect(first).not.toContain('Login page');
    const [, filled] = await published('UMEM');
    expect(filled).toContain('Login page');
    expect(filled).toContain('could not give this part right now');
    expect(filled).toContain('My experiences');
    expect(JSON.parse(filled!).blocks.length).toBeGreaterThan(10);

    // Opened again: at once with what was read last time, then refreshed.
    await open('UMEM');
    const again = await published('UMEM', 4);
    expect(again[2]).toContain('Login page');
    expect(again[2]).toContain('Updating…');
  });

  it('saves notification choices from the tab in the person’s Slack time zone', async () => {
    h.slack.users.set('UMEM', { id: 'UMEM', name: 'm', tz: 'Asia/Tokyo' });
    await h.connect('UMEM', 'member');
    const state = {
      values: {
        a: {
          [HOME_ACTION.notifyKinds]: {
            type: 'checkboxes',
            selected_options: [{ value: 'assigned' }, { value: 'reply' }],
          },
        },
        b: {
          [HOME_ACTION.quietStart]: { type: 'static_select', selected_option: { value: '22:00' } },
          [HOME_ACTION.quietEnd]: { type: 'static_select', selected_option: { value: '07:00' } },
        },
      },
    };
    // The pick itself is in the state (as Slack sends it); the action says only which select moved.
    await h.choose(
      { home: { state, hash: 'h1' } },
      { action: HOME_ACTION.quietEnd, block: 'b' },
      {
        type: 'static_select',
      } as ViewStateValue,
      { user: 'UMEM' },
    );
    await eventually(
      async () => (await h.store.notifications.prefs(TEAM, 'UMEM')) !== undefined,
      'saved prefs',
    );
    expect(await h.store.notifications.prefs(TEAM, 'UMEM')).toEqual({
      muted: ['featureAdvanced', 'feedback', 'invitation', 'peerGrades', 'taskMoved'],
      quiet: { start: '22:00', end: '07:00' },
      timeZone: 'Asia/Tokyo',
    });
  });

  it('keeps one end of quiet hours as picked, so picking the other stores both (issue 23)', async () => {
    h.slack.users.set('UMEM', { id: 'UMEM', name: 'm', tz: 'Europe/Paris' });
    await h.connect('UMEM', 'member');
    type Select = { action_id?: string; initial_option?: { value?: string } };
    /** The state Slack sends with an action on `view`: each select's shown option, `picked` changed. */
    const stateOf = (view: { blocks: { elements?: Select[] }[] }, picked: Record<string, string>) => {
      const selects = view.blocks
        .flatMap((b) => b.elements ?? [])
        .filter((e) => e.action_id?.startsWith('quiet_'));
      const row: Record<string, unknown> = {};
      for (const s of selects) {
        const value = picked[s.action_id!] ?? s.initial_option?.value;
        row[s.action_id!] = { type: 'static_select', selected_option: value ? { value } : null };
      }
      return { values: { q: row } };
    };
    const pick = (view: { blocks: { elements?: Select[] }[] }, actionId: string, value: string) =>
      h.choose(
        { home: { state: stateOf(view, { [actionId]: value }), hash: 'h1' } },
        { action: actionId, block: 'q' },
        { type: 'static_select', selected_option: { value } } as ViewStateValue,
        { user: 'UMEM' },
      );

    await open('UMEM');
    const tab = JSON.parse((await published('UMEM')).at(-1)!);
    await pick(tab, HOME_ACTION.quietStart, '22:00');
    // The tab comes back with the start as picked, the end waiting, and nothing stored yet.
    const [again] = (await published('UMEM', 3)).slice(2).map((v) => JSON.parse(v));
    const selects = again.blocks.flatMap((b: { elements?: Select[] }) => b.elements ?? []) as Select[];
    expect(selects.find((e) => e.action_id === HOME_ACTION.quietStart)?.initial_option?.value).toBe('22:00');
    expect(selects.find((e) => e.action_id === HOME_ACTION.quietEnd)?.initial_option).toBeUndefined();
    expect(JSON.stringify(again)).toContain('now choose until when');
    expect((await h.store.notifications.prefs(TEAM, 'UMEM'))?.quiet).toBeUndefined();

    await pick(again, HOME_ACTION.quietEnd, '07:00');
    await eventually(
      async () => (await h.store.notifications.prefs(TEAM, 'UMEM'))?.quiet !== undefined,
      'quiet hours stored',
    );
    expect(await h.store.notifications.prefs(TEAM, 'UMEM')).toMatchObject({
      quiet: { start: '22:00', end: '07:00' },
      timeZone: 'Europe/Paris',
    });
    // The tab is drawn again from what was saved: no longer asking "until when" (issue 36 item 5).
    const saved = (await published('UMEM', 6)).slice(4);
    for (const view of saved) {
      expect(view).not.toContain('now choose until when');
      expect(view).toContain('Quiet hours saved: from 22:00 until 07:00 (Europe/Paris).');
      const shown = (JSON.parse(view) as { blocks: { elements?: Select[] }[] }).blocks.flatMap(
        (b) => b.elements ?? [],
      );
      expect(shown.find((e) => e.action_id === HOME_ACTION.quietEnd)?.initial_option?.value).toBe('07:00');
    }

    // "No quiet hours" on one end turns them off.
    await pick(again, HOME_ACTION.quietStart, 'off');
    await eventually(
      async () => (await h.store.notifications.prefs(TEAM, 'UMEM'))?.quiet === undefined,
      'quiet hours off',
    );
  });

  it('Disconnect on the tab forgets the person and redraws the tab with Connect', async () => {
    await h.connect('UMEM', 'member');
    await h.press({ home: { state: { values: {} }, hash: 'h1' } }, ACCOUNT_ACTION.disconnect, {
      user: 'UMEM',
      blockId: 'x',
    });
    const [, filled] = await published('UMEM');
    expect(await h.store.identities.get(TEAM, 'UMEM')).toBeUndefined();
    expect(filled).toContain('Disconnected');
    expect(filled).toContain(ACTION.connectOpen);
  });
});
