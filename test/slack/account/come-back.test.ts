/**
 * Disconnecting never quietly makes a new, empty account: after `/plan disconnect` the next command
 * (whatever surface it comes by) asks what to do — *Connect again* gives back the account the app
 * made, with the tasks assigned to it, or *Paste a token* — and `--close` says that the history
 * stays with the closed account, after which coming back starts a new account only when asked.
 * Driven through signed requests; the organization's accounts are counted in the sandbox.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_ACTION } from '../../../src/slack/account/ids.js';
import { ACTION } from '../../../src/slack/kit/ids.js';
import { eventually, Harness, TEAM } from '../../helpers/slack-harness.js';

const PERSON = 'U2';
const NAME = 'Ana Lovelace';
const json = (value: unknown) => JSON.stringify(value);

let h: Harness;
beforeEach(async () => {
  h = await Harness.start({ provisioning: true });
  h.slack.users.set(PERSON, { id: PERSON, name: 'ana', realName: NAME });
});
afterEach(() => h.close());

/** Every service account of the organization, open and closed, as the service lists them. */
const accountsInOrg = async () => (await h.owner().serviceAccounts.list({ pageSize: 1500 })).serviceAccounts;

/** Runs `/plan <text>` as the person; resolves with the first answer from `since` on. */
async function command(text: string, match: (body: string) => boolean = () => true) {
  const since = h.slack.calls.length;
  await h.command(text, PERSON);
  return h.slack.waitFor('respond', (b) => match(json(b)), { since });
}

/** The person's first command: the app provisions their account. */
async function provisioned() {
  await command('whoami', (b) => b.includes('You act as'));
  const identity = (await h.store.identities.get(TEAM, PERSON))!;
  expect(identity.origin).toBe('provisioned');
  return identity;
}

const buttonsOf = (body: Record<string, unknown>) =>
  ((body.blocks as { type: string; elements?: { action_id?: string }[] }[]) ?? [])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => b.elements ?? [])
    .map((e) => e.action_id);

