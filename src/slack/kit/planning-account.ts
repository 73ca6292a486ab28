/** Facts about a planning account within one organization. */
import type { Account } from '../../planning/index.js';

/** The organization's name as the account sees it (its id when unnamed). */
export const orgName = (account: Account, orgId: string) =>
  account.orgs.find((o) => o.id === orgId)?.orgName ?? orgId;

/** The account's role in the organization. */
export const roleIn = (account: Account, orgId: string) =>
  account.roleOrg.find((r) => r.orgId === orgId)?.role;
