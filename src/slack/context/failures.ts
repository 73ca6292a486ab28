/**
 * What went wrong, told to the user in one short private sentence — details go to the log, never
 * a token. A 401 on the user's own token marks it invalid so the next step is Reconnect.
 */
import {
  ForbiddenError,
  InvalidArgumentError,
  isPlanningError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitedError,
  TimeoutError,
  UnauthorizedError,
} from '../../planning/index.js';
import { COMMAND } from '../ids.js';
import { adminTokenFor, type SlackDeps } from './deps.js';
import { AdminTokenError, type ConnectReason, NotConnectedError, PeerNotConnectedError } from './identity.js';

export const UNAVAILABLE =
  'The planning service is not answering right now; nothing was saved — try again in a minute.';

/** Either lead the user to (re)connect, or tell them why in a sentence (trusted mrkdwn). */
export type Explanation = { connect: ConnectReason } | { text: string };

export interface FailureContext {
  workspaceId?: string;
  slackUserId?: string;
  /** What the user was doing, for the log. */
  action: string;
}

/** Classifies a failure, marks a refused token invalid, logs the details. */
export async function explainFailure(
  deps: SlackDeps,
  error: unknown,
  ctx: FailureContext,
): Promise<Explanation> {
  if (error instanceof NotConnectedError) return { connect: error.reason };
  if (error instanceof PeerNotConnectedError) {
    return {
      text: `<@${error.slackUserId}> is not connected to the planning service yet: they need to run \`${COMMAND} connect\` first.`,
    };
  }
  const log = { action: ctx.action, workspaceId: ctx.workspaceId, err: error };
  if (error instanceof AdminTokenError) {
    deps.logger.warn(log, 'organization admin token refused');
    return {
      text: `The organization connection used to set up accounts stopped working; a workspace admin must run \`${COMMAND} connect admin\` again.`,
    };
  }
  if (error instanceof UnauthorizedError) {
    if (!ctx.workspaceId || !ctx.slackUserId) return { connect: 'invalid' };
    await deps.store.identities.markInvalid(
      ctx.workspaceId,
      ctx.slackUserId,
      error.errorId ?? 'unauthorized',
    );
    deps.logger.info(log, 'token refused by the planning service; marked invalid');
    const identity = await deps.store.identities.get(ctx.workspaceId, ctx.slackUserId);
    // A provisioned account is renewed on its next use (see identity.ts): nothing for the user to paste.
    if (identity?.origin === 'provisioned' && (await adminTokenFor(deps, ctx.workspaceId))) {
      return {
        text: 'Your planning connection had expired; it is renewed on your next try. Nothing was saved — please try again.',
      };
    }
    return { connect: 'invalid' };
  }
  if (!isPlanningError(error)) {
    deps.logger.error(log, 'unexpected failure');
    return { text: 'Something went wrong on our side; nothing was saved. Please try again.' };
  }
  deps.logger.warn(log, 'planning call failed');
  if (error instanceof ForbiddenError) {
    return {
      text: 'The planning service refused: your role does not allow it, or one of its rules forbids it now.',
    };
  }
  if (error instanceof NotFoundError) {
    return { text: 'That no longer exists in the planning service (it may have been deleted).' };
  }
  if (error instanceof InvalidArgumentError) {
    return {
      text: `The planning service refused ${error.field ? `the ${error.field}` : 'a value'}; nothing was saved.`,
    };
  }
  if (error instanceof PaymentRequiredError) {
    return { text: "Your organization's plan does not allow this; nothing was saved." };
  }
  if (error instanceof RateLimitedError) {
    return { text: "Your organization reached the planning service's daily usage limit; nothing was saved." };
  }
  if (error instanceof TimeoutError) {
    return {
      text: 'The planning service did not answer in time. If you were creating something, check whether it exists before trying again.',
    };
  }
  return { text: UNAVAILABLE };
}
