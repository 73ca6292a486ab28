/**
 * What each admin form does once submitted (through kit/submission.ts: checked without I/O,
 * acked with a working view, done once per view, given back with what was typed on failure). After
 * a change, the section view the form was pushed from is shown again with one line saying so.
 */
import { channelMention, md } from '../../blockkit/index.js';
import { changeDigest } from '../digest/index.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, read } from '../kit/form.js';
import { FormProblem, type SubmissionSpec } from '../kit/submission.js';
import { DIGEST_TIME_INPUTS } from '../link/index.js';
import { done, formMetaOf, metaField } from './form-common.js';
import { digestTimeForm } from './forms.js';

// ---------------------------------------------------------------------------------------------
// A linked channel's digest time and zone: changed as `/plan digest HH:MM Area/City` changes them
// ---------------------------------------------------------------------------------------------

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
