/**
 * New feature / Edit feature submission. A new feature's card is posted in a Slack channel linked to
 * its planning channel (the one the form was opened in, when it is); an edit refreshes every card.
 */
import type { ViewOutput } from '@slack/bolt';
import { z } from 'zod';
import { channelMention, joinMd, type Mrkdwn, md } from '../../../blockkit/index.js';
import { FEATURE_FOCI, LIMITS } from '../../../planning/index.js';
import { featureCard } from '../../blocks/feature.js';
import { FEATURE_TITLE, FeatureFormMeta, featureModal } from '../../blocks/feature-forms.js';
import { postCard } from '../../cards/index.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { featureRef, refreshFeatureCards, refusedOnForm } from '../../flows/feature.js';
import { channelChoices, fieldValue, type StateValues, teamChoices, validateForm } from '../../forms.js';
import { COMMAND, FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const FeatureSubmission = z.object({
  meta: FeatureFormMeta,
  teamId: z.string().optional(),
  channelId: z.string().optional(),
  heading: z
    .string({ error: 'A feature needs a heading.' })
    .trim()
    .min(1, 'A feature needs a heading.')
    .max(LIMITS.heading, `At most ${LIMITS.heading} characters.`),
  details: z.string().trim().max(LIMITS.details, `At most ${LIMITS.details} characters.`).optional(),
  priority: z.coerce
    .number({ error: 'Choose a priority from 1 to 10.' })
    .int('Choose a priority from 1 to 10.')
    .min(LIMITS.priority.min, 'Choose a priority from 1 to 10.')
    .max(LIMITS.priority.max, 'Choose a priority from 1 to 10.'),
  focus: z.enum(FEATURE_FOCI, { error: 'Choose one of the three foci.' }).optional(),
});
type FeatureSubmission = z.infer<typeof FeatureSubmission>;

/** A new feature needs its planning team and channel (an edit keeps the feature's). */
const checked = FeatureSubmission.superRefine((d, ctx) => {
  if (d.meta.mode !== 'new') return;
  if (!d.teamId || d.teamId === 'none')
    ctx.addIssue({ code: 'custom', path: ['teamId'], message: 'Choose a planning team.' });
  else if (!d.channelId || d.channelId === 'none')
    ctx.addIssue({ code: 'custom', path: ['channelId'], message: 'Choose a planning channel.' });
});

function parse(values: StateValues, privateMetadata: string) {
  return validateForm(
    checked,
    {
      meta: parseJson(privateMetadata),
      teamId: fieldValue(values, FIELD.team),
      channelId: fieldValue(values, FIELD.channel),
      heading: fieldValue(values, FIELD.heading),
      details: fieldValue(values, FIELD.details),
      priority: fieldValue(values, FIELD.priority),
      focus: fieldValue(values, FIELD.focus),
    },
    values,
    {
      meta: FIELD.heading,
      teamId: FIELD.team,
      channelId: FIELD.channel,
      heading: FIELD.heading,
      details: FIELD.details,
      priority: FIELD.priority,
      focus: FIELD.focus,
    },
  );
}

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
    await refreshFeatureCards(svc, args.client, acting, coords);
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
        featureRef(planning.workspaceId, feature.id),
        { channel: where.slackChannelId },
        featureCard({ coords, feature, people: {} }),
      );
      postedIn = where.slackChannelId;
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

export function featureSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission(svc, args, {
      action: 'feature',
      title: FEATURE_TITLE,
      working: 'Saving the feature…',
      parse,
      run: (data) => run(svc, data, args),
      retry,
    });
}
