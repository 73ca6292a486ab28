/**
 * Invitations to join the organization. Creating, updating and deleting are writes on the
 * organization (owner/admin); members may list them. Reading one needs no credentials (the
 * contract gives invitationRead no security: it is the link an invitee opens) and counts a view.
 * `inviteExpireDays` (default 1) counts from creation, or from the update that sets it;
 * `inviteUsesMax` 0 means unlimited.
 *
 * Accept: the caller — an account of another organization (a service account cannot be
 * "fresh" in the sandbox: every token belongs to an organization) — joins the inviting
 * organization with the invitation's role and is assigned to its team; `inviteUses` grows by one.
 * Its token stays bound to its own organization. An expired or exhausted invitation, or an
 * account that is already a member, answers 403 `not-allowed`.
 */
import { addDays } from 'date-fns';
import { requireSeat } from '../accounts.js';
import type { AreaHandlers, Ctx } from '../context.js';
import { notAllowed, notFound } from '../errors.js';
import { assign } from '../membership.js';
import { requireAdmin } from '../rbac.js';
import type { InvitationRec } from '../state.js';
import { invitationView, page } from '../views.js';

const DEFAULT_EXPIRE_DAYS = 1;

/** An invitation of the caller's organization (404 for another's). */
function ownInvitation(ctx: Ctx<'inviteId'>): InvitationRec {
  const inv = ctx.store.invitation(ctx.params.inviteId);
  if (inv.orgId !== ctx.org.id) throw notFound('Invitation');
  return inv;
}

export const invitations: AreaHandlers<'invitations'> = {
  list: (ctx) => {
    const own = Object.values(ctx.store.state.invitations).filter((inv) => inv.orgId === ctx.org.id);
    return page(
      'invitations',
      own.map((inv) => invitationView(ctx.store, inv)),
      ctx.query,
    );
  },

  create: (ctx) => {
    requireAdmin(ctx, 'create invitations');
    const team = ctx.store.team(ctx.org.id, ctx.body.teamId);
    const now = ctx.store.now();
    const inv: InvitationRec = {
      id: ctx.store.nextId(),
      orgId: ctx.org.id,
      teamId: team.id,
      userId: ctx.actor.id,
      inviteName: ctx.body.inviteName,
      inviteOrgRole: ctx.body.inviteOrgRole ?? 'member',
      inviteUses: 0,
      inviteUsesMax: ctx.body.inviteUsesMax ?? 0,
      inviteViews: 0,
      expiresAt: addDays(now, ctx.body.inviteExpireDays ?? DEFAULT_EXPIRE_DAYS).getTime(),
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.state.invitations[inv.id] = inv;
    return invitationView(ctx.store, inv);
  },

  read: (ctx) => {
    // Anonymous too (the table's `anonymous`): ctx.actor may be absent.
    const inv = ctx.store.invitation(ctx.params.inviteId);
    inv.inviteViews += 1;
    return invitationView(ctx.store, inv);
  },

  update: (ctx) => {
    requireAdmin(ctx, 'update invitations');
    const inv = ownInvitation(ctx);
    const now = ctx.store.now();
    const { teamId, inviteName, inviteOrgRole, inviteExpireDays, inviteUsesMax } = ctx.body;
    if (teamId !== undefined) inv.teamId = ctx.store.team(ctx.org.id, teamId).id;
    if (inviteName !== undefined) inv.inviteName = inviteName;
    if (inviteOrgRole !== undefined) inv.inviteOrgRole = inviteOrgRole;
    if (inviteExpireDays !== undefined) inv.expiresAt = addDays(now, inviteExpireDays).getTime();
    if (inviteUsesMax !== undefined) inv.inviteUsesMax = inviteUsesMax;
    inv.updatedAt = now;
    return invitationView(ctx.store, inv);
  },

  accept: (ctx) => {
    const inv = ctx.store.invitation(ctx.params.inviteId);
    const now = ctx.store.now();
    if (inv.expiresAt <= now) throw notAllowed('This invitation has expired');
    if (inv.inviteUsesMax > 0 && inv.inviteUses >= inv.inviteUsesMax) {
      throw notAllowed('This invitation has reached its maximum number of uses');
    }
    if (ctx.actor.roles[inv.orgId]) throw notAllowed('You are already a member of this organization');
    requireSeat(ctx.store, ctx.store.org(inv.orgId));
    ctx.actor.roles[inv.orgId] = inv.inviteOrgRole;
    const team = ctx.store.state.teams[inv.teamId];
    if (team) assign(team, ctx.actor.id);
    inv.inviteUses += 1;
    inv.updatedAt = now;
    return invitationView(ctx.store, inv);
  },

  delete: (ctx) => {
    requireAdmin(ctx, 'delete invitations');
    const { id } = ownInvitation(ctx);
    delete ctx.store.state.invitations[id];
    // Its link's page says it was revoked (invitation-page.ts), not that it never existed.
    ctx.store.state.revokedInvitations[id] = ctx.store.now();
    return true;
  },
};
