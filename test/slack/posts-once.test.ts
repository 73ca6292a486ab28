/**
 * A message Slack accepted and then failed to answer — a 500 after the work, or a connection reset
 * before any answer — appears once, on every path that posts one (issue 34 item 1): a request
 * (Create task's card), a workflow step's card, a DM, `/plan digest now`, the watch's thread
 * message. The one Slack sender (src/slack-api/) never sends such a post again: it finds it in its
 * channel or thread; and whoever waits is told the truth. A 429 is waited out on each path.
 * Slack is the fake on loopback, the service the sandbox; what the channel holds is what counts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClients } from '../../src/clients.js';
import { createLogger } from '../../src/logger.js';
import { FIELD } from '../../src/slack/kit/ids.js';
import { TASK_ACTION, TASK_FIELD } from '../../src/slack/tasks/ids.js';
import { createWatchSlackSide } from '../../src/slack/watch/index.js';
import { STEP_PARAM, WORKFLOW_STEP } from '../../src/slack/workflows/ids.js';
import { changesBetween, seenOf } from '../../src/watch/changes.js';
import {
  BOT_TOKEN,
  eventually,
  external,
  Harness,
  SOURCE_TS,
  TEAM,
  text,
  user,
} from '../helpers/slack-harness.js';

const SERVER_ERROR = { httpStatus: 500, body: { ok: false, error: 'internal_error' } };
const FAILURES = [
  ['answered 500', () => SERVER_ERROR],
  ['its connection reset', () => ({ reset: true as const })],
] as const;

let h: Harness;
afterEach(() => h.close());

async function start() {
  h = await Harness.start();
  await h.connect('U1', 'member');
  await h.link('C1', 'U1');
}

/** What the app posted in `channel` (its top-level messages, or the replies in `thread`). */
function botMessages(channel: string, thread?: string) {
  const { bot } = h.slack.workspace;
  return h.slack.workspace
    .inChannel(channel)
    .filter(
      (m) =>
        m.user === bot.userId &&
        !m.ephemeralTo &&
        (thread ? m.threadTs === thread && m.ts !== thread : !m.threadTs),
    );
}

/** The *Create a task* workflow step run once, as U1, in C1. */
const createTaskStep = (executionId: string) =>
  h.stepExecuted(
    WORKFLOW_STEP.createTask,
    {
      [STEP_PARAM.channel]: 'C1',
      [STEP_PARAM.feature]: h.fixture.featureId,
      [STEP_PARAM.heading]: 'Write the FAQ',
      [STEP_PARAM.actAs]: 'U1',
    },
    executionId,
  );

/** The message at `ts` in C1 as Slack shows it now, to press its buttons. */
function shownIn(ts: string) {
  const m = h.slack.message('C1', ts)!;
  return { message: { ts: m.ts, user: m.user, text: m.text ?? '', blocks: m.blocks ?? [] } };
}

/**
 * A task of U2's (the sandbox's admin: another account than U1's), created, started and sent to
 * review by U1 — which DMs U2. `beforeTheDm` sets Slack up just before that last press.
 */
async function sendToReview(beforeTheDm: () => void) {
  await h.connect('U2', 'admin');
  const viewId = await h.createTaskForm({ user: 'U9', ts: SOURCE_TS, text: 'Fix the login' });
  await h.submit(viewId, [
    [TASK_FIELD.feature, external(h.fixture.featureId, h.fixture.featureHeading)],
    [FIELD.heading, text('Fix the login')],
    [TASK_FIELD.assignee, user('U2')],
  ]);
  let cardTs = '';
  await eventually(async () => {
    const [task] = await h.tasksOfFeature();
    cardTs = task ? ((await h.store.cards.list(TEAM, 'task', task.id))[0]?.messageTs ?? '') : '';
    return cardTs !== '';
  }, 'the card remembered');
  // Assigned in the form: U2 is told first of that.
  await eventually(() => botMessages('DU2').length === 1, 'the assignment DM');
  await h.press(shownIn(cardTs), TASK_ACTION.stateForward);
  await eventually(() => JSON.stringify(h.slack.message('C1', cardTs)).includes('Send to review'), 'started');
  beforeTheDm();
  await h.press(shownIn(cardTs), TASK_ACTION.stateForward);
  await eventually(() => botMessages('DU2').length > 1, 'the DM');
  await h.pressesSettled();
}

