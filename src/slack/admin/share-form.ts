/**
 * Sharing an invitation (its Share button): the form asks where — a channel or one person — and
 * the invitation's message (invitations.ts) is posted in that channel or sent to that person.
 */
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import {
  channelMention,
  context,
  input,
  type Mrkdwn,
  md,
  mention,
  modal,
  option,
  section,
} from '../../blockkit/index.js';
import { slackErrorCode } from '../../slack-api/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { toldText } from '../kit/dm-kinds.js';
import { type FormOutput, form, read, slackUserId } from '../kit/form.js';
import { notify } from '../kit/notify.js';
import type { Services } from '../kit/services.js';
import { FormProblem, type SubmissionSpec } from '../kit/submission.js';
import { type FormMeta, formMetaOf, meta, metaField, problemBlocks } from './form-common.js';
import { ADMIN_FIELD, ADMIN_VIEW } from './ids.js';
import { findInvitation, invitationMessage } from './invitations.js';

/** Where a share goes: a channel or one person. */
export const SHARE_TO = ['channel', 'person'] as const;
export type ShareTo = (typeof SHARE_TO)[number];

const shareToOption = (to: ShareTo) => option(to === 'channel' ? 'In a channel' : 'With one person', to);

/**
 * Sharing an invitation: first where — a channel or one person (a required choice, a channel until
 * told otherwise) — then that one, required: nothing the form needs is marked "(optional)".
 * Changing where redraws the form (see `shareToPicked`).
 */
export function shareForm(m: FormMeta, to: ShareTo = 'channel', problem?: Mrkdwn): ModalView {
  return modal({
    callbackId: ADMIN_VIEW.share,
    title: 'Share invitation',
    submit: 'Share',
    close: 'Back',
    privateMetadata: meta(m),
    blocks: [
      section(
        md`Share the link of *${m.name || 'this invitation'}* in a channel or with one person. Each reader sees its expiry in their own time zone.`,
      ),
      input(
        'Share it',
        ADMIN_FIELD.shareTo.block,
        {
          type: 'radio_buttons',
          action_id: ADMIN_FIELD.shareTo.action,
          options: SHARE_TO.map(shareToOption),
          initial_option: shareToOption(to),
        },
        { dispatchAction: true },
      ),
      to === 'channel'
        ? input('Channel', ADMIN_FIELD.shareChannel.block, {
            type: 'conversations_select',
            action_id: ADMIN_FIELD.shareChannel.action,
            filter: { include: ['public', 'private'], exclude_bot_users: true },
          })
        : input('Person', ADMIN_FIELD.sharePerson.block, {
            type: 'users_select',
            action_id: ADMIN_FIELD.sharePerson.action,
          }),
      ...(to === 'channel' ? [context(md`For a private channel, invite the app to it first.`)] : []),
      ...problemBlocks(problem),
    ],
  });
}

/** Where to share changed: the form asks for a channel or for a person (the view's hash keeps the latest). */
export async function shareToPicked(svc: Services, args: ActionArgs): Promise<void> {
  const view = args.body.view;
  const m = formMetaOf(view?.private_metadata);
  const to = SHARE_TO.find((t) => t === actionValue(args.action));
  if (!view || !m || !to) return;
  await args.client.views
    .update({ view_id: view.id, hash: view.hash, view: shareForm(m, to) })
    .catch((error: unknown) => {
      // A newer view is shown (another pick was quicker): it stays.
      if (slackErrorCode(error) !== 'hash_conflict')
        svc.deps.logger.warn({ err: error, action: 'admin share to' }, 'could not redraw the share form');
    });
}

