/**
 * Roles, as NOTES.md "Roles": owner → read/write on everyone; admin → read on owners, read/write on
 * admins and members; member → read only on others; every account reads and writes itself.
 *
 * Which operations are "writes on the organization" (owner or admin only): creating, renaming and
 * deleting teams, channels, notions, invitations and service accounts; checkout and subscription
 * changes; deleting a feature in deep context. Planning work — features, tasks, assumptions,
 * experiments, discoveries, feedback — is open to every member of the organization. Operations on
 * a person (service-account update/close/regenerate, assigning someone to a team or channel,
 * editing someone's discovery or feedback) follow the matrix above against that person.
 */
import type { OrgRole } from '../planning/models.js';
import type { Ctx } from './context.js';
import { notAllowed } from './errors.js';
import type { AccountRec } from './state.js';

export const isAdmin = (role: OrgRole | undefined): boolean => role === 'owner' || role === 'admin';

/** 403 unless the caller is an owner or admin of the organization. */
export function requireAdmin(ctx: Ctx, action: string): void {
  if (!isAdmin(ctx.role)) throw notAllowed(`Only an organization owner or admin can ${action}`);
}

/** The matrix: may the caller write on `target` within the caller's organization? */
export function canWriteOn(ctx: Ctx, target: AccountRec): boolean {
  if (target.id === ctx.actor.id) return true;
  const targetRole = target.roles[ctx.org.id];
  if (ctx.role === 'owner') return true;
  if (ctx.role === 'admin') return targetRole !== 'owner';
  return false;
}

export function requireWriteOn(ctx: Ctx, target: AccountRec, action: string): void {
  if (!canWriteOn(ctx, target)) {
    throw notAllowed(`Your role (${ctx.role}) cannot ${action} for ${target.roles[ctx.org.id]} accounts`);
  }
}
