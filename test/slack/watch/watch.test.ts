/**
 * The watch's Slack side (src/slack/watch/): the planning sandbox over real sockets is changed
 * directly through its API, as another tool would; the deltas are built with `seenOf` and
 * `changesBetween` from the features listed before and after, and handed to the sink's `apply`.
 * Cards are posted with the flows' own renderers and remembered as the app remembers them; Slack is
 * the playground's fake, whose call log says what the app sent.
 */

import type { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClients } from '../../../src/clients.js';
import type { Config } from '../../../src/config.js';
import { createLogger } from '../../../src/logger.js';
import { createPlanningClient, type FeatureLite, type PlanningClient } from '../../../src/planning/index.js';
import { featureCard } from '../../../src/slack/features/card.js';
import { FEATURE_ACTION } from '../../../src/slack/features/ids.js';
import { readFeatureView } from '../../../src/slack/features/live.js';
import { postCard } from '../../../src/slack/kit/live-cards.js';
import { liveTaskCard } from '../../../src/slack/tasks/card.js';
import { TASK_ACTION } from '../../../src/slack/tasks/ids.js';
import { readTaskView } from '../../../src/slack/tasks/index.js';
import { createWatchSlackSide } from '../../../src/slack/watch/index.js';
import { STEP_PARAM, WORKFLOW_STEP } from '../../../src/slack/workflows/ids.js';
import type { ChannelLink } from '../../../src/store/index.js';
import { changesBetween, type FeatureDelta, type FeatureSeen, seenOf } from '../../../src/watch/changes.js';
import type { WatchSink } from '../../../src/watch/sink.js';
import { BOT_TOKEN, eventually, Harness, type SlackCall, TEAM } from '../../helpers/slack-harness.js';

const json = (v: unknown) => JSON.stringify(v);

let h: Harness;
let link: ChannelLink;
let config: Config;
let sink: WatchSink;
let owner: PlanningClient;
let featureCardTs: string;

const coords = () => ({
  teamId: h.fixture.teamId,
  channelId: h.fixture.channelId,
  featureId: h.fixture.featureId,
});

/** The fixture's feature as the channel's listing shows it (what the watch pass reads). */
async function listed(): Promise<FeatureLite | undefined> {
  const { teamId, channelId, featureId } = coords();
  for await (const f of owner.features.list(teamId, channelId)) if (f.id === featureId) return f;
  return undefined;
}

/** What the watch keeps of the feature now, and when it looked. */
async function look(): Promise<{ seen: FeatureSeen; at: number }> {
  const at = Date.now();
  const feature = await listed();
  if (!feature) throw new Error('the feature is not listed');
  return { seen: seenOf(feature), at };
}

/** The delta from `before` to the feature as listed now (absent: gone). */
async function deltaSince(before: { seen: FeatureSeen; at: number }): Promise<FeatureDelta> {
  const feature = await listed();
  const after = feature ? seenOf(feature) : undefined;
  return {
    featureId: before.seen.id,
    before: before.seen,
    ...(after ? { after, feature } : {}),
    seenAt: before.at,
    changes: after ? changesBetween(before.seen, after) : [],
  };
}

const turn = (deltas: FeatureDelta[]) => ({ link, planning: owner, deltas, now: new Date() });

/** Messages the app posted in the thread of the card at `ts`. */
const threadPosts = (ts: string): SlackCall[] =>
  h.slack.called('chat.postMessage').filter((c) => c.body.thread_ts === ts);
/** DMs the app sent `slackUserId` (its DM channel with the app is `D<id>`). */
const dmsTo = (slackUserId: string): SlackCall[] =>
  h.slack.called('chat.postMessage').filter((c) => c.body.channel === `D${slackUserId}`);

const reader = () => ({ workspaceId: TEAM, planning: owner });
const logs: string[] = [];
const logger = createLogger({ level: 'debug', destination: { write: (line: string) => logs.push(line) } });
/** The bot's client as the app's jobs make it (src/clients.ts: 429s rejected, never retried in place). */
let slackClient: () => WebClient;

/** Posts the feature's card in C1 as the app does, remembered with its place. */
async function postFeatureCardNow(): Promise<string> {
  const view = await readFeatureView({ deps: { store: h.store, config } }, reader(), coords());
  return postCard(
    { store: h.store },
    slackClient(),
    {
      workspaceId: TEAM,
      kind: 'feature',
      entityId: h.fixture.featureId,
      place: { orgId: h.sandbox.orgId, ...coords() },
    },
    { channel: 'C1' },
    featureCard(view),
  );
}

