/**
 * A person's threads with the planning assistant, driven as Slack drives them: the thread's root in
 * the app's DM, then `assistant_thread_started` looking at a channel, and questions typed in it as
 * `message.im` events — all as signed requests to the app under test.
 */
import type { PgMessage } from '../../src/playground/workspace.js';
import { DRAFT_FIELD } from '../../src/slack/assistant/ids.js';
import { choice, eventually, type Harness, TEAM, text } from './slack-harness.js';

/**
 * Submits the *Draft tasks* form `viewId` for the fixture's feature with `headings` (an empty one
 * leaves its line out), then Slack's retry of the same submission; resolves once the form says
 * `outcome` ("Created 2 tasks"). Whether the first submission was answered 200.
 */
export async function submitDraftWithRetry(
  h: Harness,
  viewId: string,
  headings: readonly string[],
  outcome: string,
): Promise<boolean> {
  const values: Parameters<Harness['submit']>[1] = [
    [DRAFT_FIELD.feature, choice(h.fixture.featureId)],
    ...headings.map((heading, i): Parameters<Harness['submit']>[1][number] => [
      DRAFT_FIELD.task(i),
      text(heading),
    ]),
  ];
  const first = await h.submit(viewId, values);
  await h.submit(viewId, values, {
    headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
  });
  await eventually(() => JSON.stringify(h.slack.views.get(viewId) ?? {}).includes(outcome), 'the outcome');
  return first.status === 200;
}

export interface AssistantThreads {
  /** The person's DM with the app (opened if needed). */
  dm(): string;
  /** What the app posted in the thread, after its root. */
  inThread(threadTs: string): PgMessage[];
  /** A new thread looking at `channel`, once the app greeted it; resolves with its ts. */
  open(channel?: string): Promise<string>;
  /** The person asks `text` in the thread. */
  ask(threadTs: string, text: string): Promise<unknown>;
}

/** `harness` is asked each time: a test file starts a new one per test. */
export function assistantThreads(harness: () => Harness, user: string): AssistantThreads {
  const dm = () => harness().slack.workspace.imWith(user).id;
  const inThread = (threadTs: string) => {
    const { workspace } = harness().slack;
    return workspace
      .inChannel(dm())
      .filter((m) => m.user === workspace.bot.userId && m.threadTs === threadTs && m.ts !== threadTs);
  };
  return {
    dm,
    inThread,
    async open(channel = 'C1') {
      const h = harness();
      h.slack.ensurePerson(user);
      const threadTs = h.slack.postAsBot(dm(), { text: 'New assistant thread' });
      await h.event({
        type: 'assistant_thread_started',
        assistant_thread: {
          user_id: user,
          channel_id: dm(),
          thread_ts: threadTs,
          context: { channel_id: channel, team_id: TEAM },
        },
        event_ts: `${threadTs}9`,
      });
      await eventually(() => inThread(threadTs).length === 1, 'the greeting');
      return threadTs;
    },
    ask(threadTs, text) {
      const h = harness();
      const ts = h.slack.workspace.post({ channel: dm(), user, text, threadTs }).ts;
      return h.event({
        type: 'message',
        channel: dm(),
        channel_type: 'im',
        user,
        text,
        ts,
        thread_ts: threadTs,
      });
    },
  };
}
