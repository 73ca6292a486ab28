/**
 * The current account. Closing it (DELETE /account) replaces its token and refuses every later
 * call; only an owner or admin of its organization re-opens it (service-account regenerate).
 * An owner cannot close their own account: the organization would be left without one.
 * The avatar is required here (the client's `AvatarInput` always sends one) and checked as the
 * contract says: PNG, exactly 256×256, under 200 KB → else 400 `invalid-argument-avatar`.
 */
import { avatarProblem } from '../../planning/png.js';
import type { AreaHandlers } from '../context.js';
import { invalidArgument, notAllowed } from '../errors.js';
import { aggregateEvaluations } from '../events.js';
import { accountView, eventView, page } from '../views.js';

export const account: AreaHandlers<'account'> = {
  read: (ctx) => accountView(ctx.store, ctx.actor),

  update: (ctx) => {
    ctx.actor.userName = ctx.body.userName;
    ctx.actor.updatedAt = ctx.store.now();
    return accountView(ctx.store, ctx.actor);
  },

  close: async (ctx) => {
    if (ctx.role === 'owner') throw notAllowed('An organization owner cannot close their own account');
    ctx.actor.closedTime = ctx.store.now();
    ctx.actor.updatedAt = ctx.actor.closedTime;
    await ctx.tokens.rotate(ctx.actor);
    return true;
  },

  avatar: (ctx) => {
    const problem = avatarProblem(ctx.body.avatar);
    if (problem) throw invalidArgument('avatar', problem);
    ctx.actor.avatarId = ctx.store.nextId();
    ctx.actor.updatedAt = ctx.store.now();
    return accountView(ctx.store, ctx.actor);
  },

  eventsList: (ctx) => {
    const mine = ctx.store.state.events.filter((event) => event.recipients.includes(ctx.actor.id)).reverse();
    const events = (ctx.query.aggregate ?? 1) === 1 ? aggregateEvaluations(mine) : mine;
    return { ...page('events', events.map(eventView), ctx.query), readOnly: false };
  },
};
