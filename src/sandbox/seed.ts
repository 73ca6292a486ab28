/**
 * Organizations to start from. Everything after the accounts is created through the operations
 * themselves (Engine.call), so seeded data obeys every rule a request would.
 *
 * - `minimal`: "Sandbox Organization" with an owner, an admin and a member service account, and
 *   one team, "Core", whose default channel all three belong to.
 * - `demo`: see demo-seed.ts.
 */
import { createAccount, createOrg } from './accounts.js';
import type { Engine } from './engine.js';
import type { AccountRec } from './state.js';

/** An organization's ids and the tokens of its three seeded service accounts. */
export interface OrgHandle {
  orgId: string;
  ownerId: string;
  ownerToken: string;
  adminId: string;
  adminToken: string;
  memberId: string;
  memberToken: string;
}

export interface SeededOrg {
  handle: OrgHandle;
  owner: AccountRec;
  admin: AccountRec;
  member: AccountRec;
}

export const handleOf = (owner: AccountRec, admin: AccountRec, member: AccountRec): OrgHandle => ({
  orgId: owner.homeOrgId,
  ownerId: owner.id,
  ownerToken: owner.serviceToken,
  adminId: admin.id,
  adminToken: admin.serviceToken,
  memberId: member.id,
  memberToken: member.serviceToken,
});

/** A new organization with an owner, an admin and a member; names default from the organization's. */
export async function seedOrganization(
  engine: Engine,
  orgName: string,
  names: { owner?: string; admin?: string; member?: string } = {},
): Promise<SeededOrg> {
  const { store, tokens } = engine;
  const org = createOrg(store, orgName);
  const short = orgName.slice(0, 50);
  const owner = await createAccount(store, tokens, org, 'owner', names.owner ?? `${short} Owner`);
  const admin = await createAccount(store, tokens, org, 'admin', names.admin ?? `${short} Admin`);
  const member = await createAccount(store, tokens, org, 'member', names.member ?? `${short} Member`);
  return { handle: handleOf(owner, admin, member), owner, admin, member };
}

export async function seedMinimal(engine: Engine): Promise<SeededOrg> {
  const seeded = await seedOrganization(engine, 'Sandbox Organization', {
    owner: 'Sandbox Owner',
    admin: 'Sandbox Admin',
    member: 'Sandbox Member',
  });
  const { owner, admin, member } = seeded;
  const team = await engine.call(owner, 'teams.create', [], { teamName: 'Core' });
  for (const person of [owner, admin, member]) await engine.call(owner, 'teams.assign', [team.id, person.id]);
  return seeded;
}
