/**
 * The one place the process makes its API clients: planning clients (per service-account token) and
 * the Slack Web API clients used outside a request (the digest, notices by DM). Bolt makes the
 * clients its listeners receive. Every planning call made through here is logged — operation,
 * status and timing, never the filled path (a grade's path names the peer) nor a token — and the
 * last one is kept for /healthz.
 */
import http from 'node:http';
import https from 'node:https';
import { webApi } from '@slack/bolt';
import type { Logger } from './logger.js';
import { toSlackLogger } from './logger.js';
import {
  createPlanningClient,
  type PlanningClient,
  type PlanningClientOptions,
  type RequestEvent,
} from './planning/index.js';

export type WebClient = InstanceType<typeof webApi.WebClient>;

/** The last planning call, as /healthz reports it. */
export interface LastPlanningCall extends Pick<RequestEvent, 'outcome' | 'status' | 'operation'> {
  at: string;
}

export interface ClientsOptions {
  /** Base URL of the planning service (the built-in sandbox's in development). */
  planningUrl: string;
  /** Slack Web API base URL. */
  slackApiUrl?: string;
  logger: Logger;
  /** Extra planning client options (tests shorten timeouts and retries). */
  planningOptions?: Omit<PlanningClientOptions, 'baseUrl' | 'token' | 'onEvent'>;
  /** Bound of one Slack request outside a listener, ms. Default 15 000. */
  slackTimeoutMs?: number;
  /** Clients kept per kind, least recently used dropped first. Default 1 000. */
  cacheSize?: number;
}

export interface Clients {
  /** The service's base URL. */
  readonly planningUrl: string;
  /** A planning client acting with `token`; the same one for the same token while it is in use. */
  planning(token: string): PlanningClient;
  /**
   * A Slack client for a bot token, for posts outside a request. It never resends on its own: a
   * resent chat.postMessage after a network error may post twice. A 429 is surfaced
   * (`WebAPIRateLimitedError`) for the caller to wait out.
   */
  slack(token: string): WebClient;
  /** The last planning call made through these clients. */
  lastPlanningCall(): LastPlanningCall | undefined;
  /** The `fetch` Bolt is given (`clientOptions.fetch`) for its clients and respond(): see {@link slackFetch}. */
  readonly slackFetch: typeof fetch;
}

/**
 * A map that keeps the `size` most recently used entries: clients are costly to build per call
 * (each binds every API method) and cheap to keep, but one per token ever seen would grow without
 * bound in a long-lived process.
 */
export function lruCache<V>(size: number, make: (key: string) => V): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = make(key);
      if (kept.size >= size) kept.delete(kept.keys().next().value as string);
    } else {
      kept.delete(key);
    }
    kept.set(key, value);
    return value;
  };
}

/** Slack's error code of a Web API call Slack refused (`not_in_channel`, `expired_trigger_id`…). */
export function slackErrorCode(error: unknown): string | undefined {
  const failure = error as { code?: unknown; data?: { error?: unknown } } | undefined;
  if (failure?.code === webApi.ErrorCode.RateLimitedError) return 'ratelimited';
  if (failure?.code !== webApi.ErrorCode.PlatformError) return undefined;
  return typeof failure.data?.error === 'string' ? failure.data.error : undefined;
}

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` the Slack clients use (Bolt's `clientOptions.fetch`, the WebClients made here): a
 * POST with a string body — every Web API call but uploads, every response_url reply — goes out
 * with node:http on keep-alive agents. The global fetch (WHATWG streams, request cloning) cost
 * about as much CPU as the rest of a command, and was most of a digest's Slack post. Anything else
 * (multipart uploads, other methods) goes to the global fetch, looked up per call so test
 * interceptors that replace it still apply. `timeoutMs` bounds a socket's silence; a caller's
 * signal aborts the request.
 */
export function slackFetch(timeoutMs: number): typeof fetch {
  const agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  return (input, init) => {
    const plain =
      typeof input === 'string' &&
      init?.method === 'POST' &&
      typeof init.body === 'string' &&
      (input.startsWith('https:') || input.startsWith('http:'));
    if (!plain) return globalThis.fetch(input, init);
    const url = new URL(input);
    const protocol = url.protocol as keyof typeof agents;
    const body = init.body as string;
    const signal = init.signal ?? undefined;
    const headers: Record<string, string | number> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    headers['content-length'] = Buffer.byteLength(body);
    const send = (mayResend: boolean): Promise<Response> =>
      new Promise<Response>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason);
          return;
        }
        const request = (protocol === 'https:' ? https : http).request(
          url,
          { method: 'POST', headers, agent: agents[protocol], timeout: timeoutMs },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('error', reject);
            response.on('end', () => {
              signal?.removeEventListener('abort', onAbort);
              const status = response.statusCode ?? 0;
              const answer = new Headers();
              for (const [name, value] of Object.entries(response.headers)) {
                if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
              }
              resolve(
                new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), {
                  status,
                  statusText: response.statusMessage ?? '',
                  headers: answer,
                }),
              );
            });
          },
        );
        const onAbort = () => request.destroy(signal?.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
        request.on('timeout', () =>
          request.destroy(new Error(`no answer from ${url.host} within ${timeoutMs} ms`)),
        );
        request.on('error', (error) => {
          signal?.removeEventListener('abort', onAbort);
          // A kept-alive socket the server closed as we reused it: the request never reached it
          // (Node's documented keep-alive race). Sent once more on a fresh socket, never twice.
          const reset = (error as { code?: string }).code === 'ECONNRESET';
          if (mayResend && reset && request.reusedSocket && !signal?.aborted) resolve(send(false));
          else reject(error);
        });
        request.end(body);
      });
    return send(true);
  };
}

export function createClients(options: ClientsOptions): Clients {
  const { logger } = options;
  const size = options.cacheSize ?? 1_000;
  let last: LastPlanningCall | undefined;
  const onEvent = (event: RequestEvent) => {
    last = {
      outcome: event.outcome,
      status: event.status,
      operation: event.operation,
      at: new Date().toISOString(),
    };
    logger.debug(
      {
        operation: event.operation,
        status: event.status,
        ms: Math.round(event.durationMs),
        outcome: event.outcome,
      },
      'planning call',
    );
  };
  const slackLogger = toSlackLogger(logger);
  const fetcher = slackFetch(options.slackTimeoutMs ?? 15_000);
  return {
    planningUrl: options.planningUrl,
    planning: lruCache(size, (token) =>
      createPlanningClient({ ...options.planningOptions, baseUrl: options.planningUrl, token, onEvent }),
    ),
    slack: lruCache(
      size,
      (token) =>
        new webApi.WebClient(token, {
          ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
          logger: slackLogger,
          retryConfig: { retries: 0 },
          rejectRateLimitedCalls: true,
          timeout: options.slackTimeoutMs ?? 15_000,
          fetch: fetcher,
        }),
    ),
    lastPlanningCall: () => last,
    slackFetch: fetcher,
  };
}
