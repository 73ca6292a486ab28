/**
 * The link modal's content for one Slack channel: the organization's teams, and the channel's
 * current link and digest settings when it has one (else the admin's time zone and the defaults).
 * `/plan link` opens it for the channel it is typed in; the admin modal for a channel picked there.
 */

import type { ViewOutput } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { channelMention, type Mrkdwn, md } from '../../blockkit/index.js';
import { DIGEST_TIME_PATTERN, isValidTimeZone } from '../../digest/time.js';
import { NotFoundError } from '../../planning/index.js';
import { DIGEST_DEFAULTS, LINK_DEFAULTS } from '../../store/index.js';
import type { ActionArgs, Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { type FormInput, type FormOutput, form, read } from '../kit/form.js';
import type { Acting } from '../kit/identity.js';
import { FIELD } from '../kit/ids.js';
import { channelChoices, redrawForTeam, teamChoices } from '../kit/inputs.js';
import { loadModal, modalRequest } from '../kit/modal.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { slackUserFacts } from '../kit/slack-user.js';
import { FormProblem, submission } from '../kit/submission.js';
import { DIGEST_CHOICES, LINK_TITLE, LinkMeta, linkModal } from './blocks.js';
import { LINK_CHOICES, LINK_FIELD } from './ids.js';

export async function linkModalFor(
  svc: Services,
  client: WebClient,
  acting: Acting,
  slackChannelId: string,
): Promise<ModalView> {
  const service = acting.planning;
  const [facts, existing, canvas] = await Promise.all([
    slackUserFacts(client, acting.slackUserId),
    svc.deps.store.links.get(acting.workspaceId, slackChannelId),
    svc.deps.store.canvases.get(acting.workspaceId, slackChannelId),
  ]);
  const { teams } = await service.teams.listAll({ pageSize: 100 });
  const channels = existing ? (await service.teams.read(existing.teamId)).channels : undefined;
  return linkModal({
    slackChannelId,
    teams,
    teamId: existing?.teamId,
    channels,
    channelId: existing?.channelId,
    digestTime: existing?.digestTime ?? DIGEST_DEFAULTS.digestTime,
    timeZone: existing?.timeZone ?? facts.timeZone ?? DIGEST_DEFAULTS.timeZone,
    weekdaysOnly: existing?.weekdaysOnly ?? DIGEST_DEFAULTS.weekdaysOnly,
    digestEnabled: existing?.digestEnabled ?? DIGEST_DEFAULTS.digestEnabled,
    watchEnabled: existing?.watchEnabled ?? LINK_DEFAULTS.watchEnabled,
    threadDiscoveries: existing?.threadDiscoveries ?? LINK_DEFAULTS.threadDiscoveries,
    // Offered on for a new link; a link made before keeps it off until someone ticks it.
    canvas: existing ? Boolean(canvas?.enabled) : CANVAS_DEFAULT_FOR_NEW_LINK,
  });
}

/** A new link is offered the canvas of its plan. */
const CANVAS_DEFAULT_FOR_NEW_LINK = true;

/** The digest's time and zone, read as the link form and the admin modal's digest form read them. */
export const DIGEST_TIME_INPUTS = {
  digestTime: read.value(
    LINK_FIELD.digestTime,
    z.string({ error: 'Choose a time.' }).regex(DIGEST_TIME_PATTERN, 'Choose a time.'),
  ),
  timeZone: read.value(
    LINK_FIELD.timeZone,
    z.string({ error: 'Choose a time zone.' }).refine(isValidTimeZone, 'Choose a time zone from the list.'),
  ),
};

const ticked = read.values(LINK_FIELD.linkOptions, z.array(z.string()));

/**
 * The link's own settings ticked; undefined for a form drawn before it had them (opened before a
 * deploy): the link's settings then stay as they are.
 */
const linkSettings: FormInput<string[] | undefined, z.ZodOptional<z.ZodArray<z.ZodString>>> = {
  on: LINK_FIELD.linkOptions,
  schema: z.array(z.string()).optional(),
  read: (source) =>
    Object.keys(source.values).includes(LINK_FIELD.linkOptions.block) ? ticked.read(source) : undefined,
};

/** The settings a submitted form gives: both, or none when the form did not have them. */
function settingsOf(settings: readonly string[] | undefined) {
  if (!settings) return {};
  return {
    watchEnabled: settings.includes(LINK_CHOICES.watch),
    threadDiscoveries: settings.includes(LINK_CHOICES.threadDiscoveries),
  };
}

/** Whether the form asks for the canvas; undefined for a form drawn before it had the choice. */
function canvasOf(settings: readonly string[] | undefined): boolean | undefined {
  return settings ? settings.includes(LINK_CHOICES.canvas) : undefined;
}

const LinkForm = form({
  slackChannelId: read.metadata(
    FIELD.team,
    z.string().min(1),
    (text) => parseCarried(LinkMeta, text)?.slackChannelId,
  ),
  teamId: read.value(
    FIELD.team,
    z
      .string({ error: 'Choose a planning team.' })
      .min(1)
      .refine((v) => v !== 'none', 'Choose a planning team.'),
  ),
  channelId: read.value(
    FIELD.channel,
    z
      .string({ error: 'Choose a planning channel.' })
      .min(1)
      .refine((v) => v !== 'none', 'Choose a planning channel.'),
  ),
  teamName: read.label(FIELD.team, z.string().optional()),
  channelName: read.label(FIELD.channel, z.string().optional()),
  ...DIGEST_TIME_INPUTS,
  weekdaysOnly: read.checked(LINK_FIELD.digestOptions, DIGEST_CHOICES.weekdaysOnly),
  digestEnabled: read.checked(LINK_FIELD.digestOptions, DIGEST_CHOICES.enabled),
  settings: linkSettings,
});

type LinkForm = FormOutput<typeof LinkForm>;

/** The form again with the options it had. */
function linkRetry(data: LinkForm, problem: Mrkdwn, view: ViewOutput) {
  return linkModal({
    slackChannelId: data.slackChannelId,
    teams: teamChoices(view.blocks),
    teamId: data.teamId,
    channels: channelChoices(view.blocks),
    channelId: data.channelId,
    digestTime: data.digestTime,
    timeZone: data.timeZone,
    weekdaysOnly: data.weekdaysOnly,
    digestEnabled: data.digestEnabled,
    ...LINK_DEFAULTS,
    ...settingsOf(data.settings),
    canvas: canvasOf(data.settings) ?? CANVAS_DEFAULT_FOR_NEW_LINK,
    problem,
  });
}

export const linkSubmission = submission<LinkForm>({
  action: 'link',
  title: LINK_TITLE,
  working: 'Saving the link…',
  idempotent: false,
  parse: LinkForm.parse,
  retry: linkRetry,
  run: async (svc, data, args) => {
    const planning = planningOf(args.context);
    // The team and channel picked must be the admin's organization's: a link to another's is
    // refused here, said as it is, rather than failing later as "not found" in every command.
    const { planning: service } = await planning.acting();
    const team = await service.teams.read(data.teamId).catch((error: unknown) => {
      if (error instanceof NotFoundError) {
        throw new FormProblem(md`That planning team is not in your organization: choose one from the list.`);
      }
      throw error;
    });
    const channel = team.channels.find((c) => c.id === data.channelId);
    if (!channel) {
      throw new FormProblem(
        md`That planning channel is not a channel of *${team.teamName ?? team.id}*: choose one from the list.`,
      );
    }
    await svc.deps.store.links.upsert({
      workspaceId: planning.workspaceId,
      slackChannelId: data.slackChannelId,
      teamId: data.teamId,
      channelId: data.channelId,
      digestTime: data.digestTime,
      timeZone: data.timeZone,
      weekdaysOnly: data.weekdaysOnly,
      digestEnabled: data.digestEnabled,
      ...settingsOf(data.settings),
      createdBy: planning.slackUserId,
    });
    const canvas = await applyCanvasChoice(svc, args.client, planning, data);
    const digest = data.digestEnabled
      ? md`The digest is posted at ${data.digestTime} (${data.timeZone})${data.weekdaysOnly ? ' on weekdays' : ' every day'}.`
      : md`No daily digest.`;
    return {
      text: md`:white_check_mark: ${channelMention(data.slackChannelId)} is linked to *${team.teamName ?? data.teamName ?? data.teamId} › ${channel.channelName ?? data.channelName ?? data.channelId}*. ${digest}${canvas ? md` ${canvas}` : md``}`,
    };
  },
});

/**
 * The canvas as ticked: turned on (and made) or off (left with its last line); a form without the
 * choice changes nothing. What happened, in one sentence, or nothing when nothing changed.
 */
async function applyCanvasChoice(
  svc: Services,
  client: WebClient,
  planning: { workspaceId: string; slackUserId: string },
  data: LinkForm,
): Promise<string | undefined> {
  const wanted = canvasOf(data.settings);
  if (wanted === undefined || !svc.canvas) return undefined;
  return wanted
    ? svc.canvas.turnOn(planning.workspaceId, data.slackChannelId, planning.slackUserId, client)
    : svc.canvas.turnOff(planning.workspaceId, data.slackChannelId, client, 'leave');
}

/** `/plan link` (admins): the link modal, opened loading then filled with the organization's teams. */
export const linkSubcommand: Subcommand<Services> = {
  name: 'link',
  usage: 'link',
  summary: 'link this channel to a planning team and channel, with its daily digest',
  async run(svc, args) {
    const { command, client } = args;
    await loadModal(
      { ...modalRequest(svc, args, command.trigger_id, 'link open'), title: LINK_TITLE },
      (acting) => linkModalFor(svc, client, acting, command.channel_id),
    );
  },
};

/** Picking a team in the link form: its channels, the digest settings as typed. */
export function linkTeamPicked(svc: Services, args: ActionArgs) {
  return redrawForTeam(svc, args, (picked, view, values) => {
    const typed = LinkForm.input(values, view.private_metadata);
    return linkModal({
      ...picked,
      slackChannelId: typed.slackChannelId ?? '',
      digestTime: typed.digestTime ?? DIGEST_DEFAULTS.digestTime,
      timeZone: typed.timeZone ?? DIGEST_DEFAULTS.timeZone,
      weekdaysOnly: typed.weekdaysOnly,
      digestEnabled: typed.digestEnabled,
      ...LINK_DEFAULTS,
      ...settingsOf(typed.settings),
      canvas: canvasOf(typed.settings) ?? CANVAS_DEFAULT_FOR_NEW_LINK,
    });
  });
}
