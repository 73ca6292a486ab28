/**
 * Team and channel membership. A team's members are its default channel's (spec rule 2: leaving
 * the default channel is leaving the team), so joining any channel also joins the team, and
 * deleting a team or a channel takes its memberships with it (spec rule 1).
 */
import type { ChannelRec, TeamRec } from './state.js';

export const defaultChannel = (team: TeamRec): ChannelRec =>
  team.channels.find((channel) => channel.isDefault) ?? (team.channels[0] as ChannelRec);

function add(channel: ChannelRec, userId: string): void {
  if (!channel.userIds.includes(userId)) channel.userIds.push(userId);
}

/** Joins the team (its default channel) and, when given, one more channel of it. */
export function assign(team: TeamRec, userId: string, channel?: ChannelRec): void {
  add(defaultChannel(team), userId);
  if (channel) add(channel, userId);
}

/** Leaves one channel — or the whole team when that channel is the default one or none is given. */
export function unassign(team: TeamRec, userId: string, channel?: ChannelRec): void {
  const leaving = !channel || channel.isDefault ? team.channels : [channel];
  for (const c of leaving) c.userIds = c.userIds.filter((id) => id !== userId);
}
