/**
 * The one place that decides whether a failed call is tried again, and after how long.
 *
 * Exponential backoff with full jitter (src/http/backoff.ts). `Retry-After` wins when the service sends it;
 * a wait longer than the cap is not worth holding a Slack interaction for, so the error surfaces.
 */
import { type Backoff, jitteredDelay } from '../http/index.js';
import { AbortedError, NetworkError, type PlanningError, RateLimitedError } from './errors.js';

export { type Backoff, type BackoffOptions, DEFAULT_BACKOFF } from '../http/index.js';

/** Whether the failure is transient: connection trouble, timeouts, 429 and 5xx. */
function isTransient(error: PlanningError): boolean {
  if (error instanceof AbortedError) return false;
  if (error instanceof NetworkError || error instanceof RateLimitedError) return true;
  return error.status !== undefined && error.status >= 500;
}

/**
 * How long to wait before retry number `attempt + 1`, or `undefined` not to retry at all.
 * `attempt` counts the retries already made (0 after the first failure).
 *
 * @param idempotent the operation's flag in the endpoint table. An operation that is not (a create,
 * an advance) is resent only when no connection was made at all (`NetworkError.notSent`): once it
 * may have reached the service, sending it again could apply it twice.
 */
export function retryDelay(
  error: PlanningError,
  idempotent: boolean,
  attempt: number,
  retries: number,
  backoff: Backoff,
): number | undefined {
  if (attempt >= retries || !isTransient(error)) return undefined;
  if (!idempotent && !(error instanceof NetworkError && error.notSent)) return undefined;
  if (error instanceof RateLimitedError && error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= backoff.capMs ? error.retryAfterMs : undefined;
  }
  return jitteredDelay(attempt, backoff);
}
