/**
 * *Draft tasks from this thread* asked in the assistant's panel, end to end through signed events:
 * a pasted message link's thread read (`conversations.replies`), or with no link the looked-at
 * channel's recent messages by people (`conversations.history`, bounded, said which) — proposed by
 * the shortcut's own extraction, nothing created until the *Review and create tasks* button's Draft
 * tasks form is submitted, then exactly the kept tasks once with Slack's retry, their cards in the
 * thread drafted from. A channel the person is not in, one the app cannot read, one not linked: one
 * sentence each, nothing read from it. On SQLite and PostgreSQL (the once keys of the submission).
 */
import { describe, expect, it } from 'vitest';
import { RECENT_READ } from '../../../src/slack/assistant/draft-answer.js';
import { ASSISTANT_ACTION, ASSISTANT_VIEW } from '../../../src/slack/assistant/ids.js';
import { ProposedTasks } from '../../../src/slack/assistant/proposed.js';
import { parseCarried } from '../../../src/slack/kit/round-trip.js';
import { assistantThreads, submitDraftWithRetry } from '../../helpers/assistant-thread.js';
import { describeWithPostgres } from '../../helpers/postgres.js';
import { eventually, type Harness, harnessEachTest, SLACK_ORIGIN } from '../../helpers/slack-harness.js';

const MEMBER = 'U1';
const REVIEW = ASSISTANT_ACTION.reviewProposedTasks;
const json = (v: unknown) => JSON.stringify(v);

/** The Review button's value on a message, if it has one. */
const reviewValue = (m: { blocks?: unknown }) =>
  ((m.blocks ?? []) as { elements?: { action_id?: string; value?: string }[] }[])
    .flatMap((b) => b.elements ?? [])
    .find((e) => e.action_id === REVIEW)?.value;

/** A message's permalink as Slack gives it (a reply's with its thread), and as a message carries it. */
const permalink = (channel: string, ts: string, threadTs?: string) =>
  `${SLACK_ORIGIN}/archives/${channel}/p${ts.replace('.', '')}${threadTs ? `?thread_ts=${threadTs}&amp;cid=${channel}` : ''}`;

