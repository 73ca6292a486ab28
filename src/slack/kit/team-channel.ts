import type { PlainTextOption } from '@slack/types';
import { capOptions, input, option } from '../../blockkit/index.js';
import type { Channel, Team } from '../../planning/models.js';
import type { LinkForm } from '../link/blocks.js';
import { NO_CHOICE, selectOptions } from './form.js';
import { FIELD, type Field } from './ids.js';

export function teamOption(team: Team): PlainTextOption {
  return option(team.teamName ?? team.id, team.id);
}

export function channelOption(channel: Channel): PlainTextOption {
  return option(`${channel.channelName ?? channel.id}${channel.isDefault ? ' (default)' : ''}`, channel.id);
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

/** The teams a form's team select offered, read back from the view (`none` is the empty choice). */
export function teamChoices(
  blocks: unknown[],
  field: Field = FIELD.team,
): { id: string; teamName: string }[] {
  return selectOptions(blocks, field)
    .filter((o) => o.value !== NO_CHOICE)
    .map((o) => ({ id: o.value, teamName: o.text }));
}

/** The channels a form's channel select offered, read back from the view. */
export function channelChoices(blocks: unknown[]): { id: string; channelName: string; isDefault: boolean }[] {
  return selectOptions(blocks, FIELD.channel)
    .filter((o) => o.value !== NO_CHOICE)
    .map((o) => ({ id: o.value, channelName: o.text, isDefault: false }));
}
