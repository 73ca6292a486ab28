/**
 * One attempt of an HTTP request, bounded by its timeout and the caller's signal, its whole body
 * read. Whether and when to try again is the caller's (the planning client's retry rule, the Slack
 * sender's method table): this only says how the attempt ended, and whether the request can have
 * reached the server.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher, FormData } from 'undici';

export interface Attempt {
  dispatcher: Dispatcher;
  origin: string;
  /** Path and query string, e.g. `/v1/teams?pageSize=10`. */
  path: string;
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string | FormData;
  /** Bounds the whole attempt: connecting, headers and body. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * An attempt that got no complete answer: the caller aborted it, it timed out, or the connection
 * failed. `notSent` is true only when no connection was made at all, so the request cannot have
 * reached the server; otherwise it may have, and been applied.
 */
export class HttpAttemptError extends Error {
  override name = 'HttpAttemptError';
  constructor(
    readonly reason: 'aborted' | 'timeout' | 'network',
    message: string,
    readonly notSent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Marks an abort as ours (the timeout), not the caller's. */
class AttemptTimeout extends Error {}

const CONNECT_TIMEOUT = 'UND_ERR_CONNECT_TIMEOUT';
/** Failures to connect at all: the request was not written to any socket. */
const NOT_CONNECTED = new Set([
  CONNECT_TIMEOUT,
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * Sends one request and reads its whole body. Any HTTP status resolves; anything else rejects with
 * {@link HttpAttemptError}, whose message starts with `name` (what the caller calls the request,
 * never its query: it may carry ids).
 */
export async function sendOnce(attempt: Attempt, name: string): Promise<RawResponse> {
  const { signal: callerSignal, timeoutMs } = attempt;
  if (callerSignal?.aborted) throw new HttpAttemptError('aborted', `${name}: aborted by the caller`, true);

  // One controller for both reasons to stop, so undici sees a single signal and we know which fired.
  const controller = new AbortController();
  // Settles the race below when either reason to stop fires (no listener on our own signal needed).
  let stop!: (reason: unknown) => void;
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const abort = (reason: unknown) => {
    controller.abort(reason);
    stop(reason);
  };
  const timer = setTimeout(() => abort(new AttemptTimeout()), timeoutMs);
  const onCallerAbort = () => abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const pending = attempt.dispatcher.request({
      origin: attempt.origin,
      path: attempt.path,
      method: attempt.method,
      headers: attempt.headers,
      body: attempt.body,
      signal: controller.signal,
    });
    // undici defers an abort of a request still queued for a socket (all `connections` busy) until
    // one frees up: without this race, a call queued behind slow ones would outlive its timeout.
    // A request aborted while queued is dropped unsent when its turn comes.
    const response = await Promise.race([pending, stopped]);
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  } catch (cause) {
    if (callerSignal?.aborted) {
      throw new HttpAttemptError('aborted', `${name}: aborted by the caller`, false, { cause });
    }
    if (controller.signal.reason instanceof AttemptTimeout) {
      throw new HttpAttemptError('timeout', `${name}: no complete answer within ${timeoutMs} ms`, false);
    }
    const code = (cause as { code?: unknown })?.code;
    const notSent = typeof code === 'string' && NOT_CONNECTED.has(code);
    if (code === CONNECT_TIMEOUT) {
      throw new HttpAttemptError('timeout', `${name}: could not connect in time`, true, { cause });
    }
    const why = cause instanceof Error ? cause.message : String(cause);
    throw new HttpAttemptError('network', `${name}: request failed: ${why}`, notSent, { cause });
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}
