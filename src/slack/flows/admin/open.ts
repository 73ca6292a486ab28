/**
 * Opening the admin modal, from `/plan admin` or the Home tab's admin button: only Slack workspace
 * admins get it (Slack's own is_admin/is_owner); what they may change is then the organization's
 * roles' business, decided by the service on each call made with their own account.
 */
import type { Context, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { md } from '../../../blockkit/index.js';
import { ADMIN_TITLE } from '../../blocks/admin/common.js';
import { adminRootView } from '../../blocks/admin/root.js';
import { notice } from '../../blocks/messages.js';
import { slackUserFacts } from '../../context/admin.js';
import { planningOf } from '../../context/middleware.js';
import { loadModal, modalRequest } from '../../context/modal.js';
import { privateSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';

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
