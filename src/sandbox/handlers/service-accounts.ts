/**
 * Service accounts of the caller's organization, closed ones included. Creating one is a write on
 * the organization (owner/admin); update, close and regenerate follow the role matrix against the
 * target. `serviceToken` is shown only to callers who may act on the account — a member reading a
 * colleague never receives a token to act as them. Accounts that joined from another organization
 * (invitation) are listed but managed only by their own organization.
 */

import { createAccount } from '../accounts.js';
import type { AreaHandlers, Ctx } from '../context.js';
import { notAllowed } from '../errors.js';
import { canWriteOn, requireAdmin, requireWriteOn } from '../rbac.js';
import type { AccountRec } from '../state.js';
import { page, serviceAccountView } from '../views.js';

function view(ctx: Ctx, target: AccountRec) {
  const own = target.homeOrgId === ctx.org.id;
  return serviceAccountView(ctx.store, target, ctx.org.id, own && canWriteOn(ctx, target));
}

/** The target, checked for the right to act on it. */
function managed(ctx: Ctx, accountId: string, action: string): AccountRec {
  const target = ctx.store.member(ctx.org.id, accountId);
  requireWriteOn(ctx, target, action);
  if (target.homeOrgId !== ctx.org.id) {
    throw notAllowed('This account belongs to another organization; only that organization manages it');
  }
  return target;
}

export const serviceAccounts: AreaHandlers<'serviceAccounts'> = {
  list: (ctx) =>
    page(
      'serviceAccounts',
      ctx.store.membersOf(ctx.org.id).map((target) => view(ctx, target)),
      ctx.query,
    ),

  create: async (ctx) => {
    requireAdmin(ctx, 'create service accounts');
    const created = await createAccount(ctx.store, ctx.tokens, ctx.org, ctx.body.roleOrg, ctx.body.userName);
    return view(ctx, created);
  },

  read: (ctx) => view(ctx, ctx.store.member(ctx.org.id, ctx.params.accountId)),

  update: (ctx) => {
    const target = managed(ctx, ctx.params.accountId, 'update accounts');
    const { roleOrg, userName } = ctx.body;
    if (roleOrg !== undefined && roleOrg !== target.roles[ctx.org.id]) {
      requireAdmin(ctx, 'change roles');
      if (target.roles[ctx.org.id] === 'owner') throw notAllowed("The owner's role cannot be changed");
      target.roles[ctx.org.id] = roleOrg;
    }
    if (userName !== undefined) target.userName = userName;
    target.updatedAt = ctx.store.now();
    return view(ctx, target);
  },

  close: async (ctx) => {
    const target = managed(ctx, ctx.params.accountId, 'close accounts');
    if (target.roles[ctx.org.id] === 'owner') throw notAllowed('The organization owner cannot be closed');
    target.closedTime = ctx.store.now();
    target.updatedAt = target.closedTime;
    await ctx.tokens.rotate(target);
    return view(ctx, target);
  },

  regenerate: async (ctx) => {
    const target = managed(ctx, ctx.params.accountId, 'regenerate tokens');
    if (target.closedTime !== 0) {
      requireAdmin(ctx, 're-open a closed account');
      target.closedTime = 0;
    }
    target.updatedAt = ctx.store.now();
    await ctx.tokens.rotate(target);
    return view(ctx, target);
  },
};
