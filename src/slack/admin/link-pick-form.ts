/**
 * Linking a Slack channel from the admin modal (the Teams and the Links sections' button): a form
 * picks the channel, then the existing link modal (link/) follows for the channel picked here.
 */
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { channelMention, context, input, type Mrkdwn, md, modal } from '../../blockkit/index.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, read } from '../kit/form.js';
import type { SubmissionSpec } from '../kit/submission.js';
import { linkModalFor } from '../link/index.js';
import { type FormMeta, formMetaOf, meta, metaField, problemBlocks } from './form-common.js';
import { ADMIN_FIELD, ADMIN_VIEW } from './ids.js';

export function linkPickForm(m: FormMeta, problem?: Mrkdwn): ModalView {
  return modal({
    callbackId: ADMIN_VIEW.linkPick,
    title: 'Link a Slack channel',
    submit: 'Next',
    close: 'Back',
    privateMetadata: meta(m),
    blocks: [
      input('Slack channel', ADMIN_FIELD.slackChannel.block, {
        type: 'conversations_select',
        action_id: ADMIN_FIELD.slackChannel.action,
        filter: { include: ['public', 'private'], exclude_bot_users: true },
      }),
      context(md`Next you choose its planning team and channel and its daily digest.`),
      ...problemBlocks(problem),
    ],
  });
}

const LinkPickInput = form({
  meta: read.metadata(ADMIN_FIELD.slackChannel, metaField, formMetaOf),
  channel: read.value(
    ADMIN_FIELD.slackChannel,
    z
      .string({ error: 'Choose a Slack channel.' })
      .regex(/^[CG][A-Z0-9]+$/, 'Choose a channel from the list.'),
  ),
});
type LinkPickInput = FormOutput<typeof LinkPickInput>;

export const linkPickSubmission: SubmissionSpec<LinkPickInput> = {
  action: 'admin link pick',
  title: 'Link a Slack channel',
  working: 'Loading the teams…',
  // Choosing the channel changes nothing: the link is saved by the link form that follows.
  idempotent: false,
  parse: LinkPickInput.parse,
  retry: (data, problem) => linkPickForm(data.meta, problem),
  run: async (svc, data, args) => {
    const acting = await planningOf(args.context).acting();
    const view = await linkModalFor(svc, args.client, acting, data.channel);
    return { text: md`Choose the planning team and channel for ${channelMention(data.channel)}.`, view };
  },
};
