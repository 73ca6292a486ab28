/**
 * The link modal: a Slack channel → a planning team, then one of its channels (picking the team
 * refreshes the channel select), then the digest's time, time zone and days.
 */
import type { ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  capOptions,
  channelMention,
  context,
  input,
  type Mrkdwn,
  md,
  modal,
  option,
  section,
} from '../../blockkit/index.js';
import type { Channel, Team } from '../../planning/models.js';
import { FIELD, VIEW } from '../ids.js';
import { formProblem } from './views.js';

export interface LinkForm {
  slackChannelId: string;
  teams: Team[];
  teamId?: string;
  /** Channels of the selected team, once one is selected. */
  channels?: Channel[];
  channelId?: string;
  digestTime: string;
  timeZone: string;
  weekdaysOnly: boolean;
  digestEnabled: boolean;
  problem?: Mrkdwn;
}

/** What the link modal carries in its private_metadata. */
export const LinkMeta = z.object({ ch: z.string().min(1) });

export const DIGEST_CHOICES = { weekdaysOnly: 'weekdays_only', enabled: 'enabled' } as const;

export function teamOption(team: Team): PlainTextOption {
  return option(team.teamName ?? team.id, team.id);
}

export function channelOption(channel: Channel): PlainTextOption {
  return option(`${channel.channelName ?? channel.id}${channel.isDefault ? ' (default)' : ''}`, channel.id);
}

/** A time-zone option: the value is the IANA name. */
export function timeZoneOption(zone: string): PlainTextOption {
  return option(zone.replace(/_/g, ' '), zone);
}

/**
 * The team select (dispatching: picking one refreshes the view) and, once a team is picked, the
 * select of its channels. The channel block id carries the team so Slack forgets a choice made
 * for another team. Shared by the link and create-task modals.
 */
export function teamChannelInputs(form: Pick<LinkForm, 'teams' | 'teamId' | 'channels' | 'channelId'>) {
  const teams = capOptions(form.teams.map(teamOption));
  const team = teams.find((o) => o.value === form.teamId);
  const blocks = [
    input(
      'Planning team',
      FIELD.team.block,
      {
        type: 'static_select',
        action_id: FIELD.team.action,
        placeholder: { type: 'plain_text', text: 'Choose a team' },
        options: teams.length > 0 ? teams : [option('(no team)', 'none')],
        ...(team ? { initial_option: team } : {}),
      },
      { dispatchAction: true },
    ),
  ];
  if (form.teamId && form.channels) {
    const channels = capOptions(form.channels.map(channelOption));
    const channel = channels.find((o) => o.value === form.channelId);
    blocks.push(
      input('Planning channel', `${FIELD.channel.block}|${form.teamId}`, {
        type: 'static_select',
        action_id: FIELD.channel.action,
        placeholder: { type: 'plain_text', text: 'Choose a channel' },
        options: channels.length > 0 ? channels : [option('(no channel)', 'none')],
        ...(channel ? { initial_option: channel } : {}),
      }),
    );
  }
  return blocks;
}

export const LINK_TITLE = 'Link this channel';

export function linkModal(form: LinkForm): ModalView {
  const checks = [
    option('Weekdays only', DIGEST_CHOICES.weekdaysOnly),
    option('Post a daily digest', DIGEST_CHOICES.enabled),
  ];
  const checked = checks.filter(
    (o) =>
      (o.value === DIGEST_CHOICES.weekdaysOnly && form.weekdaysOnly) ||
      (o.value === DIGEST_CHOICES.enabled && form.digestEnabled),
  );
  return modal({
    callbackId: VIEW.link,
    title: LINK_TITLE,
    submit: 'Link',
    close: 'Cancel',
    privateMetadata: JSON.stringify(LinkMeta.parse({ ch: form.slackChannelId })),
    blocks: [
      section(md`Link ${channelMention(form.slackChannelId)} to a planning team and channel.`),
      ...(form.teams.length === 0
        ? [formProblem(md`Your organization has no team yet: create one in the Team Planning Service first.`)]
        : []),
      ...teamChannelInputs(form),
      input('Daily digest at', FIELD.digestTime.block, {
        type: 'timepicker',
        action_id: FIELD.digestTime.action,
        initial_time: form.digestTime,
      }),
      input('Time zone', FIELD.timeZone.block, {
        type: 'external_select',
        action_id: FIELD.timeZone.action,
        min_query_length: 1,
        initial_option: timeZoneOption(form.timeZone),
      }),
      input(
        'Digest',
        FIELD.digestOptions.block,
        {
          type: 'checkboxes',
          action_id: FIELD.digestOptions.action,
          options: checks,
          ...(checked.length > 0 ? { initial_options: checked } : {}),
        },
        { optional: true },
      ),
      context(md`Commands, shortcuts and the digest in this channel will use this link.`),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}
