/** How the digest describes a failure for its log lines and the store: what failed, never a token. */
import { webApi } from '@slack/bolt';
import { PostDeadlineError } from '../limits.js';
import { isPlanningError, RateLimitedError } from '../planning/index.js';

/** The posting limiter's refusal to wait past the lease (it reaches us wrapped by the WebClient). */
function postDeadline(error: unknown): PostDeadlineError | undefined {
  if (error instanceof PostDeadlineError) return error;
  if (error instanceof webApi.WebAPIRequestError && error.original instanceof PostDeadlineError)
    return error.original;
  return undefined;
}

export function describeFailure(error: unknown): string {
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
