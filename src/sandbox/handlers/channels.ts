/**
 * Channels of a team. Creating, renaming and deleting are writes on the organization
 * (owner/admin); the default channel cannot be deleted (delete the team instead). Deleting a
 * channel unassigns its users and deletes its features. Prospects: up to 10 members of the
 * organization not yet in the channel (closed accounts left out), filtered by `userName` — a
 * case-insensitive wildcard where `*` is any run and `?` one character; without wildcards, a
 * substring.
 */
import { LIMITS } from '../../planning/models.js';
import type { AreaHandlers, Ctx } from '../context.js';
import { notAllowed } from '../errors.js';
import { assign, unassign } from '../membership.js';
import { requireAdmin, requireWriteOn } from '../rbac.js';
import { page, teamExpandedView, userView } from '../views.js';

function wildcard(pattern: string | undefined): (name: string) => boolean {
  if (!pattern) return () => true;
  if (!/[*?]/.test(pattern)) return (name) => name.toLowerCase().includes(pattern.toLowerCase());
  const source = pattern
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const regex = new RegExp(`^${source}$`, 'i');
  return (name) => regex.test(name);
}

function teamAndChannel(ctx: Ctx<'teamId' | 'channelId'>) {
  const team = ctx.store.team(ctx.org.id, ctx.params.teamId);
  return { team, channel: ctx.store.channel(team, ctx.params.channelId) };
}

export const channels: AreaHandlers<'channels'> = {
  create: (ctx) => {
    requireAdmin(ctx, 'create channels');
    const team = ctx.store.team(ctx.org.id, ctx.params.teamId);
    const now = ctx.store.now();
    team.channels.push({
      id: ctx.store.nextId(),
      isDefault: false,
      channelName: ctx.body.channelName,
      channelDesc: ctx.body.channelDesc ?? '',
      userIds: [],
      createdAt: now,
      updatedAt: now,
    });
    team.updatedAt = now;
    return teamExpandedView(team);
  },

  update: (ctx) => {
    requireAdmin(ctx, 'update channels');
    const { team, channel } = teamAndChannel(ctx);
    if (ctx.body.channelName !== undefined) channel.channelName = ctx.body.channelName;
    if (ctx.body.channelDesc !== undefined) channel.channelDesc = ctx.body.channelDesc;
    channel.updatedAt = ctx.store.now();
    return teamExpandedView(team);
  },

  delete: (ctx) => {
    requireAdmin(ctx, 'delete channels');
    const { team, channel } = teamAndChannel(ctx);
    if (channel.isDefault) throw notAllowed('The default channel cannot be deleted; delete the team instead');
    ctx.store.dropFeatures((feature) => feature.channelId === channel.id);
    team.channels = team.channels.filter((c) => c.id !== channel.id);
    team.updatedAt = ctx.store.now();
    return true;
  },

  listMembers: (ctx) => {
    const { channel } = teamAndChannel(ctx);
    const members = channel.userIds.map((id) =>
      userView(ctx.store, ctx.store.member(ctx.org.id, id), ctx.org.id),
    );
    return page('members', members, ctx.query);
  },

  listProspects: (ctx) => {
    const { channel } = teamAndChannel(ctx);
    const matches = wildcard(ctx.query.userName);
    const prospects = ctx.store
      .membersOf(ctx.org.id)
      .filter((user) => user.closedTime === 0 && !channel.userIds.includes(user.id) && matches(user.userName))
      .sort((a, b) => a.userName.localeCompare(b.userName))
      .slice(0, LIMITS.prospects)
      .map((user) => userView(ctx.store, user, ctx.org.id));
    return { prospects };
  },

  assign: (ctx) => {
    const { team, channel } = teamAndChannel(ctx);
    const user = ctx.store.member(ctx.org.id, ctx.params.userId);
    requireWriteOn(ctx, user, 'assign channels');
    assign(team, user.id, channel);
    return userView(ctx.store, user, ctx.org.id);
  },

  unassign: (ctx) => {
    const { team, channel } = teamAndChannel(ctx);
    const user = ctx.store.member(ctx.org.id, ctx.params.userId);
    requireWriteOn(ctx, user, 'unassign channels');
    unassign(team, user.id, channel);
    return true;
  },
};
