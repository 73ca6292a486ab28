/**
 * Inputs several forms share: the planning team and channel pickers (link, create task, feature —
 * the team select dispatches, and picking a team redraws the topic's form with that team's
 * channels), a heading and details within the service's limits.
 */
import type { ViewOutput } from '@slack/bolt';
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { capOptions, input, md, option, textInput } from '../../blockkit/index.js';
import { type Channel, LIMITS, type Team } from '../../planning/models.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from './acting.js';
import { NO_CHOICE, type StateValues, selectOptions } from './form.js';
import { FIELD, type Field } from './ids.js';
import { formProblem } from './modal.js';
import type { Services } from './services.js';
import { showFailure, viewSurface } from './surfaces.js';

/** The heading input of a form (a task's, a feature's, an assumption's), within the service's limit. */
export function headingInput(
  value: string | undefined,
  { label = 'Heading', placeholder, hint }: { label?: string; placeholder?: string; hint?: string } = {},
) {
  return input(
    label,
    FIELD.heading.block,
    textInput(FIELD.heading.action, {
      max: LIMITS.heading,
      ...(placeholder ? { placeholder } : {}),
      value,
    }),
    hint ? { hint } : {},
  );
}

/** The details input of a form, multiline, within the service's limit; optional unless said. */
export function detailsInput(
  value: string | undefined,
  { label = 'Details', optional = true, hint }: { label?: string; optional?: boolean; hint?: string } = {},
) {
  return input(
    label,
    FIELD.details.block,
    textInput(FIELD.details.action, { multiline: true, max: LIMITS.details, value }),
    { optional, ...(hint ? { hint } : {}) },
  );
}

/** What a form offers and has picked: the teams, a team, its channels once picked, a channel. */
export interface TeamChannelChoice {
  teams: Pick<Team, 'id' | 'teamName'>[];
  teamId?: string;
  /** Channels of the selected team, once one is selected. */
  channels?: Channel[];
  channelId?: string;
}

export function teamOption(team: Pick<Team, 'id' | 'teamName'>): PlainTextOption {
  return option(team.teamName ?? team.id, team.id);
}

export function channelOption(channel: Channel): PlainTextOption {
  return option(`${channel.channelName ?? channel.id}${channel.isDefault ? ' (default)' : ''}`, channel.id);
}

/**
 * Above the team select: that the organization has no team yet — only when the form offers none
 * and none is chosen. A chosen team the form does not offer (another organization's, sent back) is
 * not "no team yet": what the service said of it is the form's problem sentence.
 */
export function noTeamYet(form: Partial<TeamChannelChoice>): KnownBlock[] {
  if ((form.teams ?? []).length > 0 || form.teamId) return [];
  return [formProblem(md`Your organization has no team yet: create one in the Team Planning Service first.`)];
}

/**
 * The team select (dispatching: picking one refreshes the view) and, once a team is picked, the
 * select of its channels. The channel block id carries the team so Slack forgets a choice made
 * for another team. Shared by the link, create-task and feature forms.
 */
export function teamChannelInputs(form: Partial<TeamChannelChoice>) {
  const teams = capOptions((form.teams ?? []).map(teamOption));
  const team = teams.find((o) => o.value === form.teamId);
  const blocks = [
    input(
      'Planning team',
      FIELD.team.block,
      {
        type: 'static_select',
        action_id: FIELD.team.action,
        placeholder: { type: 'plain_text', text: 'Choose a team' },
        options: teams.length > 0 ? teams : [option('(no team)', NO_CHOICE)],
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
        options: channels.length > 0 ? channels : [option('(no channel)', NO_CHOICE)],
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

/** A team just picked in a form: the teams the form offered, the team, and its channels. */
export interface TeamPicked {
  teams: Pick<Team, 'id' | 'teamName'>[];
  teamId: string;
  channels: Channel[];
}

/**
 * Picking a team in a form (the team select dispatches): the topic's `redraw` builds the form again
 * with that team's channels and what was typed, and the view is updated with its hash, so a newer
 * state is never overwritten. A failure is said in the modal.
 */
export async function redrawForTeam(
  svc: Services,
  { body, action, client, context }: ActionArgs,
  redraw: (picked: TeamPicked, view: ViewOutput, values: StateValues) => ModalView,
): Promise<void> {
  const view = body.view;
  const teamId = actionValue(action);
  if (!view || !teamId || teamId === NO_CHOICE) return;
  const planning = planningOf(context);
  try {
    const { planning: service } = await planning.acting();
    const { channels } = await service.teams.read(teamId);
    const picked = { teams: teamChoices(view.blocks), teamId, channels };
    const next = redraw(picked, view, view.state.values as StateValues);
    await client.views.update({ view_id: view.id, hash: view.hash, view: next });
  } catch (error) {
    await showFailure(svc.deps, viewSurface(client, view.id, view.title.text), error, {
      action: 'team picked',
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}
