/**
 * Who gets a planning account from the app: full members of the installing workspace (or of its
 * Enterprise Grid organization) only — as the acting user, and as an assignee or peer picked in a
 * form. A deactivated person's account is closed; two replicas provisioning the same person make
 * one account, and neither answers "not connected".
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GRADE_SHORTCUT } from '../../../src/slack/grades/ids.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { TASK_FIELD } from '../../../src/slack/tasks/ids.js';
import {
  eventually,
  external,
  type FakeUser,
  Harness,
  TEAM,
  text,
  user,
} from '../../helpers/slack-harness.js';

let h: Harness;
beforeEach(async () => {
  h = await Harness.start({ provisioning: true });
});
afterEach(() => h.close());

const reply = async (u: string) => {
  await h.command('whoami', u);
  return JSON.stringify((await h.slack.waitFor('respond')).body);
};

describe('who is provisioned', () => {
  it('a full member of the workspace gets an account', async () => {
    h.slack.users.set('UFULL', { id: 'UFULL', name: 'full' });
    expect(await reply('UFULL')).toContain('You act as');
    expect((await h.store.identities.get(TEAM, 'UFULL'))?.origin).toBe('provisioned');
  });

  it.each<[string, Partial<FakeUser>, string]>([
    ['a multi-channel guest', { guest: 'multi-channel' }, 'a guest in this workspace'],
    ['a single-channel guest', { guest: 'single-channel' }, 'a guest in this workspace'],
    ['someone from another workspace (Slack Connect)', { teamId: 'T0OTHER' }, 'from another organization'],
    ['an external user Slack marks as a stranger', { stranger: true }, 'from another organization'],
    ['a bot', { bot: true }, 'a bot or an app'],
    ['a deactivated user', { deleted: true }, 'deactivated'],
  ])('%s gets no account, one sentence why, and the refusal is logged', async (_, facts, why) => {
    h.slack.users.set('UX', { id: 'UX', name: 'someone', ...facts });
    const said = await reply('UX');
    expect(said).toContain('Only full members of this workspace get a planning account');
    expect(said).toContain(why);
    expect(h.sandbox.requests.count('serviceAccounts.create')).toBe(0);
    expect(await h.store.identities.get(TEAM, 'UX')).toBeUndefined();
    expect(h.logs.join('')).toContain('not a full member');
  });

  it('a member of the same Enterprise Grid organization, from another of its workspaces, gets one', async () => {
    h.slack.users.set('UGRID', { id: 'UGRID', name: 'grid', teamId: 'T0SISTER', enterpriseId: 'E0ORG' });
    await h.shortcut(GRADE_SHORTCUT.gradePeer, {
      user: 'UGRID',
      fields: {
        enterprise: { id: 'E0ORG', name: 'Org' },
        user: { id: 'UGRID', name: 'grid', team_id: 'T0SISTER' },
      },
    });
    await h.slack.waitFor('views.open');
    await eventually(
      async () => (await h.store.identities.get(TEAM, 'UGRID')) !== undefined,
      'UGRID provisioned',
    );
    expect(h.sandbox.requests.count('serviceAccounts.create')).toBe(1);
  });

  it('an assignee who is a guest is refused in one sentence; no task is made', async () => {
    h.slack.users.set('U1', { id: 'U1', name: 'ana' });
    h.slack.users.set('UGUEST', { id: 'UGUEST', name: 'guest', guest: 'multi-channel' });
    await h.link();
    const viewId = await h.createTaskForm('Do it');
    await h.submit(viewId, [
      [TASK_FIELD.feature, external(h.fixture.featureId, 'Login page')],
      [FIELD.heading, text('Do it')],
      [TASK_FIELD.assignee, user('UGUEST')],
    ]);
    const back = await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('cannot get'));
    expect(JSON.stringify(back.body.view)).toContain('<@UGUEST> cannot get a planning account from the app');
    expect(h.sandbox.requests.count('taskCreate')).toBe(0);
    expect(h.sandbox.requests.count('serviceAccounts.create')).toBe(1); // the author's own
  });

  it('a peer from another organization cannot be graded into an account', async () => {
    h.slack.users.set('U1', { id: 'U1', name: 'ana' });
    h.slack.users.set('UEXT', { id: 'UEXT', name: 'ext', teamId: 'T0OTHER' });
    await h.owner().notions.create({ value: 'Testing' });
    await h.command('grade <@UEXT|ext> Testing 7', 'U1');
    const said = JSON.stringify((await h.slack.waitFor('respond')).body);
    expect(said).toContain(
      '<@UEXT> cannot get a planning account from the app: they are from another organization',
    );
    expect(h.sandbox.requests.count('experiences.evaluatePeer')).toBe(0);
  });
});

describe('a person deactivated in Slack', () => {
  const deactivated = (id: string) =>
    h.event({ type: 'user_change', user: { id, team_id: TEAM, name: 'gone', deleted: true } });

  it('gets their provisioned account closed and their identity removed, once however often Slack retries', async () => {
    h.slack.users.set('U5', { id: 'U5', name: 'five' });
    await reply('U5');
    const identity = (await h.store.identities.get(TEAM, 'U5'))!;
    expect(identity.origin).toBe('provisioned');
    expect((await deactivated('U5')).status).toBe(200);
    await eventually(async () => !(await h.store.identities.get(TEAM, 'U5')), 'the identity removed');
    expect(await h.store.identities.get(TEAM, 'U5')).toBeUndefined();
    // The identity is forgotten (with its closure recorded) before the account is closed at the service.
    await eventually(
      async () => (await h.owner().serviceAccounts.read(identity.serviceAccountId)).closedTime !== 0,
      'the account closed',
    );
    const closes = h.sandbox.requests.count('serviceAccounts.close');
    expect((await deactivated('U5')).status).toBe(200);
    expect(h.sandbox.requests.count('serviceAccounts.close')).toBe(closes);
  });

  it('with a pasted token: the token is forgotten, the account left alone', async () => {
    const identity = await h.connect('U6', 'member');
    await deactivated('U6');
    await eventually(async () => !(await h.store.identities.get(TEAM, 'U6')), 'the identity removed');
    expect(await h.store.identities.get(TEAM, 'U6')).toBeUndefined();
    expect(h.sandbox.requests.count('serviceAccounts.close')).toBe(0);
    expect((await h.owner().serviceAccounts.read(identity.serviceAccountId)).closedTime).toBe(0);
  });

  it('a profile change that is not a deactivation changes nothing', async () => {
    await h.connect('U7', 'member');
    await h.event({ type: 'user_change', user: { id: 'U7', team_id: TEAM, name: 'seven', deleted: false } });
    await h.command('whoami', 'U7');
    await h.slack.waitFor('respond');
    expect(await h.store.identities.get(TEAM, 'U7')).toBeDefined();
  });
});

describe('two replicas provisioning the same new person', () => {
  it('the one that lost the race waits for the winner’s account and uses it', async () => {
    h.slack.users.set('U8', { id: 'U8', name: 'eight' });
    // Another replica holds the provisioning lock for U8 and is creating the account.
    expect(await h.store.locks.acquire(`provision:${TEAM}:U8`, 60_000)).toBeDefined();
    await h.command('whoami', 'U8');
    await eventually(
      () => h.logs.join('').includes("waiting for another replica's provisioning"),
      'the replica to wait',
    );
    // The other replica finishes: its account is stored.
    const account = await h.owner().serviceAccounts.create({ roleOrg: 'member', userName: 'eight' });
    await h.store.identities.save({
      workspaceId: TEAM,
      slackUserId: 'U8',
      serviceAccountId: account.id,
      planningUserId: account.id,
      orgId: h.sandbox.orgId,
      token: account.serviceToken!,
      origin: 'provisioned',
    });
    const said = JSON.stringify((await h.slack.waitFor('respond')).body);
    expect(said).toContain('You act as *eight*');
    expect(said).not.toContain('not connected');
    // Only the winner's create: this replica made none.
    expect(h.sandbox.requests.count('serviceAccounts.create')).toBe(1);
  });
  it('a replica whose provisioning outlived its lock keeps the identity stored meanwhile and closes the account it made', async () => {
    await h.close();
    // The service's answer is held as long as the test needs: no client timeout may end it first.
    h = await Harness.start({ provisioning: true, planningTimeoutMs: 60_000 });
    h.slack.users.set('U9', { id: 'U9', name: 'nine' });
    const rival = await h.owner().serviceAccounts.create({ roleOrg: 'member', userName: 'nine' });
    let answer = () => {};
    h.sandbox.inject({
      operationId: 'serviceAccountCreate',
      holdUntil: new Promise<void>((resolve) => {
        answer = resolve;
      }),
    });
    await h.command('whoami', 'U9');
    await eventually(() => h.sandbox.requests.count('serviceAccountCreate') === 2, 'this replica creating');
    // Meanwhile another replica (its lock's lease ran out on this one) stored its own account for U9.
    await h.store.identities.save({
      workspaceId: TEAM,
      slackUserId: 'U9',
      serviceAccountId: rival.id,
      planningUserId: rival.id,
      orgId: h.sandbox.orgId,
      token: rival.serviceToken!,
      origin: 'provisioned',
    });
    answer();
    const said = JSON.stringify((await h.slack.waitFor('respond')).body);
    expect(said).toContain('You act as *nine*');
    expect((await h.store.identities.get(TEAM, 'U9'))?.serviceAccountId).toBe(rival.id);
    // The account this replica made is closed: no account stays open with a token nobody holds.
    const seeded = [h.sandbox.ownerId, h.sandbox.adminId, h.sandbox.memberId, rival.id];
    const made = Object.values(h.sandbox.state().accounts).filter((a) => !seeded.includes(a.id));
    expect(made).toHaveLength(1);
    expect(made[0]?.closedTime).not.toBe(0);
    expect(await h.unheldAccounts()).toEqual([]);
  });
});