/** Posts a task's card in C1 as the app does (in a thread when `threadTs` is given), remembered with its place. */
async function postTaskCardNow(taskId: string, threadTs?: string): Promise<string> {
  const view = await readTaskView({ store: h.store, config }, reader(), { ...coords(), taskId });
  return postCard(
    { store: h.store },
    slackClient(),
    { workspaceId: TEAM, kind: 'task', entityId: taskId, place: { orgId: h.sandbox.orgId, ...coords() } },
    { channel: 'C1', ...(threadTs ? { threadTs } : {}) },
    liveTaskCard(view),
  );
}

beforeEach(async () => {
  h = await Harness.start();
  owner = h.owner();
  await h.connect('U1', 'member');
  await h.connect('U3', 'owner');
  link = await h.link();
  config = h.config;
  const clients = createClients({ planningUrl: h.sandbox.url, slackApiUrl: h.slack.apiUrl, logger });
  slackClient = () => clients.slack(BOT_TOKEN);
  sink = createWatchSlackSide({
    store: h.store,
    logger,
    config,
    slackFor: async (workspaceId) => (workspaceId === TEAM ? slackClient() : undefined),
  });
  // The service advances a feature only once it has an assumption.
  const { teamId, channelId, featureId } = coords();
  await owner.assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
  featureCardTs = await postFeatureCardNow();
});
afterEach(() => h.close());

