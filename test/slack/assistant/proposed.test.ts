/**
 * Tasks proposed by the assistant's model (`propose_tasks`): proposing creates nothing — the answer
 * in the thread carries *Review and create tasks*, whose press opens the Draft tasks form prefilled;
 * only *Create tasks* creates them, once with Slack's retries, their cards posted in the channel
 * looked at. The model's headings are cleaned, capped and carried within the button's limit; a guest's
 * press is refused in one sentence. The loopback fake model scripts the tool call.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ASSISTANT_ACTION, ASSISTANT_VIEW, DRAFT_FIELD } from '../../../src/slack/assistant/ids.js';
import {
  MAX_MODEL_PROPOSALS,
  modelProposal,
  ProposedTasks,
  proposedReply,
} from '../../../src/slack/assistant/proposed.js';
import { parseCarried } from '../../../src/slack/kit/round-trip.js';
import { assistantThreads } from '../../helpers/assistant-thread.js';
import { type FakeModel, startFakeModel } from '../../helpers/fake-model.js';
import {
  choice,
  eventually,
  Harness,
  type ShownMessage,
  submitted,
  text,
} from '../../helpers/slack-harness.js';

const MEMBER = 'U1';
const GUEST = 'UGUEST';
const RETRY = { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' };
const REVIEW = ASSISTANT_ACTION.reviewProposedTasks;
const json = (v: unknown) => JSON.stringify(v);

/** The Review button's value on a message, if it has one. */
const reviewValue = (m: { blocks?: unknown[] }) =>
  (m.blocks ?? [])
    .flatMap((b) => (b as { elements?: { action_id?: string; value?: string }[] }).elements ?? [])
    .find((e) => e.action_id === REVIEW)?.value;

describe('tasks proposed by the model, as the model gives them', () => {
  it('keeps non-empty headings, each once, on one line, cut to the service’s limit', () => {
    const long = 'x'.repeat(500);
    expect(modelProposal({ headings: ['  Write\n the spec ', '', 'write the spec', 42, long] })).toEqual({
      headings: ['Write the spec', `${'x'.repeat(199)}…`],
      leftOut: 0,
    });
  });

  it('proposes nothing for no heading, empty ones or arguments of the wrong shape', () => {
    for (const args of [{}, { headings: [] }, { headings: ['  ', ''] }, { headings: 'Write it' }, null, 'x'])
      expect(modelProposal(args)).toBeUndefined();
  });

  it('keeps at most ten and counts the rest', () => {
    const many = Array.from({ length: 14 }, (_, i) => `Task ${i + 1}`);
    const proposal = modelProposal({ headings: many, feature: 'Login' })!;
    expect(proposal.headings).toHaveLength(MAX_MODEL_PROPOSALS);
    expect(proposal).toMatchObject({ feature: 'Login', leftOut: 4 });
  });

  it('carries what fits in the button (2,000 characters) and says how many were left out', () => {
    const headings = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(200, 'y'));
    const reply = proposedReply('C1', modelProposal({ headings })!);
    const value = reviewValue(reply as { blocks?: unknown[] })!;
    expect(value.length).toBeLessThanOrEqual(2000);
    const carried = parseCarried(ProposedTasks, value)!;
    expect(carried.headings.length).toBeLessThan(10);
    expect(carried.headings).toEqual(headings.slice(0, carried.headings.length));
    const leftOut = 10 - carried.headings.length;
    expect(json(reply.blocks)).toContain(`${leftOut} more proposal${leftOut === 1 ? '' : 's'} left out`);
  });
});

