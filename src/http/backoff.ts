/**
 * How long to wait before trying a failed request again: exponential backoff with full jitter (AWS
 * Architecture Blog, "Exponential Backoff and Jitter") — a random time in [0, min(cap, base·2^n)).
 * Shared by the planning client's retry rule and the Slack sender's.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

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

/** The wait before retry number `attempt + 1` (`attempt` counts the retries already made). */
export function jitteredDelay(attempt: number, backoff: Backoff): number {
  return backoff.random() * Math.min(backoff.capMs, backoff.baseMs * 2 ** attempt);
}
