/** Invitations: the list with views and uses, finding one in it, and the message that shares one. */
import type { KnownBlock, ModalView } from '@slack/types';
import {
  actions,
  button,
  context,
  link,
  type MessageBody,
  md,
  message,
  modal,
  section,
  slackDate,
} from '../../blockkit/index.js';
import { type Invitation, NotFoundError, type PlanningClient } from '../../planning/index.js';
import {
  type AdminPlace,
  type Flash,
  flashBlocks,
  formButton,
  pager,
  placeTitle,
  placeValue,
  shortName,
  targetValue,
} from './common.js';
import { ADMIN_ACTION, ADMIN_VIEW } from './ids.js';

/** An instant in each reader's own time zone (Slack formats it), with an ISO fallback. */
export function readerTime(iso: string | undefined) {
  const at = iso ? new Date(iso) : undefined;
  if (!at || Number.isNaN(at.getTime())) return md`(no date)`;
  return slackDate(at, '{date_short_pretty} at {time}', at.toISOString().replace('.000Z', 'Z'));
}

export function usesText(invitation: Pick<Invitation, 'inviteUses' | 'inviteUsesMax'>): string {
  const used = invitation.inviteUses ?? 0;
  return invitation.inviteUsesMax ? `${used} of ${invitation.inviteUsesMax} uses` : `${used} uses (no limit)`;
}

export function invitationLine(invitation: Invitation, teamName: string | undefined) {
  return md`*${invitation.inviteName ?? invitation.id}* · team ${teamName ?? invitation.teamId ?? '?'} · ${invitation.inviteOrgRole ?? 'member'}\n${usesText(invitation)} · ${invitation.inviteViews ?? 0} views · expires ${readerTime(invitation.expiresAt)}`;
}

export function invitationsView(
  place: AdminPlace,
  invitations: Invitation[],
  teamNames: ReadonlyMap<string, string>,
  total: number | undefined,
  flash?: Flash,
): ModalView {
  const blocks: KnownBlock[] = [
    ...flashBlocks(flash),
    section(md`Invitation links let people join the organization in a team.`, {
      accessory: formButton('New invitation', { form: 'invite' }, 'primary'),
    }),
  ];
  for (const invitation of invitations) {
    const name = shortName(invitation.inviteName);
    blocks.push(
      section(invitationLine(invitation, invitation.teamId ? teamNames.get(invitation.teamId) : undefined)),
      actions(
        undefined,
        formButton('Share', { form: 'share', id: invitation.id, name }, 'primary'),
        formButton('Edit', { form: 'editInvite', id: invitation.id, name }),
        button('Revoke', ADMIN_ACTION.revokeInvitation, {
          value: targetValue({ id: invitation.id, name }),
          style: 'danger',
          confirm: {
            title: 'Revoke the invitation?',
            text: md`The link of *${name || invitation.id}* stops working for everyone it was shared with.`,
            confirm: 'Revoke',
            style: 'danger',
          },
        }),
      ),
    );
  }
  if (invitations.length === 0) blocks.push(section(md`No invitation on this page.`));
  blocks.push(...pager(place, invitations.length, total, 'invitation'));
  return modal({
    callbackId: ADMIN_VIEW.section,
    title: placeTitle(place),
    privateMetadata: placeValue(place),
    blocks,
  });
}

/** An invitation of the organization, found through the list: reading one would count a view. */
export async function findInvitation(planning: PlanningClient, inviteId: string): Promise<Invitation> {
  for await (const invitation of planning.invitations.list({ pageSize: 100 })) {
    if (invitation.id === inviteId) return invitation;
  }
  // Said as the service says a missing invitation: "that no longer exists".
  throw new NotFoundError('the invitation is not in the list', {
    status: 404,
    errorId: 'not-found',
    operation: 'invitations.list',
    method: 'GET',
    path: '/invitations',
  });
}

export interface SharedInvitation {
  invitation: Invitation;
  teamName?: string;
  /** Where the link leads: the service's own page for the invitation. */
  url: string;
}

/** The message that shares an invitation: who invites to what, the link, and its expiry for each reader. */
export function invitationMessage({ invitation, teamName, url }: SharedInvitation): MessageBody {
  const org = invitation.inviteOrgName ?? 'our organization';
  const text = md`You are invited to join *${org}* in the team *${teamName ?? 'of the invitation'}* as ${invitation.inviteOrgRole ?? 'member'}.`;
  return message(text, [
    section(md`:envelope_with_arrow: ${text}`),
    section(md`${link(url, 'Open the invitation')} — it expires ${readerTime(invitation.expiresAt)}.`),
    context(md`Accepting happens on the Team Planning Service's own page the link opens.`),
  ]);
}