describe('the assistant with a model proposing tasks', () => {
  let h: Harness;
  let model: FakeModel;

  beforeEach(async () => {
    model = await startFakeModel();
    h = await Harness.start({
      env: {
        ASSISTANT_MODEL_URL: model.url,
        ASSISTANT_MODEL: 'fake-model',
        ASSISTANT_MODEL_TIMEOUT_MS: '5000',
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

  const { dm, inThread, open: thread, ask } = assistantThreads(() => h, MEMBER);

  /** The thread's message carrying the Review button, once there. */
  async function proposalMessage(threadTs: string): Promise<ShownMessage> {
    let found: ShownMessage | undefined;
    await eventually(() => {
      const message = inThread(threadTs).find((m) => reviewValue(m) !== undefined);
      found = message ? { ...message } : undefined;
      return found !== undefined;
    }, 'the proposed tasks');
    return found!;
  }

  it('proposing creates nothing; the press opens Draft tasks prefilled; Create tasks creates exactly those once, cards in the channel looked at', async () => {
    const before = (await h.tasksOfFeature()).length;
    const writesBefore = h.sandbox.requests.entries.filter((e) => e.method !== 'GET').length;
    model.script(
      {
        toolCalls: [
          {
            name: 'propose_tasks',
            args: {
              headings: ['Write the <!channel> changelog', 'Tag the build', '  ', 'tag the build'],
              feature: h.fixture.featureHeading,
            },
          },
        ],
      },
      { text: ['I proposed two tasks for you to review.'] },
    );
    const threadTs = await thread();
    await ask(threadTs, 'Turn our release plan into tasks');
    const proposed = await proposalMessage(threadTs);

    // Shown escaped, after the answer; the model was told they are only shown; nothing created.
    // What Slack renders: the sections' text (the button's value is never shown).
    const shown = json((proposed.blocks ?? []).filter((b) => (b as { type: string }).type === 'section'));
    expect(shown).toContain('Write the &lt;!channel&gt; changelog');
    expect(shown).not.toContain('<!channel>');
    expect(shown).toContain('Tag the build');
    const toolResult = (model.requests[1]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    );
    expect(toolResult?.content).toContain('Shown to the person for confirmation: 2 task(s)');
    expect(
      (model.requests[0]!.tools as { function: { name: string } }[]).map((t) => t.function.name),
    ).toContain('propose_tasks');
    expect(await h.tasksOfFeature()).toHaveLength(before);
    expect(h.sandbox.requests.entries.filter((e) => e.method !== 'GET').length).toBe(writesBefore);

    // The press opens the form: the headings, the feature the model named chosen already.
    const viewId = await h.openForm(
      () => h.press({ message: proposed, channel: dm() }, REVIEW),
      ASSISTANT_VIEW.draftTasks,
    );
    const form = json(h.slack.views.get(viewId));
    expect(form).toContain('Write the <!channel> changelog');
    expect(form).toContain('Tag the build');
    expect(form).toContain(
      `"initial_option":{"text":{"type":"plain_text","text":${json(h.fixture.featureHeading)}`,
    );
    expect(await h.tasksOfFeature()).toHaveLength(before);

    // Created on submit, once: sent twice at once (a double click), then retried by Slack.
    const payload = {
      type: 'view_submission',
      view: submitted(viewId, h.slack.views.get(viewId)!, [
        [DRAFT_FIELD.feature, choice(h.fixture.featureId)],
        [DRAFT_FIELD.task(0), text('Write the changelog')],
        [DRAFT_FIELD.task(1), text('Tag the build')],
      ]),
    };
    const both = await Promise.all([h.interact(payload), h.interact(payload)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    await eventually(() => json(h.slack.views.get(viewId) ?? {}).includes('Created 2 tasks'), 'the outcome');
    expect((await h.interact(payload, MEMBER, RETRY)).status).toBe(200);
    await eventually(
      () =>
        h.slack.called('views.update').filter((c) => json(c.body).includes('Created 2 tasks')).length >= 2,
      'the stored outcome shown again',
    );
    expect(h.sandbox.requests.count('taskCreate')).toBe(2);
    const created = (await h.tasksOfFeature()).slice(before).map((t) => t.heading ?? '');
    expect(created.sort()).toEqual(['Tag the build', 'Write the changelog']);
    // The cards: new messages in C1 (no thread), one per task.
    for (const heading of created) {
      const cards = h.slack.workspace
        .inChannel('C1')
        .filter((m) => m.botId && !m.threadTs && json(m.blocks).includes(heading));
      expect(cards, heading).toHaveLength(1);
    }
    expect(json(h.slack.views.get(viewId)).match(/archives\/C1\/p\d+\|/g)).toHaveLength(2);
  });

  it('no heading proposed, or a channel not linked: the model is told, no button is shown', async () => {
    model.script(
      { toolCalls: [{ name: 'propose_tasks', args: { headings: ['   ', ''] } }] },
      { text: ['Nothing to propose.'] },
    );
    const threadTs = await thread();
    await ask(threadTs, 'Any tasks in there?');
    await eventually(
      () => inThread(threadTs).some((m) => m.text.includes('Nothing to propose.')),
      'the answer',
    );
    const told = (model.requests[1]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    );
    expect(told?.content).toContain('Nothing was proposed');

    h.slack.channel('C9', MEMBER);
    model.script(
      { toolCalls: [{ name: 'propose_tasks', args: { headings: ['Ship it'] } }] },
      { text: ['That channel has no plan.'] },
    );
    const elsewhere = await thread('C9');
    await ask(elsewhere, 'Make tasks of this');
    await eventually(
      () => inThread(elsewhere).some((m) => m.text.includes('That channel has no plan.')),
      'the second answer',
    );
    const refused = (model.requests[3]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === 'tool',
    );
    expect(refused?.content).toContain('is not linked to a planning channel');
    expect([...inThread(threadTs), ...inThread(elsewhere)].some((m) => reviewValue(m) !== undefined)).toBe(
      false,
    );
  });

  it('a forged button value is told as out of date; no form opens', async () => {
    const since = h.slack.calls.length;
    await h.press({ message: { ts: '1.1' }, channel: dm() }, REVIEW, { value: '{"c":"C1","h":[]}' });
    await eventually(
      () => h.slack.calls.slice(since).some((c) => json(c.body).includes('This button is out of date')),
      'the sentence',
    );
    expect(h.slack.calls.slice(since).map((c) => c.method)).not.toContain('views.open');
  });

  it('a guest’s press is refused in one sentence; no form opens, nothing is read', async () => {
    h.slack.users.set(GUEST, { id: GUEST, name: 'gus', guest: 'multi-channel' });
    const value = reviewValue(
      proposedReply('C1', modelProposal({ headings: ['Ship it'] })!) as { blocks?: unknown[] },
    )!;
    const since = h.slack.calls.length;
    const reads = h.sandbox.requests.entries.length;
    await h.press({ message: { ts: '1.1' }, channel: 'C1' }, REVIEW, { value, user: GUEST });
    await eventually(
      () =>
        h.slack.calls.slice(since).some((c) => json(c.body).includes('Only full members of this workspace')),
      'the refusal',
    );
    expect(h.slack.calls.slice(since).map((c) => c.method)).not.toContain('views.open');
    expect(h.sandbox.requests.entries.length).toBe(reads);
  });
});