function suite(backend: 'sqlite' | 'postgres') {
  let h: Harness;
  harnessEachTest(backend, 'assistant_draft', async (started) => {
    h = started;
    started.slack.users.set(MEMBER, { id: MEMBER, name: 'mia' });
    await started.connect(MEMBER);
    await started.link('C1');
  });
  const { dm, inThread, open, ask } = assistantThreads(() => h, MEMBER);

  /** The thread's answer to `question`, once there. */
  async function answer(threadTs: string, question: string) {
    const before = inThread(threadTs).length;
    await ask(threadTs, question);
    await eventually(() => inThread(threadTs).length > before, `the answer to ${question}`);
    return { ...inThread(threadTs)[before]! };
  }
  const reads = () =>
    h.slack.calls.filter((c) => c.method === 'conversations.replies' || c.method === 'conversations.history');

  it('a pasted link: its thread read, proposed, nothing created; the button’s form creates the kept ones once, in that thread', async () => {
    const root = h.slack.workspace.post({ channel: 'C1', user: 'U9', text: 'Release retro' }).ts;
    h.slack.workspace.post({
      channel: 'C1',
      user: 'U2',
      text: '- write the changelog\n- Tag the build',
      threadTs: root,
    });
    const reply = h.slack.workspace.post({
      channel: 'C1',
      user: 'U9',
      text: 'TODO: email the beta users',
      threadTs: root,
    });
    h.slack.workspace.post({ channel: 'C1', user: 'U2', text: 'thanks all', threadTs: root });
    const before = (await h.tasksOfFeature()).length;
    const writes = h.sandbox.requests.entries.filter((e) => e.method !== 'GET').length;

    const threadTs = await open('C1');
    // The link of a reply: the whole thread is read, from its root.
    const shown = await answer(threadTs, `Draft tasks from <${permalink('C1', reply.ts, root)}>`);
    expect(shown.text).toContain('I read the thread of');
    expect(json(shown.blocks)).toContain('(4 messages)');
    for (const heading of ['Write the changelog', 'Tag the build', 'Email the beta users'])
      expect(json(shown.blocks)).toContain(heading);
    expect(json(shown.blocks)).not.toContain('thanks all');
    expect(h.slack.called('conversations.replies').at(-1)!.body).toMatchObject({ channel: 'C1' });
    const carried = parseCarried(ProposedTasks, reviewValue(shown)!)!;
    expect(carried).toMatchObject({ contextChannelId: 'C1', threadTs: root });
    // Proposing creates nothing.
    expect(await h.tasksOfFeature()).toHaveLength(before);
    expect(h.sandbox.requests.entries.filter((e) => e.method !== 'GET').length).toBe(writes);

    const viewId = await h.openForm(
      () => h.press({ message: shown, channel: dm() }, REVIEW),
      ASSISTANT_VIEW.draftTasks,
    );
    expect(json(h.slack.views.get(viewId))).toContain('Tag the build');
    expect(await h.tasksOfFeature()).toHaveLength(before);
    expect(
      await submitDraftWithRetry(
        h,
        viewId,
        ['Write the changelog', '', 'Email the beta testers'],
        'Created 2 tasks',
      ),
    ).toBe(true);
    expect(h.sandbox.requests.count('taskCreate')).toBe(2);
    const created = (await h.tasksOfFeature()).slice(before).map((t) => t.heading);
    expect(created.sort()).toEqual(['Email the beta testers', 'Write the changelog']);
    // The cards: in the thread the tasks were drafted from.
    for (const heading of ['Email the beta testers', 'Write the changelog']) {
      const cards = h.slack.workspace
        .inChannel('C1')
        .filter((m) => m.botId && m.threadTs === root && json(m.blocks).includes(heading));
      expect(cards, heading).toHaveLength(1);
    }
  });

  it('no link: the looked-at channel’s recent messages by people, bounded and said which; the app’s own cards left out', async () => {
    h.slack.channel('C1', h.slack.workspace.bot.userId);
    h.slack.postAsBot('C1', { text: 'Task: Write the docs' });
    h.slack.workspace.post({ channel: 'C1', user: 'U2', text: '- fix the login bug' });
    h.slack.workspace.post({ channel: 'C1', user: 'U9', text: 'we should add a retry on timeouts' });
    h.slack.workspace.post({ channel: 'C1', user: 'U9', text: 'sounds good' });

    const threadTs = await open('C1');
    const shown = await answer(threadTs, 'Draft tasks from this thread');
    expect(shown.text).toContain('I read the 3 most recent messages by people in <#C1>');
    expect(shown.text).toContain(`at most the last ${RECENT_READ}`);
    expect(json(shown.blocks)).toContain('Fix the login bug');
    expect(json(shown.blocks)).toContain('Add a retry on timeouts');
    expect(json(shown.blocks)).not.toContain('Write the docs');
    expect(h.slack.called('conversations.history').at(-1)!.body).toMatchObject({
      channel: 'C1',
      limit: String(RECENT_READ),
    });
    // No thread: the cards would be new messages in the channel.
    expect(parseCarried(ProposedTasks, reviewValue(shown)!)).toEqual({
      contextChannelId: 'C1',
      headings: ['Fix the login bug', 'Add a retry on timeouts'],
    });
  });

  it('a channel the person is not in, one the app cannot read, one not linked: one sentence each, nothing read from it', async () => {
    // C5 is linked, but the member is not in it.
    await h.link('C5', 'U2');
    const secret = h.slack.workspace.post({ channel: 'C5', user: 'U2', text: '- rotate the keys' }).ts;
    const threadTs = await open('C1');
    const notMember = await answer(threadTs, `draft tasks from <${permalink('C5', secret)}>`);
    expect(notMember.text).toContain('You are not a member of <#C5>');
    expect(json(notMember.blocks)).not.toContain('rotate the keys');
    expect(reads()).toHaveLength(0);

    // A private channel looked at, linked, which the app is not in: Slack refuses its history
    // (a public one the app joins to read, as everywhere else).
    h.slack.workspace.addChannel({ id: 'G7', members: [MEMBER], isPrivate: true });
    await h.link('G7');
    h.slack.workspace.post({ channel: 'G7', user: MEMBER, text: '- plan the offsite' });
    const inPrivate = await open('G7');
    const unreadable = await answer(inPrivate, 'Draft tasks from this thread');
    expect(unreadable.text).toContain('I cannot read <#G7>: the app is not in it');
    expect(json(unreadable.blocks)).not.toContain('plan the offsite');
    expect(reviewValue(unreadable)).toBeUndefined();

    // An install from before the assistant read channels lacks their scopes: a reinstall is asked for.
    h.slack.fail('conversations.members', { ok: false, error: 'missing_scope' });
    const unscoped = await answer(threadTs, 'Draft tasks from this thread');
    expect(unscoped.text).toContain('Ask a workspace admin to reinstall the app');
    expect(reviewValue(unscoped)).toBeUndefined();

    // A channel with no planning channel linked: its tasks would have nowhere to go.
    h.slack.channel('C9', MEMBER);
    const elsewhere = h.slack.workspace.post({ channel: 'C9', user: 'U2', text: '- ship it' }).ts;
    const unlinked = await answer(threadTs, `draft tasks from <${permalink('C9', elsewhere)}>`);
    expect(unlinked.text).toContain('is not linked to a planning channel');
    expect(reads().filter((c) => c.body.channel !== 'G7')).toHaveLength(0);
  });
}

describe('Draft tasks in the assistant (SQLite)', () => suite('sqlite'));
describeWithPostgres('Draft tasks in the assistant (PostgreSQL)', () => suite('postgres'));
