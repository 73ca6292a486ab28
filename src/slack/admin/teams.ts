/** Teams and channels: the teams, one team's channels, one channel's members and prospects. */
import type { KnownBlock, ModalView } from '@slack/types';
import {
  actions,
  button,
  context,
  joinMd,
  type Mrkdwn,
  md,
  mention,
  modal,
  plural,
  section,
} from '../../blockkit/index.js';
import type { Team, TeamExpanded, User } from '../../planning/index.js';
import { VIEW } from '../kit/ids.js';
import {
  type AdminPlace,
  type Flash,
  flashBlocks,
  formButton,
  pager,
  placeTitle,
  placeValue,
  shortName,
  targetValue,
} from './common.js';
import { ADMIN_ACTION, ADMIN_VIEW } from './ids.js';

const go = placeValue;

/** Why a default channel cannot go: said under it (it has no Delete) and when the service refuses. */
export const DEFAULT_CHANNEL_RULE = md`A team's default channel cannot be deleted or left without the team: delete the team instead, or delete another channel.`;

export function teamsView(
  place: AdminPlace,
  teams: Team[],
  total: number | undefined,
  flash?: Flash,
): ModalView {
  const blocks: KnownBlock[] = [
    ...flashBlocks(flash),
    section(md`The organization's teams. Open one for its channels and members.`),
    actions(
      'teams_tools',
      formButton('New team', { form: 'newTeam' }, 'primary'),
      formButton("A person's teams", { form: 'personTeams' }),
      formButton('Link a Slack channel', { form: 'link' }),
    ),
  ];
  for (const team of teams) {
    const name = shortName(team.teamName);
    blocks.push(
      section(md`*${team.teamName ?? team.id}*`),
      actions(
        undefined,
        button('Open', ADMIN_ACTION.open, { value: go({ section: 'team', page: 1, teamId: team.id }) }),
        formButton('Rename', { form: 'renameTeam', teamId: team.id, name }),
        button('Delete', ADMIN_ACTION.deleteTeam, {
          value: targetValue({ id: team.id, name }),
          style: 'danger',
          confirm: {
            title: 'Delete the team?',
            text: md`*${name || team.id}* and all its channels and features are deleted; its members leave it.`,
            confirm: 'Delete team',
            style: 'danger',
          },
        }),
      ),
    );
  }
  if (teams.length === 0) blocks.push(section(md`No team on this page.`));
  blocks.push(...pager(place, teams.length, total, 'team'));
  return sectionModal(place, blocks);
}

export function teamView(place: AdminPlace, team: TeamExpanded, flash?: Flash): ModalView {
  const name = shortName(team.teamName);
  const blocks: KnownBlock[] = [
    ...flashBlocks(flash),
    section(md`*${team.teamName ?? team.id}* · ${plural(team.channels.length, 'channel')}`),
    actions(
      'team_tools',
      button('◀ Teams', ADMIN_ACTION.back, { value: go({ section: 'teams', page: 1 }) }),
      formButton('New channel', { form: 'newChannel', teamId: team.id, name }, 'primary'),
      formButton('Add member', { form: 'teamAdd', teamId: team.id, name }),
      formButton('Remove member', { form: 'teamRemove', teamId: team.id, name }),
    ),
  ];
  for (const channel of team.channels.slice(0, 40)) {
    const channelName = shortName(channel.channelName);
    blocks.push(
      section(
        md`*${channel.channelName ?? channel.id}*${channel.isDefault ? ' (default)' : ''}${channel.channelDesc ? ` — ${channel.channelDesc}` : ''}`,
      ),
      actions(
        undefined,
        button('Members', ADMIN_ACTION.open, {
          value: go({ section: 'channel', page: 1, teamId: team.id, channelId: channel.id }),
        }),
        formButton('Rename', {
          form: 'renameChannel',
          teamId: team.id,
          channelId: channel.id,
          name: channelName,
        }),
        // The service refuses to delete a default channel: it is not offered, and the line below says why.
        ...(channel.isDefault
          ? []
          : [
              button('Delete', ADMIN_ACTION.deleteChannel, {
                value: targetValue({ id: channel.id, teamId: team.id, name: channelName }),
                style: 'danger',
                confirm: {
                  title: 'Delete the channel?',
                  text: md`*${channelName || channel.id}* and its features are deleted.`,
                  confirm: 'Delete channel',
                  style: 'danger',
                },
              }),
            ]),
      ),
      ...(channel.isDefault ? [context(DEFAULT_CHANNEL_RULE)] : []),
    );
  }
  if (team.channels.length > 40) blocks.push(context(md`…and ${team.channels.length - 40} more channels.`));
  return sectionModal(place, blocks);
}

