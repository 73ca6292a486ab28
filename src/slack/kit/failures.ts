/**
 * What went wrong, told to the user in one short private sentence — details go to the log, never
 * a token. A 401 on the user's own token marks it invalid so the next step is Reconnect.
 */

import { type Mrkdwn, md, mention } from '../../blockkit/index.js';
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
import { unconfirmedCall } from '../../slack-api/index.js';
import { StoreUnavailableError } from '../../store/index.js';
import { adminTokenFor, type SlackDeps } from './deps.js';
import {
  AdminTokenError,
  type ConnectReason,
  NotAMemberError,
  NotConnectedError,
  PeerNotConnectedError,
} from './identity.js';
import { COMMAND } from './ids.js';
import { NOT_A_MEMBER_PHRASE, type NotAMember } from './membership.js';

export const UNAVAILABLE = md`The planning service is not answering right now; nothing was saved — try again in a minute.`;
/** The app's own database is unreachable or too slow (StoreUnavailableError). */
const UNAVAILABLE_READ = md`The planning service is not answering right now — try again in a minute.`;
export const STORE_UNAVAILABLE = md`Our database is not answering right now; nothing was saved — try again in a minute.`;

/** Either lead the user to (re)connect, or tell them why in a sentence (trusted mrkdwn). */
export type Explanation = { connect: ConnectReason } | { text: Mrkdwn };

export interface FailureContext {
  workspaceId?: string;
  slackUserId?: string;
  /** What the user was doing, for the log. */
  action: string;
}

/** Why the acting person gets no planning account from the app, and what they can do instead. */
export function notAMemberSentence(reason: NotAMember): Mrkdwn {
  return md`Only full members of this workspace get a planning account from the app or can use one here, and you are ${NOT_A_MEMBER_PHRASE[reason]}.`;
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
      text: md`${mention(error.slackUserId)} is not connected to the planning service yet: they need to run \`${COMMAND} connect\` first.`,
    };
  }
  if (error instanceof NotAMemberError) {
    return {
      text: error.acting
        ? notAMemberSentence(error.reason)
        : md`${mention(error.slackUserId)} cannot get a planning account from the app: they are ${NOT_A_MEMBER_PHRASE[error.reason]}.`,
    };
  }
  const log = { action: ctx.action, workspaceId: ctx.workspaceId, err: error };
  if (error instanceof StoreUnavailableError) {
    deps.logger.error(log, 'store unavailable');
    return { text: STORE_UNAVAILABLE };
  }
  if (error instanceof AdminTokenError) {
    deps.logger.warn(log, 'organization admin token refused');
    return {
      text: md`The organization connection used to set up accounts stopped working; a workspace admin must run \`${COMMAND} connect admin\` again.`,
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
        text: md`Your planning connection had expired; it is renewed on your next try. Nothing was saved — please try again.`,
      };
    }
    return { connect: 'invalid' };
  }
  if (unconfirmedCall(error)) {
    deps.logger.warn(log, 'Slack did not confirm a message');
    return {
      text: md`Slack did not confirm the message, so it may have been posted; it was not sent twice. Look before trying again.`,
    };
  }
  if (!isPlanningError(error)) {
    deps.logger.error(log, 'unexpected failure');
    return { text: md`Something went wrong on our side; nothing was saved. Please try again.` };
  }
  deps.logger.warn(log, 'planning call failed');
  // A read saves nothing whatever happens: "nothing was saved" is said only of a call that writes.
  const unsaved = error.method === 'GET' ? '' : '; nothing was saved';
  if (error instanceof ForbiddenError) return { text: refusal(error) };
  if (error instanceof NotFoundError) return { text: notFoundSentence(error) };
  if (error instanceof InvalidArgumentError) {
    return {
      text: md`The planning service refused ${error.field ? `the ${fieldInWords(error.field)}` : 'a value'}${unsaved}.`,
    };
  }
  if (error instanceof PaymentRequiredError) {
    return { text: md`Your organization's plan does not allow this${unsaved}.` };
  }
  if (error instanceof RateLimitedError) {
    return {
      text: md`Your organization reached the planning service's daily usage limit${unsaved}.`,
    };
  }
  if (error instanceof TimeoutError) {
    return {
      text: md`The planning service did not answer in time. If you were creating something, check whether it exists before trying again.`,
    };
  }
  return { text: error.method === 'GET' ? UNAVAILABLE_READ : UNAVAILABLE };
}

/** A service field name as words: `searchTerm` → "search term", `notionIds` → "notions". */
function fieldInWords(field: string): string {
  return field
    .replace(/Ids$/, 's')
    .replace(/Id$/, '')
    .replace(/[._]/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/**
 * A 404 in one sentence. The service answers 404 alike for an id of another organization and for
 * one deleted ("Team not found", "Task not found": the first part of the path it could not find in
 * the caller's organization), so a 404 alone says only that: not found in your organization. That
 * it was deleted is said only where the app knows it (kit/press.ts, a card it recorded).
 */
export function notFoundSentence(error: NotFoundError): Mrkdwn {
  const what = /^([a-z][a-z -]{0,40}) not found\.?$/i.exec(error.serviceMessage?.trim() ?? '')?.[1];
  return what
    ? md`The planning service found no such ${what.toLowerCase()} in your organization, so nothing was changed.`
    : md`The planning service did not find that in your organization, so nothing was changed.`;
}

/**
 * A 403 in one sentence: the rule in the service's own words ("Features in deep context are
 * read-only") when it names one; a bare "Not allowed" names none, and the generic sentence says more.
 */
export function refusal(error: ForbiddenError): Mrkdwn {
  const said = error.serviceMessage?.trim();
  if (!said || /^(no details given|not allowed|forbidden)\.?$/i.test(said) || said.length > 200) {
    return md`The planning service refused: your role does not allow it, or one of its rules forbids it now.`;
  }
  return md`The planning service refused: ${said.replace(/\.$/, '')}. Nothing was changed.`;
}