describe('after /plan disconnect', () => {
  it('the next command asks instead of provisioning; Connect again gives the same account back, with its task', async () => {
    const before = await provisioned();
    const { teamId, channelId, featureId } = h.fixture;
    const task = await h.owner().tasks.create(teamId, channelId, featureId, { heading: 'Ship the login' });
    await h.owner().tasks.assign(teamId, channelId, featureId, task.id, before.planningUserId);
    const accounts = (await accountsInOrg()).length;

    const left = await command('disconnect', (b) => b.includes('Disconnected'));
    expect(json(left.body)).toContain('stays open with your tasks and grades');
    expect(await h.store.identities.get(TEAM, PERSON)).toBeUndefined();
    // Left open, to come back to.
    expect((await h.owner().serviceAccounts.read(before.serviceAccountId)).closedTime).toBe(0);

    // The next command — and another surface, the Home tab — asks; nothing is made.
    const asked = await command('tasks mine', (b) => b.includes('You disconnected'));
    expect(buttonsOf(asked.body)).toEqual([ACTION.connectAgain, ACTION.connectOpen]);
    await h.event({ type: 'app_home_opened', user: PERSON, channel: `D${PERSON}`, tab: 'home' });
    const home = await h.slack.waitFor(
      'views.publish',
      (b) => b.user_id === PERSON && json(b).includes(ACTION.connectAgain),
    );
    expect(json(home.body)).toContain('Connect again');
    expect(await accountsInOrg()).toHaveLength(accounts);
    expect(h.sandbox.requests.count('serviceAccounts.create')).toBe(1);
    expect(await h.store.identities.get(TEAM, PERSON)).toBeUndefined();

    // Connect again, pressed twice (a Slack retry, a double click) at once: the same account, once.
    const since = h.slack.calls.length;
    await Promise.all([
      h.press({ ephemeral: true }, ACTION.connectAgain, { user: PERSON }),
      h.press({ ephemeral: true }, ACTION.connectAgain, { user: PERSON }),
    ]);
    const again = await h.slack.waitFor('respond', (b) => json(b).includes('Connected again'), { since });
    expect(again.body.replace_original).toBe(true);
    const after = (await h.store.identities.get(TEAM, PERSON))!;
    expect(after.serviceAccountId).toBe(before.serviceAccountId);
    expect(after.origin).toBe('provisioned');
    expect(after.token).not.toBe(before.token);
    expect(await accountsInOrg()).toHaveLength(accounts);
    expect(h.sandbox.requests.count('serviceAccounts.regenerate')).toBe(1);
    expect(await h.store.departures.get(TEAM, PERSON)).toBeUndefined();
    // Pressed again later (the old message, a late retry): nothing more is done.
    const since1 = h.slack.calls.length;
    await h.press({ ephemeral: true }, ACTION.connectAgain, { user: PERSON });
    await h.slack.waitFor('respond', (b) => json(b).includes('connected already'), { since: since1 });
    expect(h.sandbox.requests.count('serviceAccounts.regenerate')).toBe(1);
    expect((await h.store.identities.get(TEAM, PERSON))!.token).toBe(after.token);

    // The task assigned before is theirs again.
    await h.link('C1');
    const since2 = h.slack.calls.length;
    await h.command('tasks mine', PERSON, 'C1');
    const mine = await h.slack.waitFor('respond', (b) => json(b).includes('Your tasks (1)'), {
      since: since2,
    });
    expect(json(mine.body)).toContain('Ship the login');
  });

  it('Admin → People lists the person once after they came back', async () => {
    const ADMIN = 'U1';
    h.slack.users.set(ADMIN, { id: ADMIN, name: 'boss', isAdmin: true });
    await h.connect(ADMIN, 'owner');
    await provisioned();
    await command('disconnect', (b) => b.includes('Disconnected'));
    await command('whoami', (b) => b.includes('You disconnected'));
    await h.press({ ephemeral: true }, ACTION.connectAgain, { user: PERSON });
    await h.slack.waitFor('respond', (b) => json(b).includes('Connected again'));

    const sectionId = await h.adminSection('people', ADMIN);
    const people = await h.slack.waitFor(
      'views.update',
      (b) => b.view_id === sectionId && json(b).includes(`<@${PERSON}>`),
    );
    const shown = json(people.body.view);
    // One row (its line: `*name* · role · state · who`), held by the person.
    expect(shown.split(`*${NAME}* · `)).toHaveLength(2);
    expect(shown).toContain(`*${NAME}* · member · open · <@${PERSON}>`);
  });

  it('a grade given meanwhile goes to the account they left, and no account is made', async () => {
    const before = await provisioned();
    await command('disconnect', (b) => b.includes('Disconnected'));
    const notionId = (await h.owner().notions.create({ value: 'TypeScript' })).id;
    const accounts = (await accountsInOrg()).length;
    await h.connect('UGRADER', 'member');

    // A form names them: the account they left is named, with its history; nothing is made.
    await h.command(`grade <@${PERSON}|ana> typescript 8`, 'UGRADER');
    await h.slack.waitFor('respond', (b) => json(b).includes('recorded anonymously'));
    const experience = await h.owner().experiences.readPeer(notionId, before.planningUserId);
    expect(experience.peerEval).toMatchObject({ count: 1, average: 8 });
    expect(await accountsInOrg()).toHaveLength(accounts);
  });
});

describe('coming back from the Home tab', () => {
  it('Disconnect on Home, then Connect again on Home: the same account, and the tab shows it', async () => {
    const before = await provisioned();
    const home = { home: { state: { values: {} }, hash: 'h1' } };
    await h.press(home, ACCOUNT_ACTION.disconnect, { user: PERSON, blockId: 'x' });
    await h.slack.waitFor(
      'views.publish',
      (b) =>
        b.user_id === PERSON && json(b).includes('Disconnected') && json(b).includes(ACTION.connectAgain),
    );
    expect(await h.store.identities.get(TEAM, PERSON)).toBeUndefined();

    await h.press(home, ACTION.connectAgain, { user: PERSON, blockId: 'x' });
    await h.slack.waitFor(
      'views.publish',
      (b) =>
        b.user_id === PERSON &&
        json(b).includes('Connected again') &&
        json(b).includes(ACCOUNT_ACTION.disconnect),
    );
    expect((await h.store.identities.get(TEAM, PERSON))?.serviceAccountId).toBe(before.serviceAccountId);
    expect(h.sandbox.requests.count('serviceAccounts.create')).toBe(1);
  });
});

