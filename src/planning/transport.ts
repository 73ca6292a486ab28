/**
 * HTTP to the Team Planning Service (and, through src/clients.ts, to Slack): keep-alive undici
 * pools shared per origin, and one attempt of a request bounded by its timeout and the caller's
 * signal. Knows nothing of operations or retries.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type Dispatcher, type FormData, Pool } from 'undici';
import { AbortedError, type ErrorContext, NetworkError, TimeoutError } from './errors.js';

const pools = new Map<string, Pool>();

/** Sockets open at once to one origin unless told otherwise (PLANNING_MAX_CONNECTIONS). */
export const DEFAULT_MAX_CONNECTIONS = 128;

/**
 * The shared keep-alive pool for `origin`: the Slack app creates one client per Slack user, and
 * they should all reuse the same sockets. At most `connections` sockets are open at once: a slow
 * service would otherwise get one new socket per call in flight (hundreds under load, each a file
 * descriptor here and a connection there). Calls beyond the cap wait in the pool's queue, in order;
 * that wait counts toward each attempt's timeout.
 */
export function poolFor(
  origin: string,
  connectTimeoutMs: number,
  connections = DEFAULT_MAX_CONNECTIONS,
): Pool {
  const key = `${origin} ${connectTimeoutMs} ${connections}`;
  let pool = pools.get(key);
  if (!pool) {
    pool = new Pool(origin, { connect: { timeout: connectTimeoutMs }, connections });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes every shared pool (clean shutdown, tests). Clients created before keep working: they reopen one. */
export async function closePlanningPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.close()));
}

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
 * Sends one request and reads its whole body. Rejects with {@link AbortedError},
 * {@link TimeoutError} or {@link NetworkError}; any HTTP status resolves.
 */
export async function sendOnce(attempt: Attempt, context: ErrorContext): Promise<RawResponse> {
  const { signal: callerSignal, timeoutMs } = attempt;
  if (callerSignal?.aborted) throw new AbortedError(`${context.operation}: aborted by the caller`, context);

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
      throw new AbortedError(`${context.operation}: aborted by the caller`, { ...context, cause });
    }
    if (controller.signal.reason instanceof AttemptTimeout) {
      throw new TimeoutError(`${context.operation}: no complete answer within ${timeoutMs} ms`, context);
    }
    const code = (cause as { code?: unknown })?.code;
    const why = cause instanceof Error ? cause.message : String(cause);
    const error =
      code === CONNECT_TIMEOUT
        ? new TimeoutError(`${context.operation}: could not connect in time`, { ...context, cause })
        : new NetworkError(`${context.operation}: request failed: ${why}`, { ...context, cause });
    error.notSent = typeof code === 'string' && NOT_CONNECTED.has(code);
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}
