/**
 * The admin modal's first view — who the admin acts as, one button per section — opened by
 * `/plan admin`: loading at once, filled after. (The Home tab's button opens the modal at its links
 * section: see navigate.ts.)
 */

import type { Context, RespondFn } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { button, context, md, modal, section } from '../../blockkit/index.js';
import type { Subcommand } from '../bolt/routes.js';
import { loadModal, modalRequest } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { ADMIN_TITLE, SECTIONS, type SectionName } from './common.js';
import { ADMIN_ACTION, ADMIN_VIEW } from './ids.js';

const WHAT: Record<SectionName, string> = {
  people: "The organization's service accounts and who uses them: rename, regenerate, close.",
  invitations: 'Invite people to a team: create, edit, share the link, revoke.',
  teams: 'Teams, their channels and members; link a Slack channel.',
  notions: 'The skills people are graded on: create, rename, delete, search.',
  billing: 'Subscription, price plans, upgrade and invoices.',
  links: "This workspace's linked channels and their daily digests: time, zone, weekends, on/off, unlink.",
};

export interface AdminWho {
  userName?: string;
  orgName?: string;
  role?: string;
}

export function adminRootView(who: AdminWho): ModalView {
  const role = who.role ? md` as *${who.role}*` : md``;
  return modal({
    callbackId: ADMIN_VIEW.root,
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

/** The admin modal: loading at once, then who the admin acts as and the sections. */
async function openAdminModal(
  svc: Services,
  args: { client: WebClient; context: Context; respond?: RespondFn },
  triggerId: string,
): Promise<void> {
  await loadModal(
    { ...modalRequest(svc, args, triggerId, 'admin open'), title: ADMIN_TITLE },
    async ({ planning: service, identity }) => {
      const account = await service.account.read();
      const org = account.orgs.find((o) => o.id === identity.orgId) ?? account.orgs[0];
      const role = account.roleOrg.find((r) => r.orgId === identity.orgId)?.role ?? account.roleOrg[0]?.role;
      return adminRootView({
        ...(account.userName ? { userName: account.userName } : {}),
        ...(org?.orgName ? { orgName: org.orgName } : {}),
        ...(role ? { role } : {}),
      });
    },
  );
}

/** `/plan admin`: the admin modal — people, invitations, teams and channels, notions, billing, links. */
export const adminSubcommand: Subcommand<Services> = {
  name: 'admin',
  usage: 'admin',
  summary:
    'administer the organization: people, invitations, teams and channels, notions, billing, links and digests',
  run: (svc, args) => openAdminModal(svc, args, args.command.trigger_id),
};
