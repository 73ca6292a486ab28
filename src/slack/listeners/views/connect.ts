/**
 * Connect submissions. A member's pasted token is checked with account.read and stored encrypted
 * as their identity; an admin's organization token (owner/admin role checked) is saved for the
 * workspace so members get a service account provisioned on first use. A token is never echoed.
 */
import { z } from 'zod';
import { type Account, orgIdFromToken, UnauthorizedError } from '../../../planning/index.js';
import { connectModal } from '../../blocks/connect.js';
import { md } from '../../blocks/kit.js';
import { noticeView } from '../../blocks/views.js';
import { slackUserFacts } from '../../context/admin.js';
import { planningClient } from '../../context/deps.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { fieldValue, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { FormProblem, handleSubmission, type SubmitArgs } from './submission.js';

const TokenForm = z.object({
  token: z
    .string({ error: 'Paste a token.' })
    .trim()
    .regex(/^[\w-]+\.[\w-]+\.[\w-]*$/, 'That is not a service-account token (three parts separated by dots).')
    .refine((t) => orgIdFromToken(t) !== undefined, 'This token names no organization.'),
});
type TokenForm = z.infer<typeof TokenForm>;

const parseToken = (values: Parameters<typeof fieldValue>[0]) =>
  validateForm(TokenForm, { token: fieldValue(values, FIELD.token) }, values, { token: FIELD.token });

/** The account behind a token; a refused token is a problem of the form, not of the user's identity. */
async function readAccount(svc: Services, token: string): Promise<Account> {
  try {
    return await planningClient(svc.deps, token).account.read();
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      throw new FormProblem(
        'The planning service refused this token (revoked, expired or mistyped). Paste it again.',
      );
    }
    throw error;
  }
}

const orgName = (account: Account, orgId: string) =>
  account.orgs.find((o) => o.id === orgId)?.orgName ?? orgId;
const roleIn = (account: Account, orgId: string) => account.roleOrg.find((r) => r.orgId === orgId)?.role;

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
        return noticeView(
          'Connected',
          md`:white_check_mark: You now act as *${account.userName ?? account.id}* in *${orgName(account, orgId)}*.`,
        );
      },
    });
}

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
          return noticeView('Connect organization', 'Only workspace admins can connect the organization.');
        }
        const account = await readAccount(svc, token);
        const orgId = orgIdFromToken(token) as string;
        const role = roleIn(account, orgId);
        if (role !== 'owner' && role !== 'admin') {
          throw new FormProblem(
            'This account is not an owner or admin of its organization, so it cannot create accounts.',
          );
        }
        await svc.deps.store.workspaces.setAdminToken(planning.workspaceId, token, orgId);
        svc.deps.logger.info(
          { workspaceId: planning.workspaceId, orgId },
          'organization connected for provisioning',
        );
        return noticeView(
          'Connected',
          md`:white_check_mark: Organization *${orgName(account, orgId)}* connected. Members get a service account on first use.`,
        );
      },
    });
}
