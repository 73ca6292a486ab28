/**
 * Who counts as a full member is one rule on every surface (issue 35 item 3): each kind of person —
 * each with a planning connection of their own (a pasted token of the organization's) — on each
 * surface that serves planning data, through signed requests to the Bolt app, the fake Slack
 * answering users.info with the kind's flags and the sandbox over its socket. A full member is
 * served; guests (multi- and single-channel), Slack Connect outsiders, strangers, bots and
 * deactivated users are refused, and the service is asked nothing on their behalf.
 * Slack's word is remembered for MEMBER_CONFIRMATION_TTL, and forgotten at once when `user_change`
 * says the person is no longer a full member.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webLink } from '../../../src/planning/web-links.js';
import { GRADE_SHORTCUT } from '../../../src/slack/grades/ids.js';
import { TASK_ACTION } from '../../../src/slack/tasks/ids.js';
import { STEP_PARAM, WORKFLOW_STEP } from '../../../src/slack/workflows/ids.js';
import { MEMBER_CONFIRMATION_TTL } from '../../../src/store/index.js';
import { eventually, type FakeUser, Harness, TEAM } from '../../helpers/slack-harness.js';

const TASK_URL = 'https://plan.example.test/t/{teamId}/c/{channelId}/f/{featureId}/tasks/{taskId}';
const FEATURE_URL = 'https://plan.example.test/t/{teamId}/c/{channelId}/f/{featureId}';
const SENTENCE = 'Only full members of this workspace';
const X = 'UX';
const json = (v: unknown) => JSON.stringify(v);

let h: Harness;
let task: { teamId: string; channelId: string; featureId: string; taskId: string };
let cardTs: string;

beforeEach(async () => {
  h = await Harness.start({
    env: { PLANNING_WEB_TASK_URL: TASK_URL, PLANNING_WEB_FEATURE_URL: FEATURE_URL },
  });
  h.slack.users.set('U1', { id: 'U1', name: 'ana', isAdmin: true });
  await h.connect('U1', 'owner');
  await h.link('C1', 'U1');
  await h.store.links.update(TEAM, 'C1', { threadDiscoveries: true });
  // The task's card, as the app posted it and remembered it with its place.
  ({ task, cardTs } = await h.taskWithCard());
});
afterEach(() => h.close());

/** What a surface is: how a person uses it, and what shows that they were served or refused. */
interface Surface {
  use(): Promise<unknown>;
  served(since: number, logsSince: number): boolean | Promise<boolean>;
  refused(since: number, logsSince: number): boolean | Promise<boolean>;
}

const callsSince = (since: number, method: string) =>
  h.slack.calls.slice(since).filter((c) => c.method === method);
const loggedSince = (logsSince: number, line: string) => h.logs.slice(logsSince).join('').includes(line);
const gateRefused = (logsSince: number) => loggedSince(logsSince, 'request refused: not a full member');
const filledHome = (since: number) => callsSince(since, 'views.publish')[1]?.body ?? {};
const taskUrl = () => webLink('task', TASK_URL, task);

const SURFACES: Record<string, () => Surface> = {
  command: () => ({
    use: () => h.command('tasks', X, 'C1'),
    served: (since) => callsSince(since, 'respond').some((c) => !json(c.body).includes(SENTENCE)),
    refused: (since) => callsSince(since, 'respond').some((c) => json(c.body).includes(SENTENCE)),
  }),
  shortcut: () => ({
    use: () => h.shortcut(GRADE_SHORTCUT.gradePeer, { user: X }),
    served: (since) => callsSince(since, 'views.open').length > 0,
    refused: (_, logs) => gateRefused(logs),
  }),
  button: () => ({
    use: () =>
      h.press({ message: { ts: cardTs, text: 'Task: Fix login' } }, TASK_ACTION.detailsOpen, {
        value: JSON.stringify({ ...task, s: 'idle', a: '' }),
        user: X,
      }),
    served: (since) => callsSince(since, 'views.update').some((c) => json(c.body).includes('Fix login')),
    refused: (_, logs) => gateRefused(logs),
  }),
  preview: () => ({
    use: () => {
      h.slack.channel('C1', X);
      return h.event({
        type: 'link_shared',
        channel: 'C1',
        user: X,
        message_ts: '1700000000.000100',
        is_bot_user_member: true,
        source: 'conversations_history',
        unfurl_id: 'U1700000000.000100',
        links: [{ domain: 'plan.example.test', url: taskUrl() }],
        event_ts: '1700000000.000100',
      });
    },
    served: (since) => callsSince(since, 'chat.unfurl').some((c) => json(c.body).includes('Fix login')),
    refused: (_, logs) => loggedSince(logs, 'link not previewed'),
  }),
  'side panel': () => ({
    use: () =>
      h.event({
        type: 'entity_details_requested',
        user: X,
        trigger_id: `trig-${X}`,
        link: { url: taskUrl(), domain: 'plan.example.test' },
        entity_url: taskUrl(),
        app_unfurl_url: taskUrl(),
        user_locale: 'en-US',
        event_ts: '1700000001.000100',
        channel: 'C1',
        message_ts: '1700000000.000100',
      }),
    served: (since) =>
      callsSince(since, 'entity.presentDetails').some((c) => json(c.body).includes('Fix login')),
    refused: (since) =>
      callsSince(since, 'entity.presentDetails').some((c) => json(c.body).includes('Not available to you')),
  }),
  'workflow step': () => ({
    // The person ran the workflow themselves: the step acts as them.
    use: () =>
      h.stepExecuted(
        WORKFLOW_STEP.postFeatureStatus,
        {
          [STEP_PARAM.channel]: 'C1',
          [STEP_PARAM.feature]: h.fixture.featureHeading,
          [STEP_PARAM.actAs]: X,
          interactivity: { interactor: { id: X, secret: 'secret' }, interactivity_pointer: 'ptr' },
        },
        'FxTable',
      ),
    served: (since) => callsSince(since, 'functions.completeSuccess').length > 0,
    refused: (since) => callsSince(since, 'functions.completeError').length > 0,
  }),
  'thread reply': () => {
    let ts = '';
    return {
      use: () => {
        h.slack.channel('C1', X);
        ts = h.slack.workspace.post({ channel: 'C1', user: X, text: 'It fails', threadTs: cardTs }).ts;
        return h.event({
          type: 'message',
          channel: 'C1',
          channel_type: 'channel',
          user: X,
          text: 'It fails',
          ts,
          thread_ts: cardTs,
          event_ts: ts,
        });
      },
      served: async () => (await h.store.threadDiscoveries.get(TEAM, 'C1', ts)) !== undefined,
      refused: (_, logs) => loggedSince(logs, 'thread reply not recorded'),
    };
  },
  // The tab is published at once (a skeleton), then filled: the filled tab says what they get.
  Home: () => ({
    use: () => h.event({ type: 'app_home_opened', user: X, channel: `D${X}`, tab: 'home' }),
    served: (since) => json(filledHome(since)).includes('You act as'),
    refused: (since) => json(filledHome(since)).includes('only acts for full members'),
  }),
};

