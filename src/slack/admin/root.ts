/** The admin modal's first view: who the admin acts as, and one button per section. */

import type { Context, RespondFn } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { button, context, md, modal, section } from '../../blockkit/index.js';
import type { ActionArgs } from '../bolt/router.js';
import { planningOf } from '../kit/acting.js';
import { notice } from '../kit/messages.js';
import { loadModal, modalRequest } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { slackUserFacts } from '../kit/slack-user.js';
import { privateSurface } from '../kit/surfaces.js';
import type { Subcommand } from '../listeners/commands/plan/subcommand.js';
import { ADMIN_TITLE, SECTIONS, type SectionName } from './common.js';
import { ADMIN_ACTION, ADMIN_VIEW } from './ids.js';

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

export const ADMINS_ONLY = md`Only workspace admins can administer the organization from Slack.`;

/** Whether the Slack user is an admin or owner of the workspace. */
export async function isWorkspaceAdmin(client: WebClient, slackUserId: string): Promise<boolean> {
  return (await slackUserFacts(client, slackUserId)).isAdmin;
}

export interface AdminOpenArgs {
  client: WebClient;
  context: Context;
  respond?: RespondFn;
}

/** Opens the admin modal (loading at once, then who the admin acts as and the sections), or says why not. */
export async function openAdminModal(svc: Services, args: AdminOpenArgs, triggerId: string): Promise<void> {
  const planning = planningOf(args.context);
  if (!(await isWorkspaceAdmin(args.client, planning.slackUserId))) {
    await privateSurface(args, planning.slackUserId).show(notice(ADMINS_ONLY));
    return;
  }
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

/** `/plan admin` (admins): the admin modal — people, invitations, teams and channels, notions, billing. */
export const admin: Subcommand = {
  name: 'admin',
  usage: 'admin',
  summary: 'administer the organization: people, invitations, teams and channels, notions, billing',
  adminOnly: true,
  run: (ctx) => openAdminModal(ctx.svc, ctx, ctx.command.trigger_id),
};

export function adminOpenAction(svc: Services) {
  return (args: ActionArgs) => openAdminModal(svc, args, args.body.trigger_id);
}
