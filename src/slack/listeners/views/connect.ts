/**
 * Connect submission: a member's pasted token is checked with account.read and stored encrypted
 * as their identity. A token is never echoed, not even back into the form after a refusal.
 */
import { z } from 'zod';
import { type Account, orgIdFromToken, UnauthorizedError } from '../../../planning/index.js';
import { orgName } from '../../account.js';
import { connectModal } from '../../blocks/connect.js';
import { md } from '../../blocks/kit.js';
import { noticeView } from '../../blocks/views.js';
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
export type TokenForm = z.infer<typeof TokenForm>;

export const parseToken = (values: Parameters<typeof fieldValue>[0]) =>
  validateForm(TokenForm, { token: fieldValue(values, FIELD.token) }, values, { token: FIELD.token });

/** The account behind a token; a refused token is a problem of the form, not of the user's identity. */
export async function readAccount(svc: Services, token: string): Promise<Account> {
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
