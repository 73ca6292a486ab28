/**
 * HTTP beneath the process's clients — the planning service's and Slack's: keep-alive pools shared
 * per origin, one bounded attempt, and the backoff between attempts. It knows neither of them.
 */
export { type Attempt, HttpAttemptError, type RawResponse, sendOnce } from './attempt.js';
export { type Backoff, type BackoffOptions, DEFAULT_BACKOFF, jitteredDelay } from './backoff.js';
export { closeHttpPools, DEFAULT_MAX_CONNECTIONS, poolFor } from './pools.js';
