/**
 * The one place the process makes its API clients: planning clients (per service-account token) and
 * the Slack Web API clients used outside a request (the digest, notices by DM). Bolt makes the
 * clients its listeners receive. Every planning call made through here is logged — operation,
 * status and timing, never the filled path (a grade's path names the peer) nor a token — and the
 * last one is kept for /healthz.
 */
import { webApi } from '@slack/bolt';
import { createPostLimiter, type PostLimiter, type PostLimits } from './limits.js';
import type { Logger } from './logger.js';
import { toSlackLogger } from './logger.js';
import { type Metrics, observedSlackFetch } from './metrics.js';
import {
  createPlanningClient,
  DEFAULT_MAX_CONNECTIONS,
  type PlanningClient,
  type PlanningClientOptions,
  poolFor,
  type RawResponse,
  type RequestEvent,
  sendOnce,
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
  /** Counts planning and Slack calls (by operation or method and status: never a path or id). */
  metrics?: Metrics;
  /**
   * Messages posted per workspace and per channel (see {@link slackFetch}); the app passes its
   * configuration. Unset: nothing is spaced (tests and benchmarks that do not exercise it).
   */
  postLimits?: PostLimits;
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

/** The Web API methods that post a message: Slack limits them per channel and per workspace. */
const POSTING = /\/(chat\.postMessage|chat\.update)$/;

/** The workspace key (the bot token) and channel of a posting call, read from what the WebClient sends. */
function postTarget(headers: Record<string, string>, body: string): { key: string; channel: string } {
  const json = headers['content-type']?.includes('application/json');
  let fields: { token?: unknown; channel?: unknown } = {};
  if (json) {
    try {
      fields = JSON.parse(body) as typeof fields;
    } catch {
      // Slack answers a malformed body itself.
    }
  } else {
    const form = new URLSearchParams(body);
    fields = { token: form.get('token') ?? undefined, channel: form.get('channel') ?? undefined };
  }
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
  return { key: bearer ?? String(fields.token ?? ''), channel: String(fields.channel ?? '') };
}

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * The `fetch` the Slack clients use (Bolt's `clientOptions.fetch`, the WebClients made here): a
 * POST with a string body — every Web API call but uploads, every response_url reply — goes out
 * with undici on the keep-alive pool shared per origin, bounded to `connections` sockets, as the
 * planning client's calls do (planning/transport.ts: one attempt, bounded by `timeoutMs` and the
 * caller's signal). The global fetch (WHATWG streams, request cloning) cost about as much CPU as the
 * rest of a command. Nothing is sent twice: a request that fails on a socket may have reached Slack
 * (a message posted) and is never resent here. Anything else (multipart uploads, other methods)
 * goes to the global fetch, looked up per call.
 *
 * With a `limiter`, every message posted (`chat.postMessage`, `chat.update`) — a digest, a card, a
 * DM, whichever client sends it — first waits for its workspace's and channel's turn, and a 429
 * pauses that workspace for Retry-After. The 429 still reaches the caller, which resends (Bolt's
 * clients after Retry-After, the digest's `postDigest`): a rate-limited message was not posted.
 */
export function slackFetch(
  timeoutMs: number,
  connections = DEFAULT_MAX_CONNECTIONS,
  limiter?: PostLimiter,
): typeof fetch {
  return async (input, init) => {
    const plain =
      typeof input === 'string' &&
      init?.method === 'POST' &&
      typeof init.body === 'string' &&
      (input.startsWith('https:') || input.startsWith('http:'));
    if (!plain) return globalThis.fetch(input, init);
    const url = new URL(input);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const signal = init.signal ?? undefined;
    const posting =
      limiter && POSTING.test(url.pathname) ? postTarget(headers, init.body as string) : undefined;
    let answer: RawResponse;
    try {
      if (posting) await limiter?.turn(posting.key, posting.channel, signal);
      answer = await sendOnce(
        {
          dispatcher: poolFor(url.origin, timeoutMs, connections),
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers,
          body: init.body as string,
          timeoutMs,
          ...(signal ? { signal } : {}),
        },
        // Names the call in errors by its Web API method or response_url, never its query.
        { operation: `Slack ${url.pathname}`, method: 'POST', path: url.pathname },
      );
    } catch (error) {
      // As fetch does: the caller's abort rejects with the caller's reason.
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
    if (posting && answer.status === 429) {
      const seconds = Number(answer.headers['retry-after']);
      limiter?.pause(posting.key, (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
    }
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return new Response(NULL_BODY.has(answer.status) ? null : answer.text, {
      status: answer.status,
      headers: answerHeaders,
    });
  };
}

export function createClients(options: ClientsOptions): Clients {
  const { logger } = options;
  const size = options.cacheSize ?? 1_000;
  let last: LastPlanningCall | undefined;
  const { metrics } = options;
  const onEvent = (event: RequestEvent) => {
    metrics?.planningRequests.inc({ operation: event.operation, status: String(event.status ?? 'none') });
    metrics?.planningDuration.observe({ operation: event.operation }, event.durationMs / 1000);
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
  // One limiter for every Slack client of the process: Bolt's and the ones made here.
  const limiter = options.postLimits ? createPostLimiter(options.postLimits) : undefined;
  const fetcher = observedSlackFetch(
    slackFetch(options.slackTimeoutMs ?? 15_000, DEFAULT_MAX_CONNECTIONS, limiter),
    metrics,
  );
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