const ShareInput = form(
  {
    meta: read.metadata(ADMIN_FIELD.shareChannel, metaField, formMetaOf),
    to: read.value(ADMIN_FIELD.shareTo, z.enum(SHARE_TO).optional()),
    channel: read.value(
      ADMIN_FIELD.shareChannel,
      z
        .string()
        .regex(/^[CGD][A-Z0-9]+$/, 'Choose a channel from the list.')
        .optional(),
    ),
    person: read.value(ADMIN_FIELD.sharePerson, slackUserId('Choose a person.').optional()),
  },
  {
    // The one asked for, on its field; a form from before the choice showed both, one to pick.
    refine: (f) =>
      f.superRefine((v, ctx) => {
        if (v.to === 'channel' && !v.channel)
          ctx.addIssue({ code: 'custom', path: ['channel'], message: 'Choose a channel.' });
        else if (v.to === 'person' && !v.person)
          ctx.addIssue({ code: 'custom', path: ['person'], message: 'Choose a person.' });
        else if (v.to === undefined && Boolean(v.channel) === Boolean(v.person))
          ctx.addIssue({
            code: 'custom',
            path: ['channel'],
            message: 'Choose a channel or a person (one of them).',
          });
      }),
  },
);
type ShareInput = FormOutput<typeof ShareInput>;

/** Where an invitation's link leads: the service's own page for it (see README, "Administering"). */
export function invitationUrl(planningUrl: string, inviteId: string): string {
  return `${planningUrl.replace(/\/+$/, '')}/invitations/${encodeURIComponent(inviteId)}`;
}

export const shareSubmission: SubmissionSpec<ShareInput> = {
  action: 'admin share invitation',
  title: 'Share invitation',
  working: 'Sharing the invitation…',
  parse: ShareInput.parse,
  retry: (data, problem) => shareForm(data.meta, data.to, problem),
  run: async (svc, data, args) => {
    const planning = planningOf(args.context);
    const acting = await planning.acting();
    if (!data.meta.id) throw new FormProblem(md`This form no longer says which invitation to share.`);
    const invitation = await findInvitation(acting.planning, data.meta.id);
    const teamName = invitation.teamId
      ? (await acting.planning.teams.read(invitation.teamId).catch(() => undefined))?.teamName
      : undefined;
    const body = invitationMessage({
      invitation,
      ...(teamName ? { teamName } : {}),
      url: invitationUrl(svc.deps.clients.planningUrl, invitation.id),
    });
    if (data.to !== 'channel' && data.person) {
      const outcome = await notify(
        svc.deps,
        args.client,
        { workspaceId: planning.workspaceId, slackUserId: data.person },
        'invitation',
        body,
      );
      const name = invitation.inviteName ?? invitation.id;
      return {
        text:
          outcome === 'sent'
            ? md`:white_check_mark: The invitation *${name}* was sent to ${mention(data.person)}.`
            : md`The invitation *${name}* is not delivered yet: ${toldText(data.person, outcome, md``)}`,
      };
    }
    const channel = data.channel as string;
    try {
      const posted = await args.client.chat.postMessage({ channel, ...body });
      // Remembered as the invitation's card: a revoke turns it into one line (kit/changes).
      if (posted.ts) {
        await svc.deps.store.cards
          .record({
            workspaceId: planning.workspaceId,
            kind: 'invitation',
            entityId: invitation.id,
            slackChannelId: posted.channel ?? channel,
            messageTs: posted.ts,
          })
          // It is shared: only a later revoke would not reach this message.
          .catch((error: unknown) =>
            svc.deps.logger.warn(
              { action: 'admin share invitation', workspaceId: planning.workspaceId, err: error },
              'could not remember a shared invitation',
            ),
          );
      }
    } catch (error) {
      const code = slackErrorCode(error);
      if (code === 'not_in_channel' || code === 'channel_not_found') {
        throw new FormProblem(
          md`I am not in ${channelMention(channel)}: invite the app to it first, or choose another channel.`,
        );
      }
      throw error;
    }
    return {
      text: md`:white_check_mark: The invitation *${invitation.inviteName ?? invitation.id}* was shared in ${channelMention(channel)}.`,
    };
  },
};
