/**
 * Connect-admin submission (workspace admins): an organization token whose account is an owner or
 * admin is saved for the workspace, so members get a service account provisioned on first use.
 */
import { md } from '../../../blockkit/index.js';
import { orgIdFromToken } from '../../../planning/index.js';
import { connectModal } from '../../blocks/connect.js';
import { slackUserFacts } from '../../context/admin.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { FormProblem, handleSubmission } from '../../context/submission.js';
import { parseToken, readAccount, type TokenForm } from '../../flows/connect.js';
import { orgName, roleIn } from '../../planning-account.js';
import type { SubmitArgs } from '../router.js';

export function connectAdminSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<TokenForm>(svc, args, {
      action: 'connect-admin',
      title: 'Connect organization',
      working: 'Checking the token…',
      idempotent: false,
      parse: parseToken,
      retry: (_data, problem) => connectModal({ admin: true, problem }),
      run: async ({ token }) => {
        const planning = planningOf(args.context);
        if (!(await slackUserFacts(args.client, planning.slackUserId)).isAdmin) {
          return { text: md`Only workspace admins can connect the organization.` };
        }
        const account = await readAccount(svc, token);
        const orgId = orgIdFromToken(token) as string;
        const role = roleIn(account, orgId);
        if (role !== 'owner' && role !== 'admin') {
          throw new FormProblem(
            md`This account is not an owner or admin of its organization, so it cannot create accounts.`,
          );
        }
        await svc.deps.store.workspaces.setAdminToken(planning.workspaceId, token, orgId);
        svc.deps.logger.info(
          { workspaceId: planning.workspaceId, orgId },
          'organization connected for provisioning',
        );
        return {
          title: 'Connected',
          text: md`:white_check_mark: Organization *${orgName(account, orgId)}* connected. Members get a service account on first use.`,
        };
      },
    });
}
