/**
 * Connecting with a pasted service-account token (a member's own, or the organization admin's):
 * the token's shape is checked without I/O, then the account behind it is read. A token is never
 * echoed, not even back into the form after a refusal.
 */
import { z } from 'zod';
import { md } from '../../blockkit/index.js';
import { type Account, orgIdFromToken, UnauthorizedError } from '../../planning/index.js';
import type { Services } from '../context/services.js';
import { FormProblem } from '../context/submission.js';
import { fieldValue, type StateValues, validateForm } from '../forms.js';
import { FIELD } from '../ids.js';

const TokenForm = z.object({
  token: z
    .string({ error: 'Paste a token.' })
    .trim()
    .regex(/^[\w-]+\.[\w-]+\.[\w-]*$/, 'That is not a service-account token (three parts separated by dots).')
    .refine((t) => orgIdFromToken(t) !== undefined, 'This token names no organization.'),
});
export type TokenForm = z.infer<typeof TokenForm>;

export const parseToken = (values: StateValues) =>
  validateForm(TokenForm, { token: fieldValue(values, FIELD.token) }, values, { token: FIELD.token });

/** The account behind a token; a refused token is a problem of the form, not of the user's identity. */
export async function readAccount(svc: Services, token: string): Promise<Account> {
  try {
    return await svc.deps.clients.planning(token).account.read();
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      throw new FormProblem(
        md`The planning service refused this token (revoked, expired or mistyped). Paste it again.`,
      );
    }
    throw error;
  }
}
