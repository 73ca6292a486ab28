import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/planning/index.js';
import { failure, roles, useSandbox } from '../helpers/sandbox.js';

const ctx = useSandbox();
const { owner, member } = roles(ctx);

async function teamWithChannel(name: string) {
  let team = await owner().teams.create({ teamName: name });
  team = await owner().channels.create(team.id, { channelName: 'Backend', channelDesc: 'APIs' });
  const [generalId, backendId] = team.channels.map((c) => c.id) as [string, string];
  return { teamId: team.id, generalId, backendId };
}

const teamIdsOf = async (userId: string) => (await owner().teams.listUser(userId)).teams.map((t) => t.id);
const membersOf = async (teamId: string, channelId: string) =>
  (await owner().channels.listMembers(teamId, channelId)).members.map((m) => m.id);

describe('a new team comes with its default channel', () => {
  it('channels[0] is the default channel', async () => {
    const team = await owner().teams.create({ teamName: 'Design' });
    expect(team.channels).toHaveLength(1);
    expect(team.channels[0]).toMatchObject({ isDefault: true, channelName: 'General' });
    expect((await owner().teams.read(team.id)).channels[0]?.isDefault).toBe(true);
  });

  it('a created channel is not default and comes back in TeamExpanded', async () => {
    const team = await owner().teams.create({ teamName: 'Ops' });
    const withChannel = await owner().channels.create(team.id, { channelName: 'On-call' });
    expect(withChannel.channels.map((c) => [c.channelName, c.isDefault])).toEqual([
      ['General', true],
      ['On-call', false],
    ]);
  });

  it('teams update and list', async () => {
    const team = await owner().teams.create({ teamName: 'Old name' });
    expect((await owner().teams.update(team.id, { teamName: 'New name' })).teamName).toBe('New name');
    expect((await member().teams.listAll()).teams.map((t) => t.teamName)).toContain('New name');
  });
});

describe('assigning to a channel also assigns to the team', () => {
  it('joins the team and both channels', async () => {
    const { teamId, generalId, backendId } = await teamWithChannel('Joiners');
    const user = await owner().channels.assign(teamId, backendId, ctx.sandbox.memberId);
    expect(user.teams).toContainEqual({ teamId, channelIds: [generalId, backendId] });
    expect(await membersOf(teamId, generalId)).toContain(ctx.sandbox.memberId);
  });
});

describe('unassigning from the default channel is unassigning from the team', () => {
  it('leaves every channel of the team', async () => {
    const { teamId, generalId, backendId } = await teamWithChannel('Leavers');
    await owner().channels.assign(teamId, backendId, ctx.sandbox.memberId);
    expect(await owner().channels.unassign(teamId, generalId, ctx.sandbox.memberId)).toBe(true);
    expect(await teamIdsOf(ctx.sandbox.memberId)).not.toContain(teamId);
    expect(await membersOf(teamId, backendId)).not.toContain(ctx.sandbox.memberId);
  });

  it('leaving another channel keeps the team', async () => {
    const { teamId, generalId, backendId } = await teamWithChannel('Stayers');
    await owner().channels.assign(teamId, backendId, ctx.sandbox.memberId);
    await owner().channels.unassign(teamId, backendId, ctx.sandbox.memberId);
    expect(await membersOf(teamId, generalId)).toContain(ctx.sandbox.memberId);
    expect(await membersOf(teamId, backendId)).not.toContain(ctx.sandbox.memberId);
  });

  it('teams.unassign leaves the team', async () => {
    const { teamId } = await teamWithChannel('Quitters');
    await owner().teams.assign(teamId, ctx.sandbox.memberId);
    await owner().teams.unassign(teamId, ctx.sandbox.memberId);
    expect(await teamIdsOf(ctx.sandbox.memberId)).not.toContain(teamId);
  });
});

describe('deleting a team or a channel unassigns its users', () => {
  it('deleting a team unassigns everyone and answers 404 after', async () => {
    const { teamId, backendId } = await teamWithChannel('Doomed');
    await owner().channels.assign(teamId, backendId, ctx.sandbox.memberId);
    expect(await owner().teams.delete(teamId)).toBe(true);
    expect(await teamIdsOf(ctx.sandbox.memberId)).not.toContain(teamId);
    expect(await failure(owner().teams.read(teamId))).toBeInstanceOf(NotFoundError);
  });

  it('deleting a channel unassigns its users from it, and its features go with it', async () => {
    const { teamId, backendId } = await teamWithChannel('Shrinking');
    await owner().channels.assign(teamId, backendId, ctx.sandbox.memberId);
    const feature = await member().features.create(teamId, backendId, { heading: 'In the channel' });
    expect(await owner().channels.delete(teamId, backendId)).toBe(true);
    const user = await owner().serviceAccounts.read(ctx.sandbox.memberId);
    expect(user.teams.find((t) => t.teamId === teamId)?.channelIds).not.toContain(backendId);
    expect(await failure(owner().features.read(teamId, backendId, feature.id))).toBeInstanceOf(NotFoundError);
  });

  it('the default channel cannot be deleted', async () => {
    const { teamId, generalId } = await teamWithChannel('Keeps general');
    expect(await failure(owner().channels.delete(teamId, generalId))).toBeInstanceOf(ForbiddenError);
  });
});

describe('channels: writes on the organization are for owners and admins', () => {
  it('a member cannot create, rename or delete channels', async () => {
    const { teamId, backendId } = await teamWithChannel('Guarded');
    expect(await failure(member().channels.create(teamId, { channelName: 'Mine' }))).toBeInstanceOf(
      ForbiddenError,
    );
    expect(
      await failure(member().channels.update(teamId, backendId, { channelName: 'Renamed' })),
    ).toBeInstanceOf(ForbiddenError);
    expect(await failure(member().channels.delete(teamId, backendId))).toBeInstanceOf(ForbiddenError);
  });

  it('an update changes name and description', async () => {
    const { teamId, backendId } = await teamWithChannel('Renamers');
    const team = await owner().channels.update(teamId, backendId, {
      channelName: 'Services',
      channelDesc: 'All',
    });
    expect(team.channels.find((c) => c.id === backendId)).toMatchObject({
      channelName: 'Services',
      channelDesc: 'All',
    });
  });
});

describe('prospects: at most 10, wildcard on userName, not already in the channel', () => {
  it('lists up to 10 members not in the channel, filtered by a wildcard', async () => {
    const { teamId, backendId } = await teamWithChannel('Recruiting');
    for (let i = 0; i < 12; i++) {
      await owner().serviceAccounts.create({
        roleOrg: 'member',
        userName: `Prospect ${String(i).padStart(2, '0')}`,
      });
    }
    await owner().channels.assign(teamId, backendId, ctx.sandbox.memberId);
    const all = (await owner().channels.listProspects(teamId, backendId)).prospects;
    expect(all).toHaveLength(10);
    expect(all.map((p) => p.id)).not.toContain(ctx.sandbox.memberId);
    const some = (await owner().channels.listProspects(teamId, backendId, { userName: 'prospect 1*' }))
      .prospects;
    expect(some.map((p) => p.userName)).toEqual(['Prospect 10', 'Prospect 11']);
    const substring = (await owner().channels.listProspects(teamId, backendId, { userName: 'owner' }))
      .prospects;
    expect(substring.map((p) => p.userName)).toEqual(['Sandbox Owner']);
  });
});
