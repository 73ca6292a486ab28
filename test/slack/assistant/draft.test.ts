/**
 * Draft tasks, end to end: the message shortcut on a thread in a linked channel, the thread read
 * from the fake Slack, the proposals shown in a modal, nothing created until the submission — then
 * exactly the kept headings created in the sandbox once, with Slack's retries of the submission,
 * each listed with its card's permalink. The tasks themselves proposed from lines: proposals.ts.
 */
import { describe, expect, it } from 'vitest';
import { ASSISTANT_SHORTCUT, ASSISTANT_VIEW, DRAFT_FIELD } from '../../../src/slack/assistant/ids.js';
import { proposalOf, proposals } from '../../../src/slack/assistant/proposals.js';
import { submitDraftWithRetry } from '../../helpers/assistant-thread.js';
import { describeWithPostgres } from '../../helpers/postgres.js';
import { eventually, type Harness, harnessEachTest, text } from '../../helpers/slack-harness.js';

describe('proposals', () => {
  it.each([
    ['- write the migration', 'Write the migration'],
    ['1. Update the *docs*.', 'Update the docs'],
    ['[ ] ping legal', 'Ping legal'],
    ['TODO: remove the flag', 'Remove the flag'],
    ['We should add a retry on timeouts', 'Add a retry on timeouts'],
    ["let's ship it on Friday!", 'Ship it on Friday'],
    ['Fix the flaky login test', 'Fix the flaky login test'],
    ['I think the design is fine', undefined],
    ['Sounds good', undefined],
    ['- should we drop IE?', undefined],
    ['', undefined],
  ])('%j → %j', (line, heading) => {
    expect(proposalOf(line)).toBe(heading);
  });

  it('one per line across the thread, each once, case aside', () => {
    expect(
      proposals([
        { text: 'Plan for the release:\n- write the changelog\n- Tag the build' },
        { text: 'agreed. also we should write the changelog' },
        { text: 'TODO: tag the build' },
      ]),
    ).toEqual(['Write the changelog', 'Tag the build']);
  });
});

/** The shortcut's suite with the store (its once keys) on `backend`. */
function suite(backend: 'sqlite' | 'postgres') {
  let h: Harness;
  harnessEachTest(backend, 'draft_tasks', async (started) => {
    h = started;
    await started.connect('U1');
    await started.link('C1');
  });

  /** A thread in C1: a root and replies; resolves with the root as the shortcut sees it. */
  function thread(root: string, ...replies: string[]) {
    const ts = h.slack.workspace.post({ channel: 'C1', user: 'U9', text: root }).ts;
    for (const r of replies) h.slack.workspace.post({ channel: 'C1', user: 'U2', text: r, threadTs: ts });
    return { ts, text: root, user: 'U9', thread_ts: ts, reply_count: replies.length };
  }

  it('proposes one task per action-like line, creates exactly the kept ones once, each with its permalink', async () => {
    const root = thread(
      'Retro notes',
      '- write the changelog\n- Tag the build',
      'TODO: email the beta users',
      'thanks all',
    );
    const before = (await h.tasksOfFeature()).length;
    const viewId = await h.openForm(
      () => h.shortcut(ASSISTANT_SHORTCUT.draftTasks, { message: root }),
      ASSISTANT_VIEW.draftTasks,
    );
    const shown = JSON.stringify(h.slack.views.get(viewId));
    for (const heading of ['Write the changelog', 'Tag the build', 'Email the beta users'])
      expect(shown).toContain(heading);
    expect(shown).not.toContain('thanks all');
    // Nothing is created by proposing.
    expect(await h.tasksOfFeature()).toHaveLength(before);

    // The second is emptied (left out), the third edited; submitted, then retried by Slack.
    expect(
      await submitDraftWithRetry(
        h,
        viewId,
        ['Write the changelog', '', 'Email the beta testers'],
        'Created 2 tasks',
      ),
    ).toBe(true);
    const created = (await h.tasksOfFeature()).slice(before).map((t) => t.heading);
    expect(created.sort()).toEqual(['Email the beta testers', 'Write the changelog']);
    // Each listed with its card's permalink; the cards are in the thread the tasks came from.
    const outcome = JSON.stringify(h.slack.views.get(viewId));
    expect(outcome.match(/archives\/C1\/p\d+\|/g)).toHaveLength(2);
    const cards = h.slack.workspace.inChannel('C1').filter((m) => m.threadTs === root.ts && m.botId);
    expect(cards.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a submission with no task kept or no feature, on the field, creating nothing', async () => {
    const root = thread('Plan', '- write the changelog');
    const before = (await h.tasksOfFeature()).length;
    const viewId = await h.openForm(
      () => h.shortcut(ASSISTANT_SHORTCUT.draftTasks, { message: root }),
      ASSISTANT_VIEW.draftTasks,
    );
    const res = await h.submit(viewId, [[DRAFT_FIELD.task(0), text('  ')]]);
    const body = res.json() as { response_action: string; errors: Record<string, string> };
    expect(body.response_action).toBe('errors');
    expect(body.errors[DRAFT_FIELD.feature.block]).toBe('Choose the feature.');
    expect(body.errors[DRAFT_FIELD.task(0).block]).toBe('Keep at least one task.');
    expect(await h.tasksOfFeature()).toHaveLength(before);
  });

  it('a thread with nothing action-like, or a channel not linked: one sentence, no form', async () => {
    const root = thread('Lunch?', 'sure', 'I think so');
    const since = h.slack.calls.length;
    await h.shortcut(ASSISTANT_SHORTCUT.draftTasks, { message: root });
    await eventually(
      () =>
        h.slack
          .called('views.update')
          .slice(0)
          .some((c) => JSON.stringify(c.body).includes('no action-like line')),
      'the notice',
    );
    h.slack.channel('C9', 'U1');
    const elsewhere = h.slack.workspace.post({ channel: 'C9', user: 'U9', text: '- do it' }).ts;
    await h.shortcut(ASSISTANT_SHORTCUT.draftTasks, {
      message: { ts: elsewhere, text: '- do it' },
      channel: 'C9',
    });
    await eventually(
      () =>
        h.slack
          .called('views.update')
          .some((c) => JSON.stringify(c.body).includes('not linked to a planning channel')),
      'the not-linked notice',
    );
    expect(
      h.slack.calls
        .slice(since)
        .some((c) => (c.body.view as { callback_id?: string })?.callback_id === ASSISTANT_VIEW.draftTasks),
    ).toBe(false);
  });
}

describe('Draft tasks (message shortcut, SQLite)', () => suite('sqlite'));
describeWithPostgres('Draft tasks (message shortcut, PostgreSQL)', () => suite('postgres'));
