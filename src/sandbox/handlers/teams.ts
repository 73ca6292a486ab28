/**
 * Teams. Creating, renaming and deleting are writes on the organization (owner/admin); assigning a
 * person follows the role matrix against that person (anyone may join or leave a team themselves).
 * A new team comes with its default channel, "General". Deleting a team unassigns its users and
 * deletes the features planned in its channels.
 */
import type { AreaHandlers } from '../context.js';
import { assign, unassign } from '../membership.js';
import { requireAdmin, requireWriteOn } from '../rbac.js';
import { page, teamExpandedView, teamView, userView } from '../views.js';

export const DEFAULT_CHANNEL_NAME = 'General';

export const teams: AreaHandlers<'teams'> = {
  listAll: (ctx) => page('teams', ctx.store.teamsOf(ctx.org.id).map(teamView), ctx.query),

  create: (ctx) => {
    requireAdmin(ctx, 'create teams');
    const now = ctx.store.now();
    const team = {
      id: ctx.store.nextId(),
      orgId: ctx.org.id,
      teamName: ctx.body.teamName,
      channels: [
        {
          id: ctx.store.nextId(),
          isDefault: true,
          channelName: DEFAULT_CHANNEL_NAME,
          channelDesc: '',
          userIds: [],
          createdAt: now,
          updatedAt: now,
        },
      ],
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.state.teams[team.id] = team;
    return teamExpandedView(team);
  },

  read: (ctx) => teamExpandedView(ctx.store.team(ctx.org.id, ctx.params.teamId)),

  update: (ctx) => {
    requireAdmin(ctx, 'rename teams');
    const team = ctx.store.team(ctx.org.id, ctx.params.teamId);
    if (ctx.body.teamName !== undefined) team.teamName = ctx.body.teamName;
    team.updatedAt = ctx.store.now();
    return teamExpandedView(team);
  },

  delete: (ctx) => {
    requireAdmin(ctx, 'delete teams');
    const team = ctx.store.team(ctx.org.id, ctx.params.teamId);
    ctx.store.dropFeatures((feature) => feature.teamId === team.id);
    delete ctx.store.state.teams[team.id];
    return true;
  },

  listUser: (ctx) => {
    const user = ctx.store.member(ctx.org.id, ctx.params.userId);
    const teamIds = new Set(ctx.store.userTeams(ctx.org.id, user.id).map((t) => t.teamId));
    const mine = ctx.store.teamsOf(ctx.org.id).filter((team) => teamIds.has(team.id));
    return page('teams', mine.map(teamExpandedView), ctx.query);
  },

  assign: (ctx) => {
    const team = ctx.store.team(ctx.org.id, ctx.params.teamId);
    const user = ctx.store.member(ctx.org.id, ctx.params.userId);
    requireWriteOn(ctx, user, 'assign teams');
    assign(team, user.id);
    return userView(ctx.store, user, ctx.org.id);
  },

  unassign: (ctx) => {
    const team = ctx.store.team(ctx.org.id, ctx.params.teamId);
    const user = ctx.store.member(ctx.org.id, ctx.params.userId);
    requireWriteOn(ctx, user, 'unassign teams');
    unassign(team, user.id);
    return true;
  },
};