const KINDS: [string, Partial<FakeUser>][] = [
  ['a multi-channel guest', { guest: 'multi-channel' }],
  ['a single-channel guest', { guest: 'single-channel' }],
  ['a Slack Connect outsider (another workspace)', { teamId: 'T0OTHER' }],
  ['an outsider Slack marks as a stranger', { stranger: true }],
  ['a bot', { bot: true }],
  ['a deactivated user', { deleted: true }],
];

/** Uses the surface as X and says which came first: served or refused. */
async function outcome(surface: Surface): Promise<'served' | 'refused'> {
  const since = h.slack.calls.length;
  const logsSince = h.logs.length;
  await surface.use();
  let seen: 'served' | 'refused' | undefined;
  await eventually(async () => {
    if (await surface.refused(since, logsSince)) seen = 'refused';
    else if (await surface.served(since, logsSince)) seen = 'served';
    return seen !== undefined;
  }, 'served or refused');
  return seen!;
}

describe.each(Object.keys(SURFACES))('on the %s surface', (name) => {
  it('a connected full member is served', async () => {
    h.slack.users.set(X, { id: X, name: 'full' });
    await h.connect(X, 'member');
    expect(await outcome(SURFACES[name]!())).toBe('served');
  });

  it.each(KINDS)(
    '%s, connected with a token of their own, is refused and nothing is read for them',
    async (_, kind) => {
      h.slack.users.set(X, { id: X, name: 'someone', ...kind });
      await h.connect(X, 'member');
      const reads = h.sandbox.requests.count();
      expect(await outcome(SURFACES[name]!())).toBe('refused');
      expect(h.sandbox.requests.count()).toBe(reads);
      expect(json(h.slack.calls)).not.toContain('Fix login"');
    },
  );
});

describe('how often Slack is asked', () => {
  const asked = (since = 0) => callsSince(since, 'users.info').filter((c) => c.body.user === X).length;
  const confirmedAt = async () => (await h.store.identities.get(TEAM, X))?.memberConfirmedAt;

  beforeEach(async () => {
    h.slack.users.set(X, { id: X, name: 'full' });
    await h.connect(X, 'member');
  });

  it('a connected member commanding and pressing within the period makes Slack answer once', async () => {
    const before = Date.now();
    for (const name of ['command', 'button', 'command', 'button', 'preview']) {
      expect(await outcome(SURFACES[name]!())).toBe('served');
    }
    expect(asked()).toBe(1);
    expect((await confirmedAt())?.getTime()).toBeGreaterThanOrEqual(before);
  });

  it('once the period is over, Slack is asked again: a member is confirmed anew, a guest refused', async () => {
    expect(await outcome(SURFACES.command!())).toBe('served');
    const long = new Date(Date.now() - MEMBER_CONFIRMATION_TTL - 1000);
    await h.store.identities.confirmMember(TEAM, X, long);
    const since = h.slack.calls.length;
    expect(await outcome(SURFACES.button!())).toBe('served');
    expect(asked(since)).toBe(1);
    expect((await confirmedAt())!.getTime()).toBeGreaterThan(long.getTime());

    // Became a guest while nobody was told: refused once the period is over, and not confirmed.
    h.slack.users.set(X, { id: X, name: 'full', guest: 'multi-channel' });
    await h.store.identities.confirmMember(TEAM, X, long);
    expect(await outcome(SURFACES.command!())).toBe('refused');
    expect(await confirmedAt()).toBeUndefined();
  });

  it('user_change making them a guest: the very next request is refused', async () => {
    expect(await outcome(SURFACES.command!())).toBe('served');
    expect(await confirmedAt()).toBeDefined();
    await h.event({
      type: 'user_change',
      user: { id: X, team_id: TEAM, name: 'full', deleted: false, is_restricted: true, is_bot: false },
    });
    await eventually(async () => (await confirmedAt()) === undefined, 'the confirmation cleared');
    expect(await outcome(SURFACES.button!())).toBe('refused');
    expect(await outcome(SURFACES.command!())).toBe('refused');
  });
});