describe('the watch brings changes made elsewhere to Slack', () => {
  it('a feature advanced elsewhere: its card updated in place, one activity line in its thread, its author DMed once', async () => {
    const before = await look();
    const { teamId, channelId, featureId } = coords();
    await owner.features.advance(teamId, channelId, featureId);
    const delta = await deltaSince(before);
    expect(delta.changes.map((c) => c.kind)).toEqual(['stage']);

    const done = await sink.apply(turn([delta]));
    expect([...done]).toEqual([featureId]);
    const updated = h.slack.called('chat.update').filter((c) => c.body.ts === featureCardTs);
    expect(updated).toHaveLength(1);
    expect(json(updated[0]!.body.blocks)).toContain('Validation');
    const posts = threadPosts(featureCardTs);
    expect(posts).toHaveLength(1);
    expect(json(posts[0]!.body)).toContain('Advanced to *Validation*');
    // The feature's author (the sandbox's owner) is connected as U3.
    expect(dmsTo('U3')).toHaveLength(1);
    expect(json(dmsTo('U3')[0]!.body)).toContain('advanced outside Slack');

    // The same turn again (a replica, a retry): nothing more is posted nor DMed.
    expect([...(await sink.apply(turn([delta])))]).toEqual([featureId]);
    expect(threadPosts(featureCardTs)).toHaveLength(1);
    expect(dmsTo('U3')).toHaveLength(1);
  });

  it('names someone not connected as the service names them, from the channel’s members', async () => {
    const { teamId, channelId, featureId } = coords();
    await owner.channels.assign(teamId, channelId, h.sandbox.memberId);
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Name me' });
    const taskCardTs = await postTaskCardNow(task.id);
    const before = await look();
    // U1 (the sandbox's member) is no longer connected here: no mention, and no DM either.
    await h.store.identities.delete(TEAM, 'U1');
    await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.memberId);
    await sink.apply(turn([await deltaSince(before)]));

    let name: string | undefined;
    for await (const m of owner.channels.listMembers(teamId, channelId))
      if (m.id === h.sandbox.memberId) name = m.userName;
    expect(name).toBeTruthy();
    const posts = threadPosts(taskCardTs);
    expect(posts).toHaveLength(1);
    expect(json(posts[0]!.body.blocks)).toContain(`Assigned to *${name}*`);
    expect(dmsTo('U1')).toHaveLength(0);
  });

  it("a card posted in a thread has its activity in that thread's root, never under the reply", async () => {
    const { teamId, channelId, featureId } = coords();
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'In a thread' });
    // As Add task on a feature card posts it: in the feature card's thread.
    const taskCardTs = await postTaskCardNow(task.id, featureCardTs);
    expect(await h.store.cards.find(TEAM, 'C1', taskCardTs)).toMatchObject({ threadTs: featureCardTs });
    const before = await look();
    await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.memberId);
    expect([...(await sink.apply(turn([await deltaSince(before)])))]).toEqual([featureId]);

    expect(threadPosts(taskCardTs)).toHaveLength(0);
    const inRoot = threadPosts(featureCardTs)
      .filter((c) => c.answer?.ts !== taskCardTs)
      .map((c) => json(c.body.blocks));
    // The feature card's own line and the task card's, both in the one thread.
    expect(inRoot).toHaveLength(2);
    expect(inRoot.filter((t) => t.includes('Assigned to <@U1>'))).toHaveLength(1);
    expect(inRoot.filter((t) => t.includes('Task *In a thread* assigned to <@U1>'))).toHaveLength(1);
    // The card itself is still updated in place.
    expect(h.slack.called('chat.update').filter((c) => c.body.ts === taskCardTs)).toHaveLength(1);
  });

  it('five changes in one pass make one message in the card thread', async () => {
    const { teamId, channelId, featureId } = coords();
    const a = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Alpha' });
    const b = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Beta' });
    const before = await look();
    await owner.features.advance(teamId, channelId, featureId);
    await owner.tasks.update(teamId, channelId, featureId, a.id, { state: 'in progress' });
    await owner.tasks.update(teamId, channelId, featureId, b.id, { heading: 'Beta *two*' });
    await owner.tasks.assign(teamId, channelId, featureId, b.id, h.sandbox.memberId);
    await owner.tasks.create(teamId, channelId, featureId, { heading: 'Gamma' });
    const delta = await deltaSince(before);
    expect(delta.changes).toHaveLength(5);

    await sink.apply(turn([delta]));
    const posts = threadPosts(featureCardTs);
    expect(posts).toHaveLength(1);
    const text = json(posts[0]!.body.blocks);
    expect(text).toContain('Advanced to *Validation*');
    expect(text).toContain('Task *Alpha* moved to *in progress*');
    expect(text).toContain('assigned to <@U1>');
    expect(text).toContain('Task *Gamma* added');
    // The heading's own marks cannot end the app's bold.
    expect(text).not.toContain('Beta *two*');
  });

  it('a change made from Slack is neither echoed in the thread nor DMed', async () => {
    const task = await h.assignedTask('From Slack');
    const taskCardTs = await postTaskCardNow(task.taskId);
    const before = await look();
    // U1 presses Start on the task's card in Slack.
    const card = h.slack.message('C1', taskCardTs)!;
    const start = (card.blocks as { elements?: { action_id?: string; value?: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === TASK_ACTION.stateForward)!;
    await h.press({ message: taskCardTs }, start);
    await eventually(
      async () =>
        (await owner.tasks.read(task.teamId, task.channelId, task.featureId, task.taskId)).state ===
        'in progress',
      'the task started',
    );
    await h.pressesSettled();
    const delta = await deltaSince(before);
    expect(delta.changes.map((c) => c.kind)).toEqual(['taskState']);
    const dmsBefore = h.slack
      .called('chat.postMessage')
      .filter((c) => String(c.body.channel).startsWith('D')).length;

    expect([...(await sink.apply(turn([delta])))]).toEqual([task.featureId]);
    expect(threadPosts(taskCardTs)).toHaveLength(0);
    expect(threadPosts(featureCardTs)).toHaveLength(0);
    expect(
      h.slack.called('chat.postMessage').filter((c) => String(c.body.channel).startsWith('D')),
    ).toHaveLength(dmsBefore);
  });

  it('an assignment made elsewhere just before a press on the same task still reaches the assignee: Slack notes only what it changed', async () => {
    const { teamId, channelId, featureId } = coords();
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Both at once' });
    const taskCardTs = await postTaskCardNow(task.id);
    const before = await look();
    await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.memberId);
    const startOn = () =>
      (h.slack.message('C1', taskCardTs)!.blocks as { elements?: { action_id?: string; value?: string }[] }[])
        .flatMap((b) => b.elements ?? [])
        .find((e) => e.action_id === TASK_ACTION.stateForward)!;
    // The card still shows the task unassigned: the first press only brings it up to date, the
    // second one (on the card as it now is) starts the task.
    await h.press({ message: taskCardTs }, startOn(), { user: 'U3' });
    await h.pressesSettled();
    await eventually(
      () => JSON.stringify(h.slack.message('C1', taskCardTs)?.blocks).includes('<@U1>'),
      'the card caught up with the assignment',
    );
    await h.press({ message: taskCardTs }, startOn(), { user: 'U3' });
    await eventually(
      async () => (await owner.tasks.read(teamId, channelId, featureId, task.id)).state === 'in progress',
      'the task started from Slack',
    );
    await h.pressesSettled();
    // What Slack noted is its own change (the state), not the assignment it merely showed.
    const notes = [`task:${task.id}:state:in progress`, `task:${task.id}:assignee:${h.sandbox.memberId}`];
    expect(await h.store.slackNotes.since(TEAM, notes, 0)).toEqual(new Set([notes[0]]));

    const delta = await deltaSince(before);
    expect(delta.changes.map((c) => c.kind).sort()).toEqual(['taskAssignee', 'taskState']);
    expect([...(await sink.apply(turn([delta])))]).toEqual([featureId]);
    const assigned = dmsTo('U1').filter((c) => json(c.body).includes('You were assigned the task'));
    expect(assigned).toHaveLength(1);
    expect(json(assigned[0]!.body)).toContain('*Both at once* (outside Slack)');
    // The thread tells the assignment, not the start Slack made itself.
    const posts = threadPosts(taskCardTs);
    expect(posts).toHaveLength(1);
    expect(json(posts[0]!.body.blocks)).toContain('Assigned to <@U1>');
    expect(json(posts[0]!.body.blocks)).not.toContain('in progress');
  });

  it('a feature advanced from its card in Slack: its author told once (by the press), the watch adds nothing', async () => {
    const before = await look();
    const card = h.slack.message('C1', featureCardTs)!;
    const advance = (card.blocks as { elements?: { action_id?: string; value?: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === FEATURE_ACTION.advance)!;
    await h.press({ message: featureCardTs }, advance);
    await eventually(async () => (await listed())?.stage === 'validation', 'the feature advanced');
    await h.pressesSettled();
    await eventually(() => dmsTo('U3').length === 1, 'the author told by the press');
    const delta = await deltaSince(before);
    expect(delta.changes.map((c) => c.kind)).toEqual(['stage']);

    expect([...(await sink.apply(turn([delta])))]).toEqual([h.fixture.featureId]);
    expect(threadPosts(featureCardTs)).toHaveLength(0);
    expect(dmsTo('U3')).toHaveLength(1);
  });

  it('an assignment made elsewhere DMs the assignee once, however often it is applied; a muted kind is not sent', async () => {
    const { teamId, channelId, featureId } = coords();
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Write the copy' });
    const before = await look();
    await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.memberId);
    const delta = await deltaSince(before);
    await sink.apply(turn([delta]));
    await sink.apply(turn([delta]));
    expect(dmsTo('U1')).toHaveLength(1);
    expect(json(dmsTo('U1')[0]!.body)).toContain(
      'You were assigned the task *Write the copy* (outside Slack)',
    );

    // U1 turned "assigned" off: the next assignment elsewhere is not sent.
    await h.store.notifications.savePrefs(TEAM, 'U1', { muted: ['assigned'], timeZone: 'UTC' });
    const other = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Second' });
    const again = await look();
    await owner.tasks.assign(teamId, channelId, featureId, other.id, h.sandbox.memberId);
    expect([...(await sink.apply(turn([await deltaSince(again)])))]).toEqual([featureId]);
    expect(dmsTo('U1')).toHaveLength(1);
  });

  it("an assignment made elsewhere in the assignee's quiet hours (as of the pass) is held, once", async () => {
    await h.store.notifications.savePrefs(TEAM, 'U1', {
      muted: [],
      quiet: { start: '22:00', end: '07:00' },
      timeZone: 'UTC',
    });
    const { teamId, channelId, featureId } = coords();
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading: 'At night' });
    const before = await look();
    await owner.tasks.assign(teamId, channelId, featureId, task.id, h.sandbox.memberId);
    const delta = await deltaSince(before);
    const night = { ...turn([delta]), now: new Date('2026-03-02T23:30:00Z') };
    await sink.apply(night);
    await sink.apply(night);
    expect(dmsTo('U1')).toHaveLength(0);
    expect(await h.store.notifications.heldCount()).toBe(1);
  });

  it('a discovery added elsewhere to a carded task is posted in its thread once', async () => {
    const task = await h.assignedTask('Research');
    const taskCardTs = await postTaskCardNow(task.taskId);
    const before = await look();
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    const discovery = await member.tasks.discoveryCreate(
      task.teamId,
      task.channelId,
      task.featureId,
      task.taskId,
      {
        details: 'Users never scroll <below> the fold',
      },
    );
    const delta = await deltaSince(before);
    expect([...(await sink.apply(turn([delta])))]).toEqual([task.featureId]);
    const posts = threadPosts(taskCardTs);
    expect(posts).toHaveLength(1);
    const text = json(posts[0]!.body.blocks);
    expect(text).toContain('Discovery by <@U1>');
    expect(text).toContain('&lt;below&gt;');
    // Its card counts the minute's entries: updated in place.
    expect(h.slack.called('chat.update').filter((c) => c.body.ts === taskCardTs)).toHaveLength(1);
    expect(await h.store.slackNotes.since(TEAM, [`minute:${discovery.id}`], 0)).toEqual(
      new Set([`minute:${discovery.id}`]),
    );

    // The next pass (the feature changed again): the discovery is not posted again.
    const next = await look();
    await owner.tasks.update(task.teamId, task.channelId, task.featureId, task.taskId, {
      state: 'in progress',
    });
    await sink.apply(turn([await deltaSince({ ...next, at: before.at })]));
    const all = threadPosts(taskCardTs).map((c) => json(c.body.blocks));
    expect(all.filter((t) => t.includes('Discovery'))).toHaveLength(1);
  });

  it('a discovery logged from Slack (a workflow step) is not posted again by the watch', async () => {
    const task = await h.assignedTask('Check Safari');
    const taskCardTs = await postTaskCardNow(task.taskId);
    const before = await look();
    await h.stepExecuted(
      WORKFLOW_STEP.logDiscovery,
      {
        [STEP_PARAM.channel]: 'C1',
        [STEP_PARAM.feature]: task.featureId,
        [STEP_PARAM.taskId]: task.taskId,
        [STEP_PARAM.discovery]: 'Safari drops the cookie',
        [STEP_PARAM.actAs]: 'U1',
      },
      'FxWatch',
    );
    await h.slack.waitFor('functions.completeSuccess', (b) => b.function_execution_id === 'FxWatch');
    const delta = await deltaSince(before);
    expect([...(await sink.apply(turn([delta])))]).toEqual([task.featureId]);
    const fromWatch = threadPosts(taskCardTs).filter((c) => json(c.body).includes('Changed outside Slack'));
    expect(fromWatch).toHaveLength(0);
  });

  it('tasks read per turn are bounded: the rest wait for the next pass, and the feature is done only then', async () => {
    const bounded = createWatchSlackSide({
      store: h.store,
      logger,
      config,
      slackFor: async () => slackClient(),
      maxTaskReads: 1,
    });
    const first = await h.assignedTask('First');
    const second = await h.assignedTask('Second');
    const cards = [await postTaskCardNow(first.taskId), await postTaskCardNow(second.taskId)];
    const before = await look();
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    for (const t of [first, second]) {
      await member.tasks.discoveryCreate(t.teamId, t.channelId, t.featureId, t.taskId, {
        details: `On ${t.taskId}`,
      });
    }
    const delta = await deltaSince(before);
    expect([...(await bounded.apply(turn([delta])))]).toEqual([]);
    expect(cards.map((ts) => threadPosts(ts).length)).toEqual([1, 0]);
    expect([...(await bounded.apply(turn([delta])))]).toEqual([first.featureId]);
    expect(cards.map((ts) => threadPosts(ts).length)).toEqual([1, 1]);
    // Applied again (a replica that lost the record): nothing more.
    expect([...(await bounded.apply(turn([delta])))]).toEqual([first.featureId]);
    expect(cards.map((ts) => threadPosts(ts).length)).toEqual([1, 1]);
  });

  it('a task deleted elsewhere: its card becomes one line, read first', async () => {
    const task = await h.assignedTask('Doomed');
    const taskCardTs = await postTaskCardNow(task.taskId);
    const before = await look();
    await owner.tasks.delete(task.teamId, task.channelId, task.featureId, task.taskId);
    const delta = await deltaSince(before);
    expect(delta.changes.map((c) => c.kind)).toEqual(['taskRemoved']);
    expect([...(await sink.apply(turn([delta])))]).toEqual([task.featureId]);
    const retired = h.slack.called('chat.update').filter((c) => c.body.ts === taskCardTs);
    expect(retired).toHaveLength(1);
    expect(String(retired[0]!.body.text)).toContain('This task was deleted');
    expect(await h.store.cards.list(TEAM, 'task', task.taskId)).toEqual([]);
    expect(json(threadPosts(featureCardTs)[0]!.body.blocks)).toContain('Task *Doomed* removed');
  });

  it("a feature deleted elsewhere: read first, then its card and its tasks' cards become one line", async () => {
    const task = await h.assignedTask('With the feature');
    const taskCardTs = await postTaskCardNow(task.taskId);
    const before = await look();
    await owner.features.delete(task.teamId, task.channelId, task.featureId);
    const delta = await deltaSince(before);
    expect(delta.after).toBeUndefined();
    expect([...(await sink.apply(turn([delta])))]).toEqual([task.featureId]);
    for (const ts of [featureCardTs, taskCardTs]) {
      const retired = h.slack.called('chat.update').filter((c) => c.body.ts === ts);
      expect(retired).toHaveLength(1);
      expect(String(retired[0]!.body.text)).toMatch(/This (feature|task) was deleted/);
    }
    expect(await h.store.cards.list(TEAM, 'feature', task.featureId)).toEqual([]);
    expect(threadPosts(featureCardTs)).toHaveLength(0);
  });

  it('a failed read of a gone feature changes nothing and the feature is not done', async () => {
    const before = await look();
    const { teamId, channelId } = coords();
    // Another feature of the channel, seen for the first time: a baseline, done.
    const other = await owner.features.create(teamId, channelId, { heading: 'Other' });
    const baseline: FeatureDelta = { featureId: other.id, after: seenOf(other), changes: [] };
    const gone: FeatureDelta = {
      featureId: before.seen.id,
      before: before.seen,
      seenAt: before.at,
      changes: [],
    };
    // Refused on every try (the client retries a read).
    h.sandbox.inject({ operationId: 'featureRead', status: 500, times: 10 });
    expect([...(await sink.apply(turn([gone, baseline])))]).toEqual([other.id]);
    expect(h.slack.called('chat.update')).toHaveLength(0);
    expect(await h.store.cards.list(TEAM, 'feature', before.seen.id)).toHaveLength(1);
    // Nothing at all could be done: the pass is told.
    h.sandbox.inject({ operationId: 'featureRead', status: 500, times: 10 });
    await expect(sink.apply(turn([gone]))).rejects.toThrow(/500/);
    expect(await h.store.cards.list(TEAM, 'feature', before.seen.id)).toHaveLength(1);
  });

  it('a 429 on the card update: waited out within the pass (Retry-After), the feature done, everything once', async () => {
    const before = await look();
    const { teamId, channelId, featureId } = coords();
    await owner.features.advance(teamId, channelId, featureId);
    const delta = await deltaSince(before);
    h.slack.rateLimit('chat.update', 1);
    expect([...(await sink.apply(turn([delta])))]).toEqual([featureId]);
    const updates = h.slack.called('chat.update').filter((c) => c.body.ts === featureCardTs);
    expect(updates.map((c) => c.status)).toEqual([429, 200]);
    expect(threadPosts(featureCardTs)).toHaveLength(1);
    expect(dmsTo('U3')).toHaveLength(1);
  });

  it('a 429 longer than a pass should wait: the feature is not done; the next pass finishes, the thread message posted once', async () => {
    const before = await look();
    const { teamId, channelId, featureId } = coords();
    await owner.features.advance(teamId, channelId, featureId);
    const delta = await deltaSince(before);
    // Past what the Slack sender waits for (a minute): the card is left for the next pass.
    h.slack.rateLimit('chat.update', 120);
    expect([...(await sink.apply(turn([delta])))]).toEqual([]);
    expect([...(await sink.apply(turn([delta])))]).toEqual([featureId]);
    const updates = h.slack.called('chat.update').filter((c) => c.body.ts === featureCardTs);
    expect(updates.filter((c) => c.answer?.ok === true)).toHaveLength(1);
    expect(threadPosts(featureCardTs)).toHaveLength(1);
    expect(dmsTo('U3')).toHaveLength(1);
  });
});
