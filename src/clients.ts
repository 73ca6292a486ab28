/**
 * The one place the process makes its API clients: planning clients (per service-account token), the
 * one Slack sender every Slack call goes through (src/slack-api/) and the Slack Web API clients used
 * outside a request (the digest's one client for every bot; per token, for the watch and notices by
 * DM). Bolt makes the clients its listeners receive, with the same sender. Every planning call made
 * through here is logged — operation, status and timing, never the filled path (a grade's path names
 * the peer) nor a token — and the last one is kept for /healthz.
 */
import { webApi } from '@slack/bolt';
import { createPostLimiter, type PostLimits } from './limits.js';
import type { Logger } from './logger.js';
import { toSlackLogger } from './logger.js';
import { type Metrics, observedSlackFetch } from './metrics.js';
import {
  createPlanningClient,
  type PlanningClient,
  type PlanningClientOptions,
  type RequestEvent,
} from './planning/index.js';
import { type SlackSenderOptions, slackFetch, slackSender } from './slack-api/index.js';

export type WebClient = InstanceType<typeof webApi.WebClient>;

/**
 * What every WebClient of the process is made with beside the sender: no retries and no waits of
 * its own (the sender has the only policy), and a 429 it gave up on thrown at once.
 */
export const SLACK_CLIENT_OPTIONS = { retryConfig: { retries: 0 }, rejectRateLimitedCalls: true } as const;

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
   * Messages posted per workspace and per channel (the Slack sender's limiter); the app passes its
   * configuration. Unset: nothing is spaced (tests and benchmarks that do not exercise it).
   */
  postLimits?: PostLimits;
  /** The Slack sender's tuning (tests shorten its backoff or count its waits). */
  slackSender?: Omit<SlackSenderOptions, 'attempt' | 'limiter'>;
}

export interface Clients {
  /** The service's base URL. */
  readonly planningUrl: string;
  /** A planning client acting with `token`; the same one for the same token while it is in use. */
  planning(token: string): PlanningClient;
  /**
   * A Slack client acting with one bot token, for work outside a request that hands a client to the
   * Slack layer (notices by DM, the watch, canvases); its calls go through {@link slackFetch}.
   */
  slack(token: string): WebClient;
  /**
   * The one Slack client for every workspace's bot (the digest's): it has no token of its own, so
   * each call gives its bot token in its arguments (`token`), which @slack/web-api sends as the
   * bearer — the posting limiter's key in the sender, as for a client's own token. A WebClient
   * binds every API method per instance (about 26 KB of heap): one per token kept up to
   * `cacheSize` of them alive, so the process's memory followed its workspaces.
   */
  readonly slackBots: WebClient;
  /** The last planning call made through these clients. */
  lastPlanningCall(): LastPlanningCall | undefined;
  /**
   * The one Slack sender (src/slack-api/sender.ts), with the process's posting limiter: the `fetch`
   * of every Slack client, Bolt's (`clientOptions.fetch`, with {@link SLACK_CLIENT_OPTIONS}) included.
   */
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

export function createClients(options: ClientsOptions): Clients {
  const { logger } = options;
  const size = options.cacheSize ?? 1_000;
  // The last call as it came, and when (epoch ms): made into /healthz's text only when it is read —
  // every planning call comes through here, 11 per digest.
  let last: RequestEvent | undefined;
  let lastAt = 0;
  const { metrics } = options;
  const onEvent = (event: RequestEvent) => {
    metrics?.planningRequests.inc({ operation: event.operation, status: String(event.status ?? 'none') });
    metrics?.planningDuration.observe({ operation: event.operation }, event.durationMs / 1000);
    last = event;
    lastAt = Date.now();
    if (!logger.isLevelEnabled('debug')) return;
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
  // One sender, and one limiter, for every Slack client of the process: Bolt's and the ones made here.
  const fetcher = slackSender({
    // Each attempt counted, a call sent again included.
    attempt: observedSlackFetch(slackFetch(options.slackTimeoutMs ?? 15_000), metrics),
    ...(options.postLimits ? { limiter: createPostLimiter(options.postLimits) } : {}),
    logger,
    ...options.slackSender,
  });
  const slackClient = (token: string | undefined, concurrency?: { maxRequestConcurrency: number }) =>
    new webApi.WebClient(token, {
      ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}),
      logger: slackLogger,
      ...SLACK_CLIENT_OPTIONS,
      ...concurrency,
      fetch: fetcher,
    });
  return {
    planningUrl: options.planningUrl,
    planning: lruCache(size, (token) =>
      createPlanningClient({ ...options.planningOptions, baseUrl: options.planningUrl, token, onEvent }),
    ),
    slack: lruCache(size, (token) => slackClient(token)),
    // A WebClient queues its calls beyond 100 at once, and a message waits for its turn in the
    // limiter inside its call: shared by every workspace, that queue would hold one workspace's
    // posts behind another's turns. The sender and its limiter are the bounds.
    slackBots: slackClient(undefined, { maxRequestConcurrency: Number.POSITIVE_INFINITY }),
    lastPlanningCall: () =>
      last && {
        outcome: last.outcome,
        status: last.status,
        operation: last.operation,
        at: new Date(lastAt).toISOString(),
      },
    slackFetch: fetcher,
  };
}
