/**
 * How the digest judges a failure: how to describe it for its log lines and the store (what failed,
 * never a token), whether it is passing (overload: it does not use up the day's attempts), and
 * whether a failed post may still have posted (its retry must wait for it to land, then look).
 */
import { webApi } from '@slack/bolt';
import { HttpAttemptError } from '../http/index.js';
import { PostDeadlineError } from '../limits.js';
import {
  AbortedError,
  isPlanningError,
  NetworkError,
  RateLimitedError,
  ServiceError,
} from '../planning/index.js';
import { unconfirmedCall } from '../slack-api/index.js';
import { StoreUnavailableError } from '../store/index.js';

/** The posting limiter's refusal to wait past the lease (it reaches us wrapped by the WebClient). */
function postDeadline(error: unknown): PostDeadlineError | undefined {
  if (error instanceof PostDeadlineError) return error;
  if (error instanceof webApi.WebAPIRequestError && error.original instanceof PostDeadlineError)
    return error.original;
  return undefined;
}

/** The lease was nearly over before the post could start: nothing was sent, the claim is given back. */
export class LeaseNearlyOverError extends Error {
  override name = 'LeaseNearlyOverError';
  constructor() {
    super('lease nearly expired before posting');
  }
}

/**
 * A chat.postMessage that failed on our side after it may have reached Slack (timed out, connection
 * reset, a 5xx from a gateway): it may have posted, now or later. The retry waits until such a late
 * post would have landed and looks in the channel history before posting again.
 */
export class PostOutcomeUnknownError extends Error {
  override name = 'PostOutcomeUnknownError';
  constructor(cause: unknown) {
    super(`post outcome unknown: ${describeFailure(cause)}`, { cause });
  }
}

/** Slack error answers that say "not now" rather than "never" (Slack's documented server-side errors). */
const PASSING_SLACK_ERRORS = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/** A timeout or abort that reached us as the platform's own error (`AbortSignal.timeout`). */
function isAbortOrTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

/**
 * Whether a failed chat.postMessage may have posted: the Slack sender could not confirm it after it
 * may have reached Slack (src/slack-api/) — or, from a client without the sender, the request may
 * have left and no answer from Slack said it did not. A Slack error answer (channel_not_found, a
 * 429…), the limiter's refusal before sending, and a connection that was never made all mean "not
 * posted".
 */
export function postMayHaveLanded(error: unknown): boolean {
  if (unconfirmedCall(error)) return true;
  if (error instanceof webApi.WebAPIHTTPError) return error.statusCode >= 500;
  if (!(error instanceof webApi.WebAPIRequestError)) return false;
  const original = error.original;
  if (original instanceof PostDeadlineError) return false;
  if ((original instanceof NetworkError || original instanceof HttpAttemptError) && original.notSent)
    return false;
  return true;
}

/**
 * Whether a failure is passing — overload or an outage on either side, which another attempt later
 * may well get past — rather than one that will not change today (a channel not found or archived, a
 * refused token, a 4xx from the service, a missing setup). Passing failures do not use up the day's
 * attempts; anything not recognised as passing does.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof PostOutcomeUnknownError || error instanceof LeaseNearlyOverError) return true;
  if (error instanceof StoreUnavailableError) return true;
  if (isPlanningError(error))
    return (
      error instanceof RateLimitedError ||
      error instanceof ServiceError ||
      error instanceof NetworkError ||
      error instanceof AbortedError
    );
  if (error instanceof webApi.WebAPIRateLimitedError) return true;
  if (error instanceof webApi.WebAPIRequestError) return true;
  if (error instanceof webApi.WebAPIHTTPError) return error.statusCode >= 500;
  if (error instanceof webApi.WebAPIPlatformError) return PASSING_SLACK_ERRORS.has(error.data.error);
  return isAbortOrTimeout(error);
}

export function describeFailure(error: unknown): string {
  if (error instanceof PostOutcomeUnknownError) return error.message;
  if (isPlanningError(error)) {
    return `planning ${error.operation}: ${error.name} ${error.status ?? ''} ${error.errorId ?? ''}`.trim();
  }
  if (error instanceof webApi.WebAPIPlatformError) return `slack: ${error.data.error}`;
  if (error instanceof webApi.WebAPIRateLimitedError)
    return `slack: rate limited (retry after ${error.retryAfter}s)`;
  if (postDeadline(error))
    return "slack: the workspace's posting turn comes after the claim's lease; claim given back";
  if (error instanceof webApi.WebAPIHTTPError) return `slack: HTTP ${error.statusCode}`;
  if (error instanceof webApi.WebAPIRequestError) return `slack: request failed (${error.original.message})`;
  return error instanceof Error ? error.message : String(error);
}

/** When the failing side said to come back (Slack's or the service's Retry-After), in ms. */
export function retryAfterMs(error: unknown): number | undefined {
  if (error instanceof RateLimitedError) return error.retryAfterMs;
  if (error instanceof webApi.WebAPIRateLimitedError) return error.retryAfter * 1000;
  const late = postDeadline(error);
  if (late) return Math.max(0, late.turnAt - Date.now());
  return undefined;
}
