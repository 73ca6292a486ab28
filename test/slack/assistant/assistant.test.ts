/**
 * The planning assistant in Slack's AI side panel, end to end: signed `assistant_thread_*` and
 * `message` events to the Bolt app, what Slack was told read back from the fake Slack, the thread
 * and its context read back from the store (SQLite and PostgreSQL), the answers checked against
 * the sandbox's tasks. A guest is refused in one sentence and nothing is kept or read.
 */
import { describe, expect, it } from 'vitest';
import { createPlanningClient } from '../../../src/planning/index.js';
import { FEEDBACK_ACTION } from '../../../src/slack/feedback/ids.js';
import { GRADE_ACTION, GRADE_VIEW } from '../../../src/slack/grades/ids.js';
import { GradePeerValue } from '../../../src/slack/grades/index.js';
import { parseCarried } from '../../../src/slack/kit/round-trip.js';
import { TASK_ACTION } from '../../../src/slack/tasks/index.js';
import { describeWithPostgres } from '../../helpers/postgres.js';
import { eventually, type Harness, harnessEachTest, TEAM } from '../../helpers/slack-harness.js';

const MEMBER = 'U1';
const GUEST = 'UGUEST';
const RETRY = { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' };

function suite(backend: 'sqlite' | 'postgres') {
  let h: Harness;
  harnessEachTest(backend, 'assistant', async (started) => {
    h = started;
    started.slack.users.set(MEMBER, { id: MEMBER, name: 'mia' });
  });

  /** The person's DM with the app (opened if needed). */
  const dm = (user: string) => h.slack.workspace.imWith(user).id;
  /** What the app posted in the thread `threadTs` of `user`'s DM, after its root. */
  const inThread = (user: string, threadTs: string) =>
    h.slack.workspace
      .inChannel(dm(user))
      .filter((m) => m.user === h.slack.workspace.bot.userId && m.threadTs === threadTs && m.ts !== threadTs);
  const shown = (m: { blocks?: unknown; text?: string }) => JSON.stringify(m.blocks ?? m.text);
  const panel = (user: string, threadTs: string) =>
    h.slack.workspace.assistantThreads.get(`${dm(user)}:${threadTs}`);

  /** Slack opens an assistant thread for `user` looking at `context`: its root exists, then the event. */
  function started(user = MEMBER, context?: string) {
    h.slack.ensurePerson(user);
    const threadTs = h.slack.postAsBot(dm(user), { text: 'New assistant thread' });
    const event = (type: string, channel = context) => ({
      type,
      assistant_thread: {
        user_id: user,
        channel_id: dm(user),
        thread_ts: threadTs,
        context: channel ? { channel_id: channel, team_id: TEAM } : {},
      },
      event_ts: `${threadTs}9`,
    });
    return {
      threadTs,
      send: (headers: Record<string, string> = {}) => h.event(event('assistant_thread_started'), headers),
      contextChanged: (channel: string) =>
        h.event({ ...event('assistant_thread_context_changed', channel), event_ts: `${threadTs}8` }),
    };
  }

  /** `user` asks `text` in the thread. */
  function ask(threadTs: string, text: string, user = MEMBER) {
    const ts = h.slack.workspace.post({ channel: dm(user), user, text, threadTs }).ts;
    return h.event({
      type: 'message',
      channel: dm(user),
      channel_type: 'im',
      user,
      text,
      ts,
      thread_ts: threadTs,
    });
  }

  it('a new thread gets a greeting and the prompts, once, and keeps the channel the person looks at', async () => {
    const t = started(MEMBER, 'C1');
    expect((await t.send()).status).toBe(200);
    await eventually(() => (panel(MEMBER, t.threadTs)?.prompts.length ?? 0) > 0, 'the prompts');
    expect(panel(MEMBER, t.threadTs)!.prompts.map((p) => p.message)).toContain("What's waiting for me?");
    expect(inThread(MEMBER, t.threadTs)).toHaveLength(1);
    expect(shown(inThread(MEMBER, t.threadTs)[0]!)).toContain('Ask me, or pick a suggestion');
    // Said through Bolt's Assistant class (its `say` tags the thread's context on what it posts).
    expect(inThread(MEMBER, t.threadTs)[0]!.metadata).toEqual({
      event_type: 'assistant_thread_context',
      event_payload: { channel_id: 'C1', team_id: TEAM },
    });
    expect(await h.store.assistantThreads.get(TEAM, dm(MEMBER), t.threadTs)).toEqual({
      workspaceId: TEAM,
      dmChannelId: dm(MEMBER),
      threadTs: t.threadTs,
      slackUserId: MEMBER,
      contextChannelId: 'C1',
    });

    // Slack retries the event: nothing said twice.
    await t.send(RETRY);
    await eventually(() => h.logs.join('').includes('event already handled'), 'the retry taken');
    expect(inThread(MEMBER, t.threadTs)).toHaveLength(1);

    // The person moves to another channel: the thread follows, in the store (any replica reads it).
    await t.contextChanged('C2');
    await eventually(
      async () =>
        (await h.store.assistantThreads.get(TEAM, dm(MEMBER), t.threadTs))?.contextChannelId === 'C2',
      'the context followed',
    );
    expect(inThread(MEMBER, t.threadTs)).toHaveLength(1);
  });

  it("answers What's waiting for me? with the person's own open tasks by state, with their buttons", async () => {
    await h.connect(MEMBER);
    await h.link('C1');
    const owner = h.owner();
    const todo = await h.assignedTask('Write the spec');
    const review = await h.assignedTask('Review the copy');
    await owner.tasks.update(review.teamId, review.channelId, review.featureId, review.taskId, {
      state: 'in review',
    });
    const done = await h.assignedTask('Ship the old page');
    await owner.tasks.update(done.teamId, done.channelId, done.featureId, done.taskId, { state: 'done' });
    const { teamId, channelId, featureId } = h.fixture;
    await owner.tasks.create(teamId, channelId, featureId, { heading: 'Nobody has this one' });
    // Feedback on one of the member's tasks, still to answer; a feature they wrote that can advance
    // (it has an assumption), and one they wrote that cannot yet (none).
    await owner.tasks.feedbackCreate(teamId, channelId, featureId, review.taskId, {
      message: 'Please check the wording',
      issue: 'misc',
    });
    const asMember = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    const ready = await asMember.features.create(teamId, channelId, { heading: 'Export to CSV' });
    await asMember.assumptions.create(teamId, channelId, ready.id, { heading: 'People export weekly' });
    await asMember.features.create(teamId, channelId, { heading: 'Dark mode' });

    const t = started(MEMBER, 'C1');
    await t.send();
    await eventually(() => inThread(MEMBER, t.threadTs).length === 1, 'the greeting');
    await ask(t.threadTs, 'What’s waiting for me?');
    await eventually(() => inThread(MEMBER, t.threadTs).length === 2, 'the answer');
    const answer = inThread(MEMBER, t.threadTs)[1]!;
    const text = shown(answer);
    // The class's thread context, read from the store (a message event carries none): the answer is tagged with it.
    expect(answer.metadata).toEqual({
      event_type: 'assistant_thread_context',
      event_payload: { channel_id: 'C1' },
    });
    expect(answer.text).toContain('You have 2 open tasks and 1 feedback to answer');
    expect(text).toContain('Please check the wording');
    expect(text).toContain(FEEDBACK_ACTION.replyOpen);
    expect(text).toContain('Features you authored that can advance');
    expect(text).toContain('Export to CSV');
    expect(text).not.toContain('Dark mode');
    expect(text).toContain('Write the spec');
    expect(text).toContain('Review the copy');
    expect(text).toContain('To do');
    expect(text).toContain('In review');
    expect(text).not.toContain('Ship the old page');
    expect(text).not.toContain('Nobody has this one');
    // The task card's own state buttons, carrying each task.
    const forward = (answer.blocks as { type: string; elements?: { action_id: string; value: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .filter((e) => e.action_id === TASK_ACTION.stateForward);
    expect(forward.map((e) => JSON.parse(e.value).taskId).sort()).toEqual(
      [todo.taskId, review.taskId].sort(),
    );
    // The thread was titled with the question and given a status while reading.
    expect(panel(MEMBER, t.threadTs)?.title).toBe('What’s waiting for me?');
    expect(h.slack.called('assistant.threads.setStatus').map((c) => c.body.status)).toContain(
      'is reading your plan…',
    );
    // Read with the person's own token: the member's, not the owner's.
    expect(h.logs.join('')).not.toContain(h.sandbox.memberToken);
  });

  it("What's waiting for me? offers peers you could grade — teammates' done tasks on features changed this week, with their notions — and never what was graded", async () => {
    await h.connect(MEMBER);
    await h.connect('U2', 'owner');
    h.slack.users.set('U2', { id: 'U2', name: 'olga' });
    await h.link('C1');
    const owner = h.owner();
    const { teamId, channelId, featureId } = h.fixture;
    const notion = await owner.notions.create({ value: 'TypeScript' });
    // The owner's done task, exercising TypeScript; their open one; the member's own done one; a done
    // task of someone nobody here acts as (the admin): only the first is offered.
    const theirs = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Write the parser' });
    await owner.tasks.assign(teamId, channelId, featureId, theirs.id, h.sandbox.ownerId);
    await owner.tasks.update(teamId, channelId, featureId, theirs.id, {
      state: 'done',
      notionIds: [notion.id],
    });
    const open = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Still going' });
    await owner.tasks.assign(teamId, channelId, featureId, open.id, h.sandbox.ownerId);
    const mine = await h.assignedTask('My finished one');
    await owner.tasks.update(teamId, channelId, featureId, mine.taskId, { state: 'done' });
    const nobodys = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Admin work' });
    await owner.tasks.assign(teamId, channelId, featureId, nobodys.id, h.sandbox.adminId);
    await owner.tasks.update(teamId, channelId, featureId, nobodys.id, { state: 'done' });

    const answer = await answerTo("What's waiting for me?", 'C1');
    const text = shown(answer);
    expect(text).toContain('Peers you could grade');
    expect(text).toContain('<@U2> — *TypeScript* · done: “Write the parser”');
    expect(text).toContain('I cannot know whether you have graded them already');
    expect(text).not.toContain('Still going');
    expect(text).not.toContain('Admin work');
    expect(text).not.toContain(`<@${MEMBER}> —`);
    const grade = ((answer.blocks ?? []) as { accessory?: { action_id?: string; value?: string } }[])
      .flatMap((b) => (b.accessory ? [b.accessory] : []))
      .filter((b) => b.action_id === GRADE_ACTION.gradePeer);
    expect(grade.map((b) => parseCarried(GradePeerValue, b.value))).toEqual([
      { peer: 'U2', notion: { id: notion.id, value: 'TypeScript' } },
    ]);
    // Nothing about grades is read for it: who graded whom is never known, nor shown.
    for (const op of ['experienceList', 'experienceListPeer', 'experienceRead', 'experienceReadPeer'])
      expect(h.sandbox.requests.count(op)).toBe(0);

    // Grade opens the grading form with the peer and the notion chosen.
    const viewId = await h.openForm(
      () =>
        h.press({ message: { ...answer }, channel: dm(MEMBER) }, GRADE_ACTION.gradePeer, {
          value: grade[0]!.value!,
        }),
      GRADE_VIEW.grade,
    );
    const form = JSON.stringify(h.slack.views.get(viewId));
    expect(form).toContain('"initial_user":"U2"');
    expect(form).toContain(
      `"initial_option":{"text":{"type":"plain_text","text":"TypeScript","emoji":true},"value":"${notion.id}"}`,
    );
  });

  /** A member's thread looking at `context`, greeted; `question` asked; resolves with the answer. */
  async function answerTo(question: string, contextChannel?: string) {
    const t = started(MEMBER, contextChannel);
    await t.send();
    await eventually(() => inThread(MEMBER, t.threadTs).length === 1, 'the greeting');
    await ask(t.threadTs, question);
    await eventually(() => inThread(MEMBER, t.threadTs).length === 2, `the answer to ${question}`);
    return inThread(MEMBER, t.threadTs)[1]!;
  }
  const buttonsOf = (m: { blocks?: unknown }) =>
    ((m.blocks ?? []) as { elements?: { action_id: string; value?: string; text?: { text: string } }[] }[])
      .flatMap((b) => b.elements ?? [])
      .filter((e) => e.action_id);

  it("answers what changed this week in the looked-at channel's plan, per feature, and only there", async () => {
    await h.connect(MEMBER);
    await h.link('C1');
    const { teamId, channelId, featureId } = h.fixture;
    const owner = h.owner();
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Draw the form' });
    await owner.tasks.update(teamId, channelId, featureId, task.id, { state: 'in progress' });
    // Another planning channel's feature, not linked to the channel looked at.
    const other = await owner.teams.create({ teamName: 'Other team' });
    await owner.features.create(other.id, other.channels[0]!.id, { heading: 'Elsewhere feature' });

    const answer = shown(await answerTo("What changed in this channel's plan this week?", 'C1'));
    expect(answer).toContain('1 feature changed');
    expect(answer).toContain('Login page');
    expect(answer).toContain('Planning');
    expect(answer).toContain('Draw the form');
    expect(answer).toContain('1 in progress');
    expect(answer).not.toContain('Elsewhere feature');
  });

  it("answers why a feature cannot advance, with what unblocks it and the card's own buttons", async () => {
    await h.connect(MEMBER);
    await h.link('C1');
    const answer = await answerTo("Why can't login PAGE advance?", 'C1');
    expect(answer.text).toContain('cannot leave Planning');
    expect(answer.text).toContain('no assumption yet');
    const buttons = buttonsOf(answer).map((b) => b.text?.text);
    expect(buttons).toEqual(['Add assumption', 'Add task']);
    expect(JSON.parse(buttonsOf(answer)[0]!.value!).featureId).toBe(h.fixture.featureId);

    // With an assumption it can advance: Advance is offered.
    const { teamId, channelId, featureId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    const ready = await answerTo('why is Login page stuck?', 'C1');
    expect(ready.text).toContain('can advance');
    expect(buttonsOf(ready).map((b) => b.text?.text)).toContain('Advance');

    // A name that matches none: said, with nothing made up.
    const none = shown(await answerTo("Why can't Checkout advance?", 'C1'));
    expect(none).toContain('No feature of');
    expect(none).toContain('Checkout');
  });

  it('answers who knows a notion for the looked-at channel, as /plan who knows; a typo gets the closest', async () => {
    await h.connect(MEMBER);
    await h.link('C1');
    const owner = h.owner();
    const notion = await owner.notions.create({ value: 'TypeScript' });
    await owner.teams.assign(h.fixture.teamId, h.sandbox.memberId);
    await owner.experiences.evaluatePeer(notion.id, 8, h.sandbox.memberId);
    const answer = shown(await answerTo('Who knows typescript?', 'C1'));
    expect(answer).toContain('Who knows TypeScript');
    expect(answer).toContain('peers *8* (1 grade)');
    const typo = shown(await answerTo('who knows typscript', 'C1'));
    expect(typo).toContain('There is no notion named “typscript”');
    expect(typo).toContain('TypeScript');
    // Looking at a channel with no link: one sentence, nothing ranked.
    const unlinked = shown(await answerTo('who knows TypeScript', 'C9'));
    expect(unlinked).toContain('is not linked to a planning channel');
  });

  it('a question it does not know gets what it can do, never silence', async () => {
    await h.connect(MEMBER);
    const t = started(MEMBER);
    await t.send();
    await eventually(() => inThread(MEMBER, t.threadTs).length === 1, 'the greeting');
    await ask(t.threadTs, 'tell me a joke');
    await eventually(() => inThread(MEMBER, t.threadTs).length === 2, 'the answer');
    const text = shown(inThread(MEMBER, t.threadTs)[1]!);
    expect(text).toContain('Here is what I can answer');
    expect(text).toContain('Who knows «notion»?');
    expect(text).toContain('waiting for me');
    // Nothing was read from the service for it.
    expect(h.sandbox.requests.count('features.list')).toBe(0);
  });

  it('a message in an app DM thread that is no assistant thread keeps the help answer', async () => {
    const root = h.slack.postAsBot(dm(MEMBER), { text: 'You were assigned a task' });
    await ask(root, "what's waiting for me?");
    await eventually(() => inThread(MEMBER, root).length === 1, 'the help');
    expect(shown(inThread(MEMBER, root)[0]!)).toContain('I answer commands rather than messages');
  });

  it('a guest opening the assistant gets one sentence in the thread; nothing is kept or read', async () => {
    h.slack.users.set(GUEST, { id: GUEST, name: 'gus', guest: 'multi-channel' });
    const t = started(GUEST, 'C1');
    await t.send();
    await eventually(() => inThread(GUEST, t.threadTs).length === 1, 'the refusal');
    expect(shown(inThread(GUEST, t.threadTs)[0]!)).toContain('Only full members of this workspace');
    expect(panel(GUEST, t.threadTs)).toBeUndefined();
    expect(await h.store.assistantThreads.get(TEAM, dm(GUEST), t.threadTs)).toBeUndefined();
    // Asking anyway in that thread: the same one sentence, nothing read.
    await ask(t.threadTs, "What's waiting for me?", GUEST);
    await eventually(() => inThread(GUEST, t.threadTs).length === 2, 'the second refusal');
    expect(shown(inThread(GUEST, t.threadTs)[1]!)).toContain('Only full members of this workspace');
    expect(h.sandbox.requests.count('features.list')).toBe(0);
  });
}

describe('the planning assistant (SQLite)', () => suite('sqlite'));
describeWithPostgres('the planning assistant (PostgreSQL)', () => suite('postgres'));
