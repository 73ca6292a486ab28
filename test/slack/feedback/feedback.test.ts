import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../../src/sandbox/index.js';
import {
  FEEDBACK_ACTION,
  FEEDBACK_FIELD,
  FEEDBACK_SHORTCUT,
  FEEDBACK_VIEW,
} from '../../../src/slack/feedback/ids.js';
import { VIEW } from '../../../src/slack/kit/ids.js';
import { liveTaskCard } from '../../../src/slack/tasks/card.js';
import { TASK_ACTION } from '../../../src/slack/tasks/ids.js';
import {
  choice,
  Harness,
  profilesOffered,
  type ShownMessage,
  submitted,
  TEAM,
  text,
  viewIdOf,
} from '../../helpers/slack-harness.js';

describe('Give feedback on a task card, and reply', () => {
  let h: Harness;
  let coords: { teamId: string; channelId: string; featureId: string; taskId: string };

  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('UAUTHOR', 'admin');
    await h.connect('UASSIGNEE', 'member');
    coords = await h.assignedTask('Ship <it>');
  });
  afterEach(() => h.close());

  const card = () => ({
    type: 'message',
    ts: '1700000001.000200',
    bot_id: 'BBOT',
    ...liveTaskCard({ coords, heading: 'Ship <it>', state: 'idle', authorSlackId: 'UAUTHOR' }),
  });

  /** Give feedback (the message shortcut) on `message` as `who`. */
  const onMessage = (message: ShownMessage, who = 'UAUTHOR') =>
    h.shortcut(FEEDBACK_SHORTCUT.giveFeedback, { message, user: who });

  it('records the feedback, DMs the assignee with Reply, records the reply and tells the author', async () => {
    expect((await onMessage(card())).status).toBe(200);
    const open = await h.slack.waitFor('views.open');
    expect((open.body.view as { callback_id: string }).callback_id).toBe(FEEDBACK_VIEW.feedback);

    await h.submit(
      viewIdOf(open),
      [
        [FEEDBACK_FIELD.issue, choice('testing', 'Testing')],
        [FEEDBACK_FIELD.message, text('Needs <tests> & docs')],
      ],
      { user: 'UAUTHOR' },
    );
    const dm = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DUASSIGNEE');
    const task = await h.owner().tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
    const feedback = task.minute?.feedback ?? [];
    expect(feedback).toMatchObject([
      { message: 'Needs <tests> & docs', issue: 'testing', authorUserId: h.sandbox.adminId },
    ]);
    const dmText = JSON.stringify(dm.body.blocks);
    expect(dmText).toContain('Needs &lt;tests&gt; &amp; docs');
    expect(dmText).toContain(FEEDBACK_ACTION.replyOpen);
    // The DM names who gave it: their planning profile is one press away.
    expect(profilesOffered(dm.body.blocks)).toEqual(['UAUTHOR']);
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('<@UASSIGNEE> was told'));

    // The assignee presses Reply in the DM and answers.
    const button = (dm.body.blocks as { type: string; elements?: { action_id: string; value: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === FEEDBACK_ACTION.replyOpen)!;
    const replyForm = await h.openForm(() => h.press({}, button, { user: 'UASSIGNEE' }), FEEDBACK_VIEW.reply);
    expect(JSON.stringify(h.slack.views.get(replyForm))).not.toContain('replaces');
    await h.submit(replyForm, [[FEEDBACK_FIELD.reply, text('Added them')]], { user: 'UASSIGNEE' });
    const told = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DUAUTHOR');
    expect(JSON.stringify(told.body.blocks)).toContain('Added them');
    expect(profilesOffered(told.body.blocks)).toEqual(['UASSIGNEE']);
    const after = await h
      .owner()
      .tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId);
    expect(after.minute?.feedback[0]?.reply).toBe('Added them');
  });

  /** Feedback given by UAUTHOR through the form; the assignee's DM about it (its ts and blocks). */
  async function feedbackGiven() {
    await onMessage(card());
    const viewId = viewIdOf(await h.slack.waitFor('views.open'));
    await h.submit(
      viewId,
      [
        [FEEDBACK_FIELD.issue, choice('testing', 'Testing')],
        [FEEDBACK_FIELD.message, text('Needs tests')],
      ],
      { user: 'UAUTHOR' },
    );
    const dm = await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'DUASSIGNEE');
    return { ts: String(dm.answer?.ts), blocks: dm.body.blocks as unknown[] };
  }

  /** The reply form opened from the DM at `ts` with `button`, submitted with `reply`; its view id. */
  async function replyFrom(ts: string, button: string, reply: string, submits = 1) {
    const viewId = await h.openForm(() => {
      // The DM as Slack shows it now (updated in place after a reply).
      const shown = h.slack.message('DUASSIGNEE', ts) as unknown as ShownMessage;
      return h.press({ message: shown, channel: 'DUASSIGNEE' }, button, { user: 'UASSIGNEE' });
    }, FEEDBACK_VIEW.reply);
    const shown = structuredClone(h.slack.views.get(viewId)!);
    const form = JSON.stringify(shown);
    const values: Parameters<Harness['submit']>[1] = [[FEEDBACK_FIELD.reply, text(reply)]];
    await Promise.all(Array.from({ length: submits }, () => h.submit(viewId, values, { user: 'UASSIGNEE' })));
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes(':white_check_mark: Reply'),
    );
    return { viewId, form, shown };
  }

  const toAuthor = () => h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'DUAUTHOR');
  const readReply = async () =>
    (await h.owner().tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId)).minute
      ?.feedback[0]?.reply;

  it('after a reply, its DM offers Change reply, whose form says it replaces the first; the author is told it changed, once', async () => {
    const dm = await feedbackGiven();
    await replyFrom(dm.ts, FEEDBACK_ACTION.replyOpen, 'First answer');
    expect(toAuthor()).toHaveLength(1);
    expect(JSON.stringify(toAuthor()[0]!.body)).toContain('replied to your feedback');

    // The DM the Reply was pressed in now offers to change it, not to reply again.
    const redrawn = await h.slack.waitFor('chat.update', (b) => b.channel === 'DUASSIGNEE' && b.ts === dm.ts);
    const dmNow = JSON.stringify(redrawn.body.blocks);
    expect(dmNow).toContain(FEEDBACK_ACTION.replyChange);
    expect(dmNow).not.toContain(`"${FEEDBACK_ACTION.replyOpen}"`);
    expect(dmNow).toContain('Needs tests');

    // Change reply: the form says, before anything is typed, that it replaces the first reply.
    const { viewId, form, shown } = await replyFrom(dm.ts, FEEDBACK_ACTION.replyChange, 'Second answer', 2);
    expect(form).toContain('This replaces the reply already given');
    expect(form).toContain('First answer');
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes('replaces your earlier one'),
    );
    // Slack retries the submission: nothing is recorded or told again.
    const since = h.slack.calls.length;
    await h.interact(
      {
        type: 'view_submission',
        view: submitted(viewId, shown, [[FEEDBACK_FIELD.reply, text('Second answer')]]),
      },
      'UASSIGNEE',
      { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    );
    await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes('replaces your earlier one'),
      { since },
    );
    expect(await readReply()).toBe('Second answer');
    expect(h.sandbox.requests.count('taskFeedbackReply')).toBe(2);
    const told = toAuthor();
    expect(told).toHaveLength(2);
    expect(JSON.stringify(told[1]!.body)).toContain('<@UASSIGNEE> changed their reply to your feedback');
    expect(JSON.stringify(told[1]!.body)).toContain('Second answer');
  });

  it('a Reply pressed on a DM still showing it, after the feedback was answered, says it replaces that answer', async () => {
    const dm = await feedbackGiven();
    // Answered elsewhere (the service's web app).
    await h
      .owner()
      .tasks.feedbackReply(
        coords.teamId,
        coords.channelId,
        coords.featureId,
        coords.taskId,
        (await h.owner().tasks.read(coords.teamId, coords.channelId, coords.featureId, coords.taskId)).minute!
          .feedback[0]!.id,
        { reply: 'From the web' },
      );
    const { form } = await replyFrom(dm.ts, FEEDBACK_ACTION.replyOpen, 'From Slack');
    expect(form).toContain('This replaces the reply already given');
    expect(form).toContain('From the web');
    expect(await readReply()).toBe('From Slack');
    expect(JSON.stringify(toAuthor().at(-1)?.body)).toContain('changed their reply');
  });

  it('a refused change of reply shows the form again as it was — saying what it replaces — with the text typed', async () => {
    const dm = await feedbackGiven();
    await replyFrom(dm.ts, FEEDBACK_ACTION.replyOpen, 'First answer');
    h.sandbox.inject({ operationId: 'taskFeedbackReply', status: 503 });
    const viewId = await h.openForm(() => {
      const shown = h.slack.message('DUASSIGNEE', dm.ts) as unknown as ShownMessage;
      return h.press({ message: shown, channel: 'DUASSIGNEE' }, FEEDBACK_ACTION.replyChange, {
        user: 'UASSIGNEE',
      });
    }, FEEDBACK_VIEW.reply);
    await h.submit(viewId, [[FEEDBACK_FIELD.reply, text('Typed again')]], { user: 'UASSIGNEE' });
    const again = await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes('nothing was saved'),
    );
    const shown = JSON.stringify(again.body.view);
    expect(shown).toContain('Change your reply');
    expect(shown).toContain('This replaces the reply already given');
    expect(shown).toContain('"initial_value":"Typed again"');
    expect(await readReply()).toBe('First answer');
    expect(toAuthor()).toHaveLength(1);
  });

  it.each<[FaultRule, string]>([
    [{ status: 401 }, 'Reconnect'],
    [{ status: 403 }, 'your role does not allow it'],
    [{ status: 503 }, 'not answering right now; nothing was saved'],
    [{ delayMs: 2_500 }, 'did not answer in time'],
  ])('when the service answers %o, says so, keeps the text typed, and DMs nobody', async (fault, why) => {
    await onMessage(card());
    const viewId = viewIdOf(await h.slack.waitFor('views.open'));
    h.sandbox.inject({ operationId: 'taskFeedbackCreate', ...fault });
    await h.submit(
      viewId,
      [
        [FEEDBACK_FIELD.issue, choice('security')],
        [FEEDBACK_FIELD.message, text('Typed words')],
      ],
      { user: 'UAUTHOR' },
    );
    const shown = await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes(why));
    if (fault.status === 401) {
      expect((await h.store.identities.get(TEAM, 'UAUTHOR'))?.valid).toBe(false);
    } else {
      expect(JSON.stringify(shown.body.view)).toContain('"initial_value":"Typed words"');
    }
    expect(h.slack.called('chat.postMessage')).toEqual([]);
  });

  it('shows an author who is not connected Connect in place of the form as it opens; creates nothing', async () => {
    await h.store.identities.delete(TEAM, 'UAUTHOR');
    await onMessage(card());
    const viewId = viewIdOf(await h.slack.waitFor('views.open'));
    const shown = await h.slack.waitFor('views.update', (b) =>
      JSON.stringify(b.view).includes('connect_open'),
    );
    expect(shown.body.view_id).toBe(viewId);
    expect(JSON.stringify(shown.body.view)).toContain('not connected');
    expect((h.slack.views.get(viewId) as { callback_id: string }).callback_id).toBe(VIEW.info);
    expect(h.sandbox.requests.count('taskFeedbackCreate')).toBe(0);
    expect(h.slack.called('chat.postMessage')).toEqual([]);
  });

  it('explains, kindly, that an ordinary message is not a task card', async () => {
    await onMessage({ type: 'message', ts: '1.2', text: 'hello', user: 'U9' });
    const open = await h.slack.waitFor('views.open');
    expect(JSON.stringify(open.body.view)).toContain('not one');
    expect(h.sandbox.requests.count('taskFeedbackCreate')).toBe(0);
  });

  it('opens the same form from the card’s button', async () => {
    const button = card()
      .blocks.flatMap((b) =>
        'elements' in b ? (b.elements as { action_id?: string; value?: string }[]) : [],
      )
      .find((e) => e.action_id === TASK_ACTION.feedbackOpen)!;
    await h.press({}, button, { user: 'UAUTHOR' });
    const open = await h.slack.waitFor('views.open');
    expect(JSON.parse((open.body.view as { private_metadata: string }).private_metadata)).toEqual(coords);
  });

  it('refuses an empty or too long message and records nothing', async () => {
    await onMessage(card());
    const viewId = viewIdOf(await h.slack.waitFor('views.open'));
    const empty = await h.submit(viewId, [[FEEDBACK_FIELD.issue, choice('value')]], { user: 'UAUTHOR' });
    expect(empty.json()).toEqual({
      response_action: 'errors',
      errors: { [FEEDBACK_FIELD.message.block]: 'Write your feedback.' },
    });
    const long = await h.submit(
      viewId,
      [
        [FEEDBACK_FIELD.issue, choice('value')],
        [FEEDBACK_FIELD.message, text('x'.repeat(513))],
      ],
      { user: 'UAUTHOR' },
    );
    expect(long.json()).toEqual({
      response_action: 'errors',
      errors: { [FEEDBACK_FIELD.message.block]: 'At most 512 characters.' },
    });
    expect(h.sandbox.requests.count('taskFeedbackCreate')).toBe(0);
  });

  it('records one feedback for a double submission', async () => {
    await onMessage(card());
    const viewId = viewIdOf(await h.slack.waitFor('views.open'));
    const values: Parameters<Harness['submit']>[1] = [
      [FEEDBACK_FIELD.issue, choice('misc')],
      [FEEDBACK_FIELD.message, text('once')],
    ];
    await Promise.all([
      h.submit(viewId, values, { user: 'UAUTHOR' }),
      h.submit(viewId, values, { user: 'UAUTHOR' }),
    ]);
    await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('Feedback sent'));
    expect(h.sandbox.requests.count('taskFeedbackCreate')).toBe(1);
  });
});
