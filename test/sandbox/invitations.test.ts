import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/planning/index.js';
import { clientFor, FakeClock, failure, raw, roles, useSandbox } from '../helpers/sandbox.js';

const clock = new FakeClock();
const ctx = useSandbox({ clock: clock.now });
const { owner, member } = roles(ctx);

async function invitation(extra: { inviteExpireDays?: number; inviteUsesMax?: number } = {}) {
  const team = await owner().teams.create({ teamName: `Invited ${Math.random().toString(36).slice(2, 7)}` });
  const inv = await owner().invitations.create({ teamId: team.id, inviteName: 'Contractors', ...extra });
  return { team, inv };
}

/** An account of another organization, to accept with. */
async function outsider() {
  const org = await ctx.sandbox.createOrganization(`Outside ${Math.random().toString(36).slice(2, 7)}`);
  return { org, client: clientFor(ctx.sandbox, org.memberToken) };
}

describe('invitations', () => {
  it('create defaults: member role, 1 day, unlimited uses; only owners and admins create', async () => {
    const { team, inv } = await invitation();
    expect(inv).toMatchObject({
      teamId: team.id,
      orgId: ctx.sandbox.orgId,
      inviteName: 'Contractors',
      inviteOrgRole: 'member',
      inviteOrgName: 'Sandbox Organization',
      inviteUses: 0,
      inviteUsesMax: 0,
      inviteViews: 0,
      userId: ctx.sandbox.ownerId,
    });
    expect(Date.parse(inv.expiresAt as string) - clock.now()).toBe(24 * 3_600_000);
    expect(
      await failure(member().invitations.create({ teamId: team.id, inviteName: 'Mine' })),
    ).toBeInstanceOf(ForbiddenError);
    expect((await member().invitations.list()).invitations.map((i) => i.id)).toContain(inv.id);
  });

  it('an unknown team is 404', async () => {
    expect(
      await failure(
        owner().invitations.create({ teamId: 'ffffffffffffffffffffffff', inviteName: 'Nowhere' }),
      ),
    ).toBeInstanceOf(NotFoundError);
  });

  it('reading counts a view, with or without credentials', async () => {
    const { inv } = await invitation();
    await owner().invitations.read(inv.id);
    const anonymous = await raw(ctx.sandbox, 'GET', `/invitations/${inv.id}`);
    expect(anonymous.status).toBe(200);
    expect((anonymous.body as { inviteViews: number }).inviteViews).toBe(2);
  });

  it('accept: an account of another organization joins with the role and team; uses grow', async () => {
    const { team, inv } = await invitation({ inviteUsesMax: 2 });
    const { org, client } = await outsider();
    const accepted = await client.invitations.accept(inv.id);
    expect(accepted.inviteUses).toBe(1);
    const me = await client.account.read();
    expect(me.roleOrg).toContainEqual({ orgId: ctx.sandbox.orgId, role: 'member' });
    expect(me.orgs.map((o) => o.id)).toEqual([org.orgId, ctx.sandbox.orgId]);
    const members = await owner().channels.listMembers(team.id, team.channels[0]?.id as string);
    expect(members.members.map((m) => m.id)).toContain(org.memberId);
    expect(await failure(client.invitations.accept(inv.id))).toBeInstanceOf(ForbiddenError);
  });

  it('an exhausted invitation is refused (403) and not used', async () => {
    const { inv } = await invitation({ inviteUsesMax: 1 });
    await (await outsider()).client.invitations.accept(inv.id);
    const late = await outsider();
    const error = await failure(late.client.invitations.accept(inv.id));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toMatch(/maximum/);
    expect((await owner().invitations.read(inv.id)).inviteUses).toBe(1);
  });

  it('an expired invitation is refused (403); updating inviteExpireDays extends it', async () => {
    const { inv } = await invitation({ inviteExpireDays: 2 });
    clock.advanceHours(49);
    const { client } = await outsider();
    expect((await failure(client.invitations.accept(inv.id))).message).toMatch(/expired/);
    const extended = await owner().invitations.update(inv.id, { inviteExpireDays: 3, inviteName: 'Renewed' });
    expect(extended.inviteName).toBe('Renewed');
    expect((await client.invitations.accept(inv.id)).inviteUses).toBe(1);
  });

  it('members of the organization cannot accept its own invitation', async () => {
    const { inv } = await invitation();
    expect(await failure(member().invitations.accept(inv.id))).toBeInstanceOf(ForbiddenError);
  });

  it('delete: owners and admins; then 404; another organization cannot delete it', async () => {
    const { inv } = await invitation();
    const { org } = await outsider();
    expect(await failure(clientFor(ctx.sandbox, org.ownerToken).invitations.delete(inv.id))).toBeInstanceOf(
      NotFoundError,
    );
    expect(await failure(member().invitations.delete(inv.id))).toBeInstanceOf(ForbiddenError);
    expect(await owner().invitations.delete(inv.id)).toBe(true);
    expect(await failure(owner().invitations.read(inv.id))).toBeInstanceOf(NotFoundError);
  });
});
