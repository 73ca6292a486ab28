/**
 * Connect submission: a member's pasted token is checked with account.read and stored encrypted
 * as their identity.
 */
import { md } from '../../../blockkit/index.js';
import { orgIdFromToken } from '../../../planning/index.js';
import { connectModal } from '../../blocks/connect.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { parseToken, readAccount, type TokenForm } from '../../flows/connect.js';
import { followSlackProfile } from '../../flows/profile.js';
import { orgName } from '../../planning-account.js';
import type { SubmitArgs } from '../router.js';

export function connectSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<TokenForm>(svc, args, {
      action: 'connect',
      title: 'Connect your account',
      working: 'Checking the token…',
      idempotent: false,
      parse: parseToken,
      retry: (_data, problem) => connectModal({ problem }),
      run: async ({ token }) => {
        const planning = planningOf(args.context);
        const account = await readAccount(svc, token);
        const orgId = orgIdFromToken(token) as string;
        await svc.deps.store.identities.save({
          workspaceId: planning.workspaceId,
          slackUserId: planning.slackUserId,
          serviceAccountId: account.id,
          planningUserId: account.id,
          orgId,
          token,
          origin: 'brought',
        });
        svc.deps.logger.info(
          { workspaceId: planning.workspaceId, serviceAccountId: account.id },
          'user connected',
        );
        // Best effort, after the answer: the account takes the Slack name and photo.
        void args.client.users
          .info({ user: planning.slackUserId })
          .then((info) =>
            followSlackProfile(svc.deps, planning.workspaceId, planning.slackUserId, {
              ...info.user?.profile,
              name: info.user?.name,
            }),
          )
          .catch((error: unknown) =>
            svc.deps.logger.warn({ err: error }, 'profile: could not read the Slack profile'),
          );
        return {
          title: 'Connected',
          text: md`:white_check_mark: You now act as *${account.userName ?? account.id}* in *${orgName(account, orgId)}*.`,
        };
      },
    });
}
