/** Link submission (workspace admins): the Slack channel → planning team + channel + digest settings. */

import type { ViewOutput } from '@slack/bolt';
import { z } from 'zod';
import { channelMention, type Mrkdwn, md } from '../../../blockkit/index.js';
import { DIGEST_TIME_PATTERN, isValidTimeZone } from '../../../digest/time.js';
import { DIGEST_CHOICES, LINK_TITLE, LinkMeta, linkModal } from '../../blocks/link.js';
import { slackUserFacts } from '../../context/admin.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import {
  channelChoices,
  fieldLabel,
  fieldValue,
  fieldValues,
  type StateValues,
  teamChoices,
  validateForm,
} from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseCarried } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const LinkForm = z.object({
  slackChannelId: z.string().min(1),
  teamId: z
    .string({ error: 'Choose a planning team.' })
    .min(1)
    .refine((v) => v !== 'none', 'Choose a planning team.'),
  channelId: z
    .string({ error: 'Choose a planning channel.' })
    .min(1)
    .refine((v) => v !== 'none', 'Choose a planning channel.'),
  teamName: z.string().optional(),
  channelName: z.string().optional(),
  digestTime: z.string({ error: 'Choose a time.' }).regex(DIGEST_TIME_PATTERN, 'Choose a time.'),
  timeZone: z
    .string({ error: 'Choose a time zone.' })
    .refine(isValidTimeZone, 'Choose a time zone from the list.'),
  weekdaysOnly: z.boolean(),
  digestEnabled: z.boolean(),
});
type LinkForm = z.infer<typeof LinkForm>;

function parse(values: StateValues, privateMetadata: string) {
  const meta = parseCarried(LinkMeta, privateMetadata);
  const checks = fieldValues(values, FIELD.digestOptions);
  return validateForm(
    LinkForm,
    {
      slackChannelId: meta?.ch,
      teamId: fieldValue(values, FIELD.team),
      channelId: fieldValue(values, FIELD.channel),
      teamName: fieldLabel(values, FIELD.team),
      channelName: fieldLabel(values, FIELD.channel),
      digestTime: fieldValue(values, FIELD.digestTime),
      timeZone: fieldValue(values, FIELD.timeZone),
      weekdaysOnly: checks.includes(DIGEST_CHOICES.weekdaysOnly),
      digestEnabled: checks.includes(DIGEST_CHOICES.enabled),
    },
    values,
    {
      slackChannelId: FIELD.team,
      teamId: FIELD.team,
      channelId: FIELD.channel,
      digestTime: FIELD.digestTime,
      timeZone: FIELD.timeZone,
    },
  );
}

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
    problem,
  });
}

export function linkSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<LinkForm>(svc, args, {
      action: 'link',
      title: LINK_TITLE,
      working: 'Saving the link…',
      idempotent: false,
      parse,
      retry: linkRetry,
      run: async (data) => {
        const planning = planningOf(args.context);
        if (!(await slackUserFacts(args.client, planning.slackUserId)).isAdmin) {
          return { text: md`Only workspace admins can link channels.` };
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
          createdBy: planning.slackUserId,
        });
        const digest = data.digestEnabled
          ? md`The digest is posted at ${data.digestTime} (${data.timeZone})${data.weekdaysOnly ? ' on weekdays' : ' every day'}.`
          : md`No daily digest.`;
        return {
          text: md`:white_check_mark: ${channelMention(data.slackChannelId)} is linked to *${data.teamName ?? data.teamId} › ${data.channelName ?? data.channelId}*. ${digest}`,
        };
      },
    });
}
