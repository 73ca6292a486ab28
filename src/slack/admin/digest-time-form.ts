/**
 * A linked channel's digest time and zone (the Links section's Change time): changed as
 * `/plan digest HH:MM Area/City` changes them.
 */
import type { ModalView } from '@slack/types';
import { channelMention, type Mrkdwn, md, modal, section } from '../../blockkit/index.js';
import { changeDigest } from '../digest/index.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, read } from '../kit/form.js';
import { FormProblem, type SubmissionSpec } from '../kit/submission.js';
import { DIGEST_TIME_INPUTS, digestTimeInputs } from '../link/index.js';
import { done, type FormMeta, formMetaOf, meta, metaField, problemBlocks } from './form-common.js';
import { ADMIN_VIEW } from './ids.js';

/** A linked channel's digest time and zone (the form's id is the Slack channel). */
export function digestTimeForm(
  m: FormMeta,
  current: { digestTime: string; timeZone: string },
  problem?: Mrkdwn,
): ModalView {
  const channel = m.id ? channelMention(m.id) : md`the channel`;
  return modal({
    callbackId: ADMIN_VIEW.digestTime,
    title: 'Digest time',
    submit: 'Save',
    close: 'Back',
    privateMetadata: meta(m),
    blocks: [
      section(md`When the daily digest is posted in ${channel}. Saving a time also turns the digest on.`),
      ...digestTimeInputs(current.digestTime, current.timeZone),
      ...problemBlocks(problem),
    ],
  });
}

const DigestTimeInput = form({
  meta: read.metadata(DIGEST_TIME_INPUTS.digestTime.on, metaField, formMetaOf),
  ...DIGEST_TIME_INPUTS,
});
type DigestTimeInput = FormOutput<typeof DigestTimeInput>;

export const digestTimeSubmission: SubmissionSpec<DigestTimeInput> = {
  action: 'admin digest time',
  title: 'Digest time',
  working: 'Saving the digest time…',
  parse: DigestTimeInput.parse,
  retry: (data, problem) => digestTimeForm(data.meta, data, problem),
  run: async (svc, data, args) => {
    const acting = await planningOf(args.context).acting();
    const slackChannelId = data.meta.id;
    if (!slackChannelId) throw new FormProblem(md`This form no longer says which channel.`);
    const changed = await changeDigest(svc, acting.workspaceId, slackChannelId, {
      kind: 'time',
      time: data.digestTime,
      timeZone: data.timeZone,
    });
    if (!changed) throw new FormProblem(md`${channelMention(slackChannelId)} is not linked any more.`);
    return done(svc, args, data.meta, acting, md`${channelMention(slackChannelId)}: ${changed.changed}`);
  },
};