describe('/plan disconnect --close, and coming back', () => {
  it('says the history stays with the closed account; coming back asks, and only a press makes a new, empty account', async () => {
    const before = await provisioned();
    await command('disconnect --close', (b) => b.includes(ACCOUNT_ACTION.close));
    await h.press({ ephemeral: true }, ACCOUNT_ACTION.close, { user: PERSON });
    const closed = await h.slack.waitFor('respond', (b) => json(b).includes('Disconnected'));
    expect(json(closed.body)).toContain('its tasks, grades and history stay with the closed account');
    expect((await h.owner().serviceAccounts.read(before.serviceAccountId)).closedTime).not.toBe(0);
    const accounts = (await accountsInOrg()).length;

    // Coming back: asked, with no way back to the closed account; nothing made yet.
    const asked = await command('whoami', (b) => b.includes('You disconnected'));
    expect(json(asked.body)).toContain('history stay with the closed account');
    expect(buttonsOf(asked.body)).toEqual([ACTION.connectNewAccount, ACTION.connectOpen]);
    expect(await accountsInOrg()).toHaveLength(accounts);

    // Connect again is not offered; a stale one pressed anyway never re-opens the closed account.
    await h.press({ ephemeral: true }, ACTION.connectAgain, { value: '', user: PERSON });
    await h.slack.waitFor(
      'respond',
      (b) => json(b).includes('Start with a new account') && b.replace_original === true,
    );
    expect((await h.owner().serviceAccounts.read(before.serviceAccountId)).closedTime).not.toBe(0);
    expect(h.sandbox.requests.count('serviceAccounts.regenerate')).toBe(0);

    // Start with a new account, pressed twice at once: one new account, said plainly.
    const since = h.slack.calls.length;
    await Promise.all([
      h.press({ ephemeral: true }, ACTION.connectNewAccount, { user: PERSON }),
      h.press({ ephemeral: true }, ACTION.connectNewAccount, { user: PERSON }),
    ]);
    const fresh = await h.slack.waitFor('respond', (b) => json(b).includes('new planning account'), {
      since,
    });
    expect(json(fresh.body)).toContain('It starts empty');
    const after = (await h.store.identities.get(TEAM, PERSON))!;
    expect(after.serviceAccountId).not.toBe(before.serviceAccountId);
    expect(await accountsInOrg()).toHaveLength(accounts + 1);
    expect(await h.unheldAccounts()).toEqual([]);
  });

  it('a pasted account disconnected: asked to paste it again or start anew, never given one unasked', async () => {
    await h.connect(PERSON, 'member');
    await command('disconnect', (b) => b.includes('Disconnected'));
    const accounts = (await accountsInOrg()).length;
    const asked = await command('whoami', (b) => b.includes('You disconnected'));
    expect(buttonsOf(asked.body)).toEqual([ACTION.connectOpen, ACTION.connectNewAccount]);
    expect(await accountsInOrg()).toHaveLength(accounts);
    expect(h.sandbox.requests.count('serviceAccounts.create')).toBe(0);
  });
});

describe('a person who left and is then deactivated', () => {
  it('has the account they left open closed, as any provisioned account', async () => {
    const before = await provisioned();
    await command('disconnect', (b) => b.includes('Disconnected'));
    await h.event({ type: 'user_change', user: { id: PERSON, deleted: true, team_id: TEAM } });
    await eventually(
      async () => (await h.owner().serviceAccounts.read(before.serviceAccountId)).closedTime !== 0,
      'the account left open to be closed',
    );
    expect(await h.store.departures.get(TEAM, PERSON)).toBeUndefined();
  });
});
