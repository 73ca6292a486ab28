/**
 * The feature form, new (`/plan feature new`, the New feature shortcut) or edited (the card's Edit):
 * team and channel defaulting to the Slack channel's link, heading, details, priority and focus; a
 * new feature's card is posted in the linked channel.
 */

import type { ViewOutput } from '@slack/bolt';
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  channelMention,
  context,
  input,
  joinMd,
  type Mrkdwn,
  md,
  modal,
  option,
} from '../../blockkit/index.js';
import { type Channel, FEATURE_FOCI, type FeatureFocus, LIMITS, type Team } from '../../planning/models.js';
import type { Subcommand } from '../bolt/routes.js';
import { type ActionArgs, actionValue, type GlobalShortcutArgs, type SubmitArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { detailsText, type FormOutput, form, headingText, read } from '../kit/form.js';
import { COMMAND, FIELD } from '../kit/ids.js';
import {
  channelChoices,
  detailsInput,
  headingInput,
  noTeamYet,
  redrawForTeam,
  teamChannelInputs,
  teamChoices,
} from '../kit/inputs.js';
import { postCard } from '../kit/live-cards.js';
import { notice } from '../kit/messages.js';
import { formProblem, loadModal, modalRequest } from '../kit/modal.js';
import { parseJson } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import { FeatureCoords, featureCard, focusOption, parseFeatureButton } from './card.js';
import { FEATURE_FIELD, FEATURE_VIEW } from './ids.js';
import { featureRef, type Req, readOnly, refusedOnForm, request, stale } from './live.js';

// ---------------------------------------------------------------------------------------------
// Feature: new or edit
// ---------------------------------------------------------------------------------------------

export const FEATURE_TITLE = 'New feature';

export const FEATURE_EDIT_TITLE = 'Edit feature';

/** New: where it was asked from (the card goes to a Slack channel linked to its planning channel). Edit: which feature. */
export const FeatureFormMeta = z.union([
  z.object({ mode: z.literal('new'), slackChannel: z.string().optional() }),
  z.object({ mode: z.literal('edit'), coords: FeatureCoords }),
]);

export type FeatureFormMeta = z.infer<typeof FeatureFormMeta>;

export interface FeatureForm {
  meta: FeatureFormMeta;
  /** New only: the teams to pick from, and the chosen team's channels (the link's, by default). */
  teams?: Team[];
  teamId?: string;
  channels?: Channel[];
  channelId?: string;
  heading?: string;
  details?: string;
  priority?: number;
  focus?: FeatureFocus;
  problem?: Mrkdwn;
}

const PRIORITY_OPTIONS: PlainTextOption[] = Array.from({ length: LIMITS.priority.max }, (_, i) => {
  const n = i + 1;
  const hint = n === 1 ? ' (lowest)' : n === LIMITS.priority.max ? ' (highest)' : '';
  return option(`${n}${hint}`, String(n));
});

export function featureModal(form: FeatureForm): ModalView {
  const isNew = form.meta.mode === 'new';
  const priority = PRIORITY_OPTIONS.find((o) => o.value === String(form.priority ?? 5));
  const where: KnownBlock[] = isNew ? [...noTeamYet(form), ...teamChannelInputs(form)] : [];
  return modal({
    callbackId: FEATURE_VIEW.feature,
    title: isNew ? FEATURE_TITLE : FEATURE_EDIT_TITLE,
    submit: isNew ? 'Create' : 'Save',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      ...where,
      headingInput(form.heading, { placeholder: 'What the feature is, in a line' }),
      detailsInput(form.details),
      input('Priority', FEATURE_FIELD.priority.block, {
        type: 'static_select',
        action_id: FEATURE_FIELD.priority.action,
        options: PRIORITY_OPTIONS,
        ...(priority ? { initial_option: priority } : {}),
      }),
      input(
        'Focus',
        FEATURE_FIELD.focus.block,
        {
          type: 'radio_buttons',
          action_id: FEATURE_FIELD.focus.action,
          options: FEATURE_FOCI.map(focusOption),
          ...(form.focus ? { initial_option: focusOption(form.focus) } : {}),
        },
        { optional: true },
      ),
      ...(isNew
        ? [
            context(
              md`The feature starts in *Planning*; its card is posted in the Slack channel linked to its planning channel.`,
            ),
          ]
        : []),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

export function openFeatureEdit(req: Req, coords: FeatureCoords) {
  const title = FEATURE_EDIT_TITLE;
  return loadModal({ ...req, title }, async ({ planning }) => {
    const f = await planning.features.read(coords.teamId, coords.channelId, coords.featureId);
    if (f.stage === 'deep context') return readOnly(title, f);
    return featureModal({
      meta: { mode: 'edit', coords },
      heading: f.heading,
      details: f.details,
      priority: f.priority,
      focus: f.focus,
    });
  });
}

/**
 * New feature (global shortcut, `/plan feature new`): the form with the teams to choose from, team
 * and channel defaulting to the link of the Slack channel it was opened in.
 */
export function openNewFeatureForm(svc: Services, req: Req, workspaceId: string, slackChannel?: string) {
  return loadModal({ ...req, title: FEATURE_TITLE }, async ({ planning }) => {
    const link = slackChannel ? await svc.deps.store.links.get(workspaceId, slackChannel) : undefined;
    const [{ teams }, team] = await Promise.all([
      planning.teams.listAll({ pageSize: 100 }),
      link ? planning.teams.read(link.teamId) : Promise.resolve(undefined),
    ]);
    return featureModal({
      meta: { mode: 'new', ...(slackChannel ? { slackChannel } : {}) },
      teams,
      ...(link && team ? { teamId: link.teamId, channels: team.channels, channelId: link.channelId } : {}),
    });
  });
}

export async function featureEditAction(svc: Services, args: ActionArgs) {
  const value = parseFeatureButton(actionValue(args.action));
  if (!value) return stale(args);
  await openFeatureEdit(request(svc, args, 'edit feature open'), value);
}

const FeatureSubmission = form(
  {
    meta: read.metadata(FIELD.heading, FeatureFormMeta),
    teamId: read.value(FIELD.team, z.string().optional()),
    channelId: read.value(FIELD.channel, z.string().optional()),
    heading: read.value(FIELD.heading, headingText('A feature needs a heading.')),
    details: read.value(FIELD.details, detailsText()),
    priority: read.value(
      FEATURE_FIELD.priority,
      z.coerce
        .number({ error: 'Choose a priority from 1 to 10.' })
        .int('Choose a priority from 1 to 10.')
        .min(LIMITS.priority.min, 'Choose a priority from 1 to 10.')
        .max(LIMITS.priority.max, 'Choose a priority from 1 to 10.'),
    ),
    focus: read.value(
      FEATURE_FIELD.focus,
      z.enum(FEATURE_FOCI, { error: 'Choose one of the three foci.' }).optional(),
    ),
  },
  {
    /** A new feature needs its planning team and channel (an edit keeps the feature's). */
    refine: (f) =>
      f.superRefine((d, ctx) => {
        if (d.meta.mode !== 'new') return;
        if (!d.teamId || d.teamId === 'none')
          ctx.addIssue({ code: 'custom', path: ['teamId'], message: 'Choose a planning team.' });
        else if (!d.channelId || d.channelId === 'none')
          ctx.addIssue({ code: 'custom', path: ['channelId'], message: 'Choose a planning channel.' });
      }),
  },
);

type FeatureSubmission = FormOutput<typeof FeatureSubmission>;

async function run(svc: Services, data: FeatureSubmission, args: SubmitArgs) {
  const planning = planningOf(args.context);
  const acting = await planning.acting();
  const fields = {
    heading: data.heading,
    ...(data.details ? { details: data.details } : {}),
    priority: data.priority,
    ...(data.focus ? { focus: data.focus } : {}),
  };
  if (data.meta.mode === 'edit') {
    const { coords } = data.meta;
    await refusedOnForm(
      acting.planning.features.update(coords.teamId, coords.channelId, coords.featureId, fields),
    );
    await svc.changes.changed({
      ...madeFromSlack(acting, args.client, coords),
      feature: true,
      changes: [{ kind: 'heading', to: data.heading }],
    });
    return { text: md`:white_check_mark: Feature *${data.heading}* saved.` };
  }

  const asked = data.meta.slackChannel;
  const teamId = data.teamId as string;
  const channelId = data.channelId as string;
  const feature = await refusedOnForm(acting.planning.features.create(teamId, channelId, fields));
  // From here the feature exists: a card that cannot be posted is reported, never "nothing saved".
  const coords = { teamId, channelId, featureId: feature.id };
  const notes: Mrkdwn[] = [];
  let postedIn: string | undefined;
  try {
    const links = await svc.deps.store.links.listByWorkspace(planning.workspaceId);
    const linked = links.filter((l) => l.teamId === teamId && l.channelId === channelId);
    const where = linked.find((l) => l.slackChannelId === asked) ?? linked[0];
    if (where) {
      await postCard(
        svc.deps,
        args.client,
        // Where the feature was just created: a press on the card is checked against it.
        {
          ...featureRef(planning.workspaceId, feature.id),
          place: { orgId: acting.identity.orgId, ...coords },
        },
        { channel: where.slackChannelId },
        featureCard({ coords, feature, people: {} }),
      );
      postedIn = where.slackChannelId;
      // A new feature changes the plan its channel shows (its canvas): told as a change, of nothing carded yet.
      await svc.changes.changed({ ...madeFromSlack(acting, args.client, coords), changes: [] });
    } else {
      notes.push(
        md`No Slack channel is linked to its planning channel, so its card was not posted: \`${COMMAND} link\` one, then \`${COMMAND} features\` there.`,
      );
    }
  } catch (error) {
    svc.deps.logger.warn({ action: 'new feature card', err: error }, 'could not post the feature card');
    notes.push(md`Its card could not be posted (is the app in the linked channel?).`);
  }
  return {
    text: joinMd([
      postedIn
        ? md`:white_check_mark: Feature *${data.heading}* created in *Planning*; its card is in ${channelMention(postedIn)}.`
        : md`:white_check_mark: Feature *${data.heading}* created in *Planning*.`,
      ...notes.map((n) => md`:warning: ${n}`),
    ]),
  };
}

function retry(data: FeatureSubmission, problem: Mrkdwn, view: ViewOutput) {
  return featureModal({
    meta: data.meta,
    ...(data.meta.mode === 'new'
      ? {
          teams: teamChoices(view.blocks),
          teamId: data.teamId,
          channels: channelChoices(view.blocks),
          channelId: data.channelId,
        }
      : {}),
    heading: data.heading,
    details: data.details,
    priority: data.priority,
    focus: data.focus,
    problem,
  });
}

export const featureSubmission = submission({
  action: 'feature',
  title: FEATURE_TITLE,
  working: 'Saving the feature…',
  parse: FeatureSubmission.parse,
  run,
  retry,
});

export async function newFeatureShortcut(svc: Services, args: GlobalShortcutArgs) {
  await openNewFeatureForm(
    svc,
    modalRequest(svc, args, args.shortcut.trigger_id, 'new feature open'),
    planningOf(args.context).workspaceId,
  );
}

export const featureSubcommand: Subcommand<Services> = {
  name: 'feature',
  usage: 'feature new',
  summary: 'create a feature (its card is posted in the linked channel)',
  async run(svc, args) {
    const { text, command, reply } = args;
    const planning = planningOf(args.context);
    if (text.toLowerCase() !== 'new') {
      await reply(notice(md`Did you mean \`/plan feature new\`? To see features, use \`/plan features\`.`));
      return;
    }
    await openNewFeatureForm(
      svc,
      modalRequest(svc, args, command.trigger_id, '/plan feature new'),
      planning.workspaceId,
      command.channel_id,
    );
  },
};

/** Picking a team in the feature form: its channels, the rest as typed. */
export function featureTeamPicked(svc: Services, args: ActionArgs) {
  return redrawForTeam(svc, args, (picked, view, values) => {
    const typed = FeatureSubmission.input(values, view.private_metadata);
    const priority = Number(typed.priority);
    const { focus } = typed;
    return featureModal({
      ...picked,
      meta: FeatureFormMeta.parse(parseJson(view.private_metadata)),
      heading: typed.heading,
      details: typed.details,
      ...(Number.isInteger(priority) ? { priority } : {}),
      ...(focus === 'firmitas' || focus === 'utilitas' || focus === 'venustas' ? { focus } : {}),
    });
  });
}
