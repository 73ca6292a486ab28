import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePlanningPools, type FeatureExpanded, TASK_STATES } from '../../src/planning/index.js';
import { type BareSandbox, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { clientFor, FakeClock } from '../helpers/sandbox.js';

const clock = new FakeClock(Date.UTC(2026, 5, 1, 8, 0, 0));
let demo: Sandbox;
let twin: Sandbox;
let minimal: Sandbox;
let empty: BareSandbox;

beforeAll(async () => {
  [demo, twin, minimal, empty] = await Promise.all([
    startSandbox({ seed: 'demo', clock: clock.now }),
    startSandbox({ seed: 'demo', clock: clock.now }),
    startSandbox({ seed: 'minimal' }),
    startSandbox({ seed: 'none' }),
  ]);
});
afterAll(async () => {
  await Promise.all([demo, twin, minimal, empty].map((s) => s?.close()));
  await closePlanningPools();
});

/** Every feature of the organization, expanded, walking teams → channels → features. */
async function everyFeature(sandbox: Sandbox): Promise<FeatureExpanded[]> {
  const client = clientFor(sandbox, sandbox.ownerToken);
  const out: FeatureExpanded[] = [];
  for await (const team of client.teams.listAll()) {
    for (const channel of (await client.teams.read(team.id)).channels) {
      for await (const lite of client.features.list(team.id, channel.id)) {
        const feature = await client.features.read(team.id, channel.id, lite.id);
        const tasks = await Promise.all(
          feature.tasks.map((t) => client.tasks.read(team.id, channel.id, feature.id, t.id)),
        );
        out.push({ ...feature, tasks, teamName: team.teamName, channelName: channel.channelName });
      }
    }
  }
  return out;
}

describe('demo seed', () => {
  it('an organization with an owner, an admin and named members', async () => {
    const client = clientFor(demo, demo.ownerToken);
    const accounts = (await client.serviceAccounts.list()).serviceAccounts;
    expect(accounts.map((a) => [a.userName, a.roleOrg])).toEqual([
      ['Ada Lovelace', 'owner'],
      ['Grace Hopper', 'admin'],
      ['Margaret Hamilton', 'member'],
      ['Alan Turing', 'member'],
      ['Katherine Johnson', 'member'],
      ['Dennis Ritchie', 'member'],
      ['Barbara Liskov', 'member'],
    ]);
    expect((await clientFor(demo, demo.memberToken).account.read()).userName).toBe('Margaret Hamilton');
    expect((await clientFor(demo, demo.adminToken).account.read()).userName).toBe('Grace Hopper');
  });

  it('teams with channels, and notions', async () => {
    const client = clientFor(demo, demo.memberToken);
    const teams = (await client.teams.listAll()).teams;
    const channels = await Promise.all(
      teams.map(async (t) => (await client.teams.read(t.id)).channels.length),
    );
    expect(teams.map((t) => t.teamName)).toEqual(['Platform', 'Product', 'Mobile']);
    expect(channels).toEqual([3, 2, 1]);
    const notions = (await client.notions.search()).notions.map((n) => n.value);
    expect(notions).toEqual(expect.arrayContaining(['typescript', 'postgres', 'ux research']));
  });

  it('features in every stage; experiments idle, running and done; tasks in every state', async () => {
    const features = await everyFeature(demo);
    expect(new Set(features.map((f) => f.stage))).toEqual(
      new Set(['planning', 'validation', 'execution', 'deep context']),
    );
    expect(features.some((f) => f.stage === 'planning' && f.canAdvance)).toBe(true);
    expect(features.some((f) => f.stage === 'planning' && !f.canAdvance)).toBe(true);
    const experiments = new Set(features.flatMap((f) => f.assumptions.map((a) => a.experiment?.state)));
    expect(experiments).toEqual(new Set(['idle', 'running', 'done']));
    const tasks = features.flatMap((f) => f.tasks);
    expect(new Set(tasks.map((t) => t.state))).toEqual(new Set(TASK_STATES));
    expect(tasks.some((t) => t.assigneeUserId === undefined)).toBe(true);
    const minutes = tasks.map((t) => t.minute);
    expect(minutes.some((m) => (m?.discoveries.length ?? 0) > 0)).toBe(true);
    const feedback = minutes.flatMap((m) => m?.feedback ?? []);
    expect(feedback.some((f) => f.reply === undefined)).toBe(true);
    expect(feedback.some((f) => f.reply !== undefined)).toBe(true);
  });

  it('experiences with self and peer evaluations, an invitation, price plans, no subscription', async () => {
    const member = clientFor(demo, demo.memberToken);
    const experiences = (await member.experiences.list()).experiences;
    expect(experiences.some((e) => (e.selfEval?.count ?? 0) > 0)).toBe(true);
    expect(experiences.some((e) => (e.peerEval?.count ?? 0) > 0)).toBe(true);
    expect((await member.invitations.list()).invitations.map((i) => i.inviteName)).toEqual([
      'Design contractors',
    ]);
    expect((await member.billing.planList()).total).toBeGreaterThan(0);
    expect(await member.billing.subscriptionRead()).toBeNull();
  });

  it('is deterministic: the same clock gives the same ids, names and times', async () => {
    const [a, b] = await Promise.all([everyFeature(demo), everyFeature(twin)]);
    expect(a.length).toBeGreaterThan(5);
    expect(b).toEqual(a);
    expect(twin.memberId).toBe(demo.memberId);
  });

  it('history lies in the 30 days before start-up', async () => {
    const features = await everyFeature(demo);
    for (const f of features) {
      const created = Date.parse(f.createdAt as string);
      expect(created).toBeLessThan(clock.now());
      expect(created).toBeGreaterThan(clock.now() - 31 * 86_400_000);
    }
  });
});

describe('minimal seed', () => {
  it('owner, admin and member accounts and one team whose default channel holds them', async () => {
    const client = clientFor(minimal, minimal.memberToken);
    const { teams } = await client.teams.listAll();
    expect(teams.map((t) => t.teamName)).toEqual(['Core']);
    const team = await client.teams.read(teams[0]?.id as string);
    expect(team.channels.map((c) => [c.channelName, c.isDefault])).toEqual([['General', true]]);
    const members = await client.channels.listMembers(team.id, team.channels[0]?.id as string);
    expect(members.members.map((m) => m.roleOrg)).toEqual(['owner', 'admin', 'member']);
  });
});

describe("seed 'none'", () => {
  it('has no organization until one is created', async () => {
    expect(empty).not.toHaveProperty('ownerToken');
    const org = await empty.createOrganization('Created later');
    expect((await clientFor(empty, org.ownerToken).account.read()).orgs[0]?.orgName).toBe('Created later');
  });
});
