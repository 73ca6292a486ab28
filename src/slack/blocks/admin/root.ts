/** The admin modal's first view: who the admin acts as, and one button per section. */
import type { ModalView } from '@slack/types';
import { button, context, md, modal, section } from '../../../blockkit/index.js';
import { ADMIN_ACTION, VIEW } from '../../ids.js';
import { ADMIN_TITLE, SECTIONS, type SectionName } from './common.js';

const WHAT: Record<SectionName, string> = {
  people: "The organization's service accounts and who uses them: rename, regenerate, close.",
  invitations: 'Invite people to a team: create, edit, share the link, revoke.',
  teams: 'Teams, their channels and members; link a Slack channel.',
  notions: 'The skills people are graded on: create, rename, delete, search.',
  billing: 'Subscription, price plans, upgrade and invoices.',
};

export interface AdminWho {
  userName?: string;
  orgName?: string;
  role?: string;
}

export function adminRootView(who: AdminWho): ModalView {
  const role = who.role ? md` as *${who.role}*` : md``;
  return modal({
    callbackId: VIEW.admin,
    title: ADMIN_TITLE,
    blocks: [
      section(
        md`You act as *${who.userName ?? 'your service account'}*${role} in *${who.orgName ?? 'your organization'}*.`,
      ),
      context(md`Your role in the organization decides what the planning service lets you change here.`),
      ...(Object.keys(SECTIONS) as SectionName[]).map((name) =>
        section(md`*${SECTIONS[name]}*\n${WHAT[name]}`, {
          blockId: `section|${name}`,
          accessory: button('Open', ADMIN_ACTION.section, { value: name }),
        }),
      ),
    ],
  });
}
