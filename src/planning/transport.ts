/**
 * HTTP to the Team Planning Service: one attempt of a request (src/http/), its failure told as the
 * planning client's errors. Knows nothing of operations or retries.
 */
import { type Attempt, HttpAttemptError, type RawResponse, sendOnce as sendAttempt } from '../http/index.js';
import { AbortedError, type ErrorContext, NetworkError, TimeoutError } from './errors.js';

export { closeHttpPools as closePlanningPools, DEFAULT_MAX_CONNECTIONS, poolFor } from '../http/index.js';
export type { Attempt, RawResponse };

/**
 * Sends one request and reads its whole body. Rejects with {@link AbortedError},
 * {@link TimeoutError} or {@link NetworkError} (`notSent` when no connection was made); any HTTP
 * status resolves.
 */
export async function sendOnce(attempt: Attempt, context: ErrorContext): Promise<RawResponse> {
  try {
    return await sendAttempt(attempt, context.operation);
  } catch (failure) {
    if (!(failure instanceof HttpAttemptError)) throw failure;
    const init = { ...context, ...(failure.cause === undefined ? {} : { cause: failure.cause }) };
    if (failure.reason === 'aborted') throw new AbortedError(failure.message, init);
    const error =
      failure.reason === 'timeout'
        ? new TimeoutError(failure.message, init)
        : new NetworkError(failure.message, init);
    error.notSent = failure.notSent;
    throw error;
  }
}