/** A member or prospect: the Slack user when one acts as them here, else their planning name. */
export function personName(user: User, slackUserId: string | undefined): Mrkdwn {
  return slackUserId
    ? md`${mention(slackUserId)} (${user.userName ?? user.id})`
    : md`${user.userName ?? user.id}`;
}

export interface ChannelPeople {
  team: TeamExpanded;
  channelId: string;
  members: User[];
  total: number | undefined;
  prospects: User[];
  slackUserOf: (planningUserId: string) => string | undefined;
}

export function channelView(place: AdminPlace, people: ChannelPeople, flash?: Flash): ModalView {
  const { team, channelId } = people;
  const channel = team.channels.find((c) => c.id === channelId);
  const where = { teamId: team.id, channelId };
  const blocks: KnownBlock[] = [
    ...flashBlocks(flash),
    section(md`*${team.teamName ?? team.id} › ${channel?.channelName ?? channelId}*`),
    actions(
      'channel_tools',
      button('◀ Team', ADMIN_ACTION.back, { value: go({ section: 'team', page: 1, teamId: team.id }) }),
      formButton(
        'Add member',
        { form: 'channelAdd', ...where, name: shortName(channel?.channelName) },
        'primary',
      ),
    ),
    section(md`*Members*`),
  ];
  for (const member of people.members) {
    blocks.push(
      section(personName(member, people.slackUserOf(member.id)), {
        accessory: button('Remove', ADMIN_ACTION.removeChannelMember, {
          value: targetValue({ id: member.id, ...where, name: shortName(member.userName) }),
          confirm: {
            title: 'Remove from the channel?',
            text: md`*${member.userName ?? member.id}* leaves this channel (not the team).`,
            confirm: 'Remove',
            style: 'danger',
          },
        }),
      }),
    );
  }
  if (people.members.length === 0) blocks.push(context(md`Nobody in this channel on this page.`));
  blocks.push(...pager(place, people.members.length, people.total, 'member'));
  if (people.prospects.length > 0) {
    blocks.push(section(md`*Prospects* — people of the organization not in this channel yet`));
    for (const prospect of people.prospects) {
      blocks.push(
        section(personName(prospect, people.slackUserOf(prospect.id)), {
          accessory: button('Add', ADMIN_ACTION.addProspect, {
            value: targetValue({ id: prospect.id, ...where, name: shortName(prospect.userName) }),
          }),
        }),
      );
    }
  }
  return sectionModal(place, blocks);
}

/** The teams of one person (teams.listUser), shown after the "A person's teams" form. */
export function personTeamsView(slackUserId: string, teams: TeamExpanded[], total: number | undefined) {
  const lines = teams.map((t) => md`• *${t.teamName ?? t.id}* (${plural(t.channels.length, 'channel')})`);
  return modal({
    callbackId: VIEW.info,
    title: "A person's teams",
    blocks: [
      section(
        teams.length === 0
          ? md`${mention(slackUserId)} is in no team.`
          : md`${mention(slackUserId)} is in ${plural(total ?? teams.length, 'team')}:\n${joinMd(lines)}`,
      ),
    ],
  });
}

function sectionModal(place: AdminPlace, blocks: KnownBlock[]): ModalView {
  return modal({
    callbackId: ADMIN_VIEW.section,
    title: placeTitle(place),
    privateMetadata: placeValue(place),
    blocks,
  });
}