/** What the person was last shown in the modal `viewId`. */
const shown = (viewId: string) => JSON.stringify(h.slack.views.get(viewId));

describe.each(FAILURES)('a post Slack accepted, then %s', (_, failure) => {
  it('Create task: its card once in the thread, remembered, and the person told it was created', async () => {
    await start();
    const viewId = await h.createTaskForm({ user: 'U9', ts: SOURCE_TS, text: 'Fix the login' });
    h.slack.failAfter('chat.postMessage', failure());
    await h.submit(viewId, [
      [TASK_FIELD.feature, external(h.fixture.featureId, h.fixture.featureHeading)],
      [FIELD.heading, text('Fix the login')],
    ]);
    await eventually(() => shown(viewId).includes('created'), 'the outcome shown');
    expect(botMessages('C1', SOURCE_TS)).toHaveLength(1);
    expect(h.slack.called('chat.postMessage')).toHaveLength(1);
    const [task] = await h.tasksOfFeature();
    // Found in the thread: remembered as the task's card, so it follows changes.
    const cards = await h.store.cards.list(TEAM, 'task', task!.id);
    expect(cards.map((c) => c.messageTs)).toEqual([botMessages('C1', SOURCE_TS)[0]?.ts]);
    expect(shown(viewId)).not.toContain('could not');
  });

  it('a workflow step: its card once, and card_permalink names that card', async () => {
    await start();
    h.slack.failAfter('chat.postMessage', failure());
    await createTaskStep('FxOnce');
    const end = await h.slack.waitFor('functions.completeSuccess');
    const [card, ...more] = botMessages('C1');
    expect(more).toEqual([]);
    const outputs = end.body.outputs as Record<string, string>;
    expect(outputs[STEP_PARAM.permalink]).toBe(
      `https://slack.test/archives/C1/p${card!.ts.replace('.', '')}`,
    );
  });

  it('a DM: once in the person’s DM with the app', async () => {
    await start();
    await sendToReview(() => h.slack.failAfter('chat.postMessage', failure()));
    expect(botMessages('DU2').map((m) => m.text)).toEqual([
      expect.stringContaining('assigned you'),
      expect.stringContaining('to *in review*'),
    ]);
    expect(h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'DU2')).toHaveLength(2);
  });

  it('/plan digest now: posted once, and the person told it was posted', async () => {
    await start();
    h.slack.workspace.addChannel({ id: 'C1', members: [h.slack.workspace.bot.userId] });
    h.slack.failAfter('chat.postMessage', failure());
    await h.command('digest now');
    const reply = await h.slack.waitFor('respond');
    expect(JSON.stringify(reply.body)).toContain('Posted');
    expect(JSON.stringify(reply.body)).not.toContain('nothing was saved');
    expect(botMessages('C1')).toHaveLength(1);
  });
});

describe('a post Slack failed without it landing', () => {
  it('Create task: the person is told its card may be there — never "nothing was saved" — and it is not posted twice', async () => {
    await start();
    const viewId = await h.createTaskForm({ user: 'U9', ts: SOURCE_TS, text: 'Fix the login' });
    h.slack.fail('chat.postMessage', SERVER_ERROR);
    await h.submit(viewId, [
      [TASK_FIELD.feature, external(h.fixture.featureId, h.fixture.featureHeading)],
      [FIELD.heading, text('Fix the login')],
    ]);
    await eventually(() => shown(viewId).includes('created'), 'the outcome shown');
    expect(shown(viewId)).toContain('Slack did not confirm its card');
    expect(shown(viewId)).not.toContain('nothing was saved');
    expect(h.slack.called('chat.postMessage')).toHaveLength(1);
    expect(await h.tasksOfFeature()).toHaveLength(1);
  });

  it('/plan digest now: told it may have been posted', async () => {
    await start();
    h.slack.workspace.addChannel({ id: 'C1', members: [h.slack.workspace.bot.userId] });
    h.slack.fail('chat.postMessage', SERVER_ERROR);
    await h.command('digest now');
    const reply = JSON.stringify((await h.slack.waitFor('respond')).body);
    expect(reply).toContain('may have been posted');
    expect(reply).not.toContain('nothing was saved');
    expect(h.slack.called('chat.postMessage')).toHaveLength(1);
  });
});

