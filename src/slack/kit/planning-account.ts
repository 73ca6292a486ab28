/** Facts about a planning account within one organization. */
import type { Account } from '../../planning/index.js';
import type { Acting } from './identity.js';

/** The organization's name as the account sees it (its id when unnamed). */
export const orgName = (account: Account, orgId: string) =>
  account.orgs.find((o) => o.id === orgId)?.orgName ?? orgId;

/** The account's role in the organization. */
export const roleIn = (account: Account, orgId: string) =>
  account.roleOrg.find((r) => r.orgId === orgId)?.role;

/**
 * Whether the acting person is an owner or admin of the organization they act in (one read of their
 * own account): what the service requires to delete a feature in deep context, and the app to
 * delete a task someone else created.
 */
export async function actsAsOrgAdmin(acting: Pick<Acting, 'planning' | 'identity'>): Promise<boolean> {
  const role = roleIn(await acting.planning.account.read(), acting.identity.orgId);
  return role === 'owner' || role === 'admin';
}
