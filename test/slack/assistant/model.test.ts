/**
 * The assistant with a model (ASSISTANT_MODEL_URL): a loopback fake model scripting tool calls and
 * streamed chunks. A free-form question is answered with the tools' results — the same reads as the
 * no-model answers, as the asking person — streamed into the thread; the model writes nothing to the
 * service and is never sent a token; its refusal and failures are one sentence each; a question the
 * assistant answers itself never reaches it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assistantThreads } from '../../helpers/assistant-thread.js';
import { type FakeModel, startFakeModel } from '../../helpers/fake-model.js';
import { BOT_TOKEN, eventually, Harness } from '../../helpers/slack-harness.js';

const MEMBER = 'U1';
const MODEL_KEY = 'sk-test-model-key';

describe('the planning assistant with a model', () => {
  let h: Harness;
  let model: FakeModel;

  beforeEach(async () => {
    model = await startFakeModel();
    h = await Harness.start({
      env: {
        ASSISTANT_MODEL_URL: model.url,
        ASSISTANT_MODEL: 'fake-model',
        ASSISTANT_MODEL_KEY: MODEL_KEY,
        ASSISTANT_MODEL_TIMEOUT_MS: '1000',
      },
    });
    h.slack.users.set(MEMBER, { id: MEMBER, name: 'mia' });
    await h.connect(MEMBER);
    await h.link('C1');
  });
  afterEach(async () => {
    await h.close();
    await model.close();
  });

  const { inThread, open: thread, ask } = assistantThreads(() => h, MEMBER);

  it('answers a free-form question with the tools’ reads, streamed, writing nothing and sending no token', async () => {
    await h.assignedTask('Write the spec');
    const writesBefore = h.sandbox.requests.entries.filter((e) => e.method !== 'GET').length;
    model.script(
      { toolCalls: [{ name: 'whats_waiting_for_me', args: {} }] },
      {
        text: [
          'Your most urgent work: ',
          '*Write the spec* is still to do. ',
          'Nothing else waits.'.repeat(6),
        ],
      },
    );
    const threadTs = await thread();
    await ask(threadTs, 'Anything I should pick up before lunch?');
    await eventually(() => h.slack.called('chat.stopStream').length === 1, 'the stream stopped');

    // The answer, streamed: started in the thread, appended, stopped — its whole text there.
    const answer = inThread(threadTs)[1]!;
    expect(answer.text).toContain('Your most urgent work: *Write the spec* is still to do.');
    expect(answer.text).toContain('Nothing else waits.');
    expect(h.slack.called('chat.startStream')[0]!.body).toMatchObject({
      thread_ts: threadTs,
      recipient_user_id: MEMBER,
    });
    expect(h.slack.called('chat.appendStream').length).toBeGreaterThan(0);

    // The model asked twice: the question, then with the tool's result — the member's own task.
    expect(model.requests).toHaveLength(2);
    const first = JSON.stringify(model.requests[0]);
    expect(first).toContain('Anything I should pick up before lunch?');
    expect(
      (model.requests[0]!.tools as { function: { name: string } }[]).map((t) => t.function.name),
    ).toEqual([
      'whats_waiting_for_me',
      'what_changed_this_week',
      'why_cannot_feature_advance',
      'who_knows',
      'propose_tasks',
    ]);
    const toolResult = (model.requests[1]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    );
    expect(toolResult?.content).toContain('Write the spec');
    // Bounded: tokens per request asked for.
    expect(model.requests[0]!.max_tokens).toBeGreaterThan(0);

    // Never a token in what the model is sent (the model's own key goes only in its header).
    const sent = JSON.stringify(model.requests);
    for (const secret of [
      BOT_TOKEN,
      h.sandbox.memberToken,
      h.sandbox.ownerToken,
      h.sandbox.adminToken,
      MODEL_KEY,
    ])
      expect(sent).not.toContain(secret);
    expect(sent).not.toContain('xoxb-');
    expect(model.authorizations[0]).toBe(`Bearer ${MODEL_KEY}`);
    // Nor in the logs; and the model wrote nothing to the service.
    expect(h.logs.join('')).not.toContain(h.sandbox.memberToken);
    expect(h.sandbox.requests.entries.filter((e) => e.method !== 'GET').length).toBe(writesBefore);
  });

  it('where Slack does not stream, the answer is one message updated once whole', async () => {
    h.slack.fail('chat.startStream', { ok: false, error: 'method_not_supported_for_channel_type' });
    model.script({ text: ['The plan ', 'looks calm ', 'this week.'] });
    const threadTs = await thread();
    await ask(threadTs, 'How does the plan look?');
    await eventually(() => h.slack.called('chat.update').length === 1, 'the message updated');
    expect(inThread(threadTs)).toHaveLength(2);
    expect(inThread(threadTs)[1]!.text).toBe('The plan looks calm this week.');
    expect(h.slack.called('chat.appendStream')).toHaveLength(0);
  });

  it('a question the assistant answers itself never reaches the model', async () => {
    const threadTs = await thread();
    await ask(threadTs, "What's waiting for me?");
    await eventually(() => inThread(threadTs).length === 2, 'the answer');
    expect(model.requests).toHaveLength(0);
  });

  it('the model refusing is one sentence', async () => {
    model.script({ refusal: 'I cannot help with that.' });
    const threadTs = await thread();
    await ask(threadTs, 'Write me a poem about my manager');
    await eventually(() => inThread(threadTs).length === 2, 'the sentence');
    expect(inThread(threadTs)[1]!.text).toBe('The model declined to answer that question.');
  });

  it('the model failing or stalling is one sentence each', async () => {
    model.script({ status: 500 });
    const threadTs = await thread();
    await ask(threadTs, 'How is the team doing overall?');
    await eventually(() => inThread(threadTs).length === 2, 'the failure sentence');
    expect(inThread(threadTs)[1]!.text).toContain('The model could not be reached just now');

    model.script({ stall: true });
    await ask(threadTs, 'And compared to last month?');
    await eventually(() => inThread(threadTs).length === 3, 'the timeout sentence');
    expect(inThread(threadTs)[2]!.text).toContain('The model took too long to answer');
  });

  it('a model asking for more reads than allowed is stopped, in one sentence', async () => {
    const call = { name: 'what_changed_this_week', args: {} };
    model.script({ toolCalls: [call, call, call, call] }, { toolCalls: [call, call, call] });
    const threadTs = await thread();
    await ask(threadTs, 'Summarize everything that happened, twice over');
    await eventually(() => inThread(threadTs).length === 2, 'the sentence');
    expect(inThread(threadTs)[1]!.text).toContain('more reads than I allow');
    expect(model.requests).toHaveLength(2);
  });
});
