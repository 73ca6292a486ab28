/**
 * The one place that decides whether a failed call is tried again, and after how long.
 *
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff and Jitter"):
 * wait a random time in [0, min(cap, base·2^attempt)). `Retry-After` wins when the service sends it;
 * a wait longer than the cap is not worth holding a Slack interaction for, so the error surfaces.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { AbortedError, NetworkError, type PlanningError, RateLimitedError } from './errors.js';

/** Tuning of retries; every field has a default, tests inject `sleep` and `random`. */
export interface BackoffOptions {
  /** First backoff ceiling in ms (default 200). */
  baseMs?: number;
  /** Largest wait in ms, also the largest `Retry-After` honoured (default 5 000). */
  capMs?: number;
  /** Sleeps `ms`, rejecting when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1). */
  random?: () => number;
}

export type Backoff = Required<BackoffOptions>;

export const DEFAULT_BACKOFF: Backoff = {
  baseMs: 200,
  capMs: 5_000,
  sleep: async (ms, signal) => {
    await sleepFor(ms, undefined, { signal });
  },
  random: Math.random,
};

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
  return backoff.random() * Math.min(backoff.capMs, backoff.baseMs * 2 ** attempt);
}