describe('429 on every path: waited out, then posted once', () => {
  it('a DM', async () => {
    await start();
    await sendToReview(() => h.slack.rateLimit('chat.postMessage', 1));
    expect(botMessages('DU2')).toHaveLength(2);
    const dms = h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'DU2');
    // The assignment's DM, then the move's: limited once, waited out, posted.
    expect(dms.map((c) => c.status)).toEqual([200, 429, 200]);
  });

  it('Create task’s card, a step’s card and /plan digest now', async () => {
    await start();
    h.slack.workspace.addChannel({ id: 'C1', members: [h.slack.workspace.bot.userId] });
    h.slack.rateLimit('chat.postMessage', 1);
    const { cardTs } = await h.createTask('Fix the login');
    expect(botMessages('C1', SOURCE_TS).map((m) => m.ts)).toEqual([cardTs]);

    h.slack.rateLimit('chat.postMessage', 1);
    await createTaskStep('Fx429');
    await h.slack.waitFor('functions.completeSuccess');
    expect(botMessages('C1')).toHaveLength(1);

    h.slack.rateLimit('chat.postMessage', 1);
    await h.command('digest now');
    expect(JSON.stringify((await h.slack.waitFor('respond')).body)).toContain('Posted');
    expect(botMessages('C1')).toHaveLength(2);
    expect(h.slack.called('chat.postMessage').map((c) => c.status)).toEqual([429, 200, 429, 200, 429, 200]);
  });
});

describe('the watch', () => {
  it.each(FAILURES)(
    'a thread message Slack accepted, then %s: once in the card thread, the feature done',
    async (_, failure) => {
      await start();
      const { coords, cardTs } = await h.createTask('Fix the login');
      const owner = h.owner();
      const listed = async () => {
        for await (const f of owner.features.list(coords.teamId, coords.channelId))
          if (f.id === coords.featureId) return f;
        throw new Error('not listed');
      };
      const before = seenOf(await listed());
      const at = Date.now() - 1_000;
      // Elsewhere: the task moves to in progress.
      await owner.tasks.update(coords.teamId, coords.channelId, coords.featureId, coords.taskId, {
        state: 'in progress',
      });
      const after = await listed();
      const logger = createLogger({ level: 'error', destination: { write: () => {} } });
      const clients = createClients({ planningUrl: h.sandbox.url, slackApiUrl: h.slack.apiUrl, logger });
      const sink = createWatchSlackSide({
        store: h.store,
        logger,
        config: h.config,
        slackFor: async () => clients.slack(BOT_TOKEN),
      });
      h.slack.failAfter('chat.postMessage', failure());
      const done = await sink.apply({
        link: (await h.store.links.get(TEAM, 'C1'))!,
        planning: owner,
        deltas: [
          {
            featureId: coords.featureId,
            before,
            after: seenOf(after),
            feature: after,
            seenAt: at,
            changes: changesBetween(before, seenOf(after)),
          },
        ],
        now: new Date(),
      });
      expect([...done]).toEqual([coords.featureId]);
      expect(
        botMessages('C1', SOURCE_TS)
          .filter((m) => m.ts !== cardTs)
          .map((m) => m.text),
      ).toEqual([expect.stringContaining('Changed outside Slack')]);
    },
  );
});
