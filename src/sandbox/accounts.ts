/** Creating organizations and service accounts: shared by the operations, the seeds and the test handles. */
import { type OrgRole, USER_COLORS } from '../planning/models.js';
import type { Tokens } from './auth.js';
import { paymentRequired } from './errors.js';
import { usersMax } from './plans.js';
import type { AccountRec, OrgRec } from './state.js';
import type { Store } from './store.js';

export function createOrg(store: Store, orgName: string): OrgRec {
  const now = store.now();
  const org: OrgRec = {
    id: store.nextId(),
    orgName,
    subscription: null,
    invoices: [],
    checkouts: [],
    createdAt: now,
    updatedAt: now,
  };
  store.state.orgs[org.id] = org;
  return org;
}

/** 402 when the organization is at its plan's user limit. */
export function requireSeat(store: Store, org: OrgRec): void {
  const max = usersMax(org);
  if (store.membersOf(org.id).length >= max) {
    throw paymentRequired(
      'users-max',
      `The organization has reached its limit of ${max} users; upgrade the plan`,
    );
  }
}

/** A new, open service account of `org` with its first token. */
export async function createAccount(
  store: Store,
  tokens: Tokens,
  org: OrgRec,
  role: OrgRole,
  userName: string,
): Promise<AccountRec> {
  requireSeat(store, org);
  const now = store.now();
  const id = store.nextId();
  const colors = USER_COLORS.filter((color) => color !== 'clear');
  const account: AccountRec = {
    id,
    homeOrgId: org.id,
    roles: { [org.id]: role },
    userName,
    userColor: colors[store.state.seq % colors.length] ?? 'blue',
    tokenVersion: 1,
    serviceToken: '',
    closedTime: 0,
    apiCalls: {},
    createdAt: now,
    updatedAt: now,
  };
  account.serviceToken = await tokens.issue(account);
  store.state.accounts[id] = account;
  return account;
}
