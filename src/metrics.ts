/**
 * What the process tells Prometheus (prom-client): the process's own defaults, and what the app does
 * — Slack's requests and their acks, the work after them, planning and Slack Web API calls, the
 * digest, held DMs, store errors. One registry per app (never prom-client's global one), so two apps
 * in one process (tests, the playground) count apart.
 *
 * Labels stay few and bounded: a kind of request, an operation of the planning API, a Web API
 * method, a status. Never a user, channel or workspace id, a token or anything a person typed: a
 * label value is a time series, and the scrape is read by people who must not see those.
 *
 * `/metrics` is never open on the Slack-facing port: there it wants `METRICS_TOKEN` as a bearer
 * token (401 otherwise, and always when no token is configured); on its own port (`METRICS_PORT`)
 * it wants the token too when one is set.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Prefix of every metric of the app's own (process defaults keep their standard names). */
const PREFIX = 'team_planning_';

/** What Slack sent, as a label: one of a handful of words. */
export type SlackRequestKind =
  | 'command'
  | 'block_actions'
  | 'block_suggestion'
  | 'view_submission'
  | 'view_closed'
  | 'shortcut'
  | 'message_action'
  | 'event'
  | 'other';

/**
 * How a request from Slack ended at the receiver: handed to the listeners, acknowledged without a
 * listener, refused as malformed (400), unsigned or stale (401), or too large (413).
 */
export type SlackRequestOutcome = 'handled' | 'ignored' | 'malformed' | 'unverified' | 'too_large';

/** A digest's end, per attempt: posted, found already posted (recovery), failed and retried later, failed for the day. */
export type DigestOutcome = 'posted' | 'recovered' | 'retried' | 'failed';

/** How the watch's look at one link ended. */
export type WatchOutcome = 'seen' | 'changed' | 'failed' | 'skipped';

export interface Metrics {
  readonly registry: Registry;
  readonly slackRequests: Counter<'kind' | 'outcome'>;
  readonly ackDuration: Histogram<'kind'>;
  readonly listenerDuration: Histogram<'kind'>;
  readonly planningRequests: Counter<'operation' | 'status'>;
  readonly planningDuration: Histogram<'operation'>;
  readonly slackApiCalls: Counter<'method' | 'status'>;
  readonly slackRateLimited: Counter<'method'>;
  readonly digests: Counter<'outcome'>;
  /** Links the watch looked at, by outcome (src/watch/pass.ts `WatchMetrics`). */
  readonly watchLinks: Counter<'outcome'>;
  readonly storeErrors: Counter<'kind'>;
  /** Where the gauges read their value at each scrape (the composition plugs them in). */
  readonly sources: {
    heldDms?: () => Promise<number>;
    inFlight?: () => number;
  };
}

/** A new registry with the process defaults and every metric of the app, at zero. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const sources: Metrics['sources'] = {};
  const metrics: Metrics = {
    registry,
    sources,
    slackRequests: new Counter({
      name: `${PREFIX}slack_requests_total`,
      help: 'Requests from Slack to /slack/events, by kind and by how the receiver ended them',
      labelNames: ['kind', 'outcome'],
      registers,
    }),
    ackDuration: new Histogram({
      name: `${PREFIX}slack_ack_duration_seconds`,
      help: "From a Slack request's arrival to its HTTP answer (the ack); Slack gives up after 3 s",
      labelNames: ['kind'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
      registers,
    }),
    listenerDuration: new Histogram({
      name: `${PREFIX}slack_listener_duration_seconds`,
      help: "A request's listeners from start to end, the work after the ack included",
      labelNames: ['kind'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    planningRequests: new Counter({
      name: `${PREFIX}planning_requests_total`,
      help: 'Calls to the planning service, by operation and HTTP status ("none" when no answer came)',
      labelNames: ['operation', 'status'],
      registers,
    }),
    planningDuration: new Histogram({
      name: `${PREFIX}planning_request_duration_seconds`,
      help: 'Calls to the planning service, first attempt to outcome (retries included), by operation',
      labelNames: ['operation'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    slackApiCalls: new Counter({
      name: `${PREFIX}slack_api_calls_total`,
      help: 'Calls to Slack (Web API methods, response_url replies, uploads), by method and HTTP status',
      labelNames: ['method', 'status'],
      registers,
    }),
    slackRateLimited: new Counter({
      name: `${PREFIX}slack_api_rate_limited_total`,
      help: 'Slack answers 429 (rate limited): each is waited out and tried again, by method',
      labelNames: ['method'],
      registers,
    }),
    digests: new Counter({
      name: `${PREFIX}digests_total`,
      help: 'Digest attempts by outcome: posted, recovered (found already posted), retried (failed, tried again later), failed (for the day)',
      labelNames: ['outcome'],
      registers,
    }),
    watchLinks: new Counter({
      name: `${PREFIX}watch_links_total`,
      help: 'Linked channels the watch looked at, by outcome: seen (nothing changed), changed (changes handed to Slack), failed (given back, tried next interval), skipped (no planning token)',
      labelNames: ['outcome'],
      registers,
    }),
    storeErrors: new Counter({
      name: `${PREFIX}store_errors_total`,
      help: 'Store queries that failed: unavailable (database unreachable or too slow) or query (any other)',
      labelNames: ['kind'],
      registers,
    }),
  };
  new Gauge({
    name: `${PREFIX}held_dms_waiting`,
    help: 'DMs held back by quiet hours, waiting in the store to be sent',
    registers,
    async collect() {
      // A store that does not answer leaves the gauge as last read: the scrape itself must not fail.
      const read = sources.heldDms;
      if (read) this.set(await read().catch(() => Number.NaN));
    },
  });
  new Gauge({
    name: `${PREFIX}slack_requests_in_flight`,
    help: 'Slack requests whose listeners are still working (acked or not), and background work they started',
    registers,
    collect() {
      if (sources.inFlight) this.set(sources.inFlight());
    },
  });
  for (const outcome of ['posted', 'recovered', 'retried', 'failed'] satisfies DigestOutcome[]) {
    // Present at zero from the start: a rate over a series that appears late misses its first step.
    metrics.digests.inc({ outcome }, 0);
  }
  for (const outcome of ['seen', 'changed', 'failed', 'skipped'] satisfies WatchOutcome[])
    metrics.watchLinks.inc({ outcome }, 0);
  return metrics;
}

/**
 * The Web API method a Slack URL calls, as a label: `chat.postMessage` for `…/api/chat.postMessage`;
 * `response_url` and `upload` for Slack's other addresses (their paths carry ids), `other` otherwise.
 */
export function slackMethodOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return 'other';
  }
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (/^[a-z]+(\.[a-zA-Z]+)+$/.test(last) && path.includes('/api/')) return last;
  // hooks.slack.com/commands/…, /actions/… (the fake Slack's: /respond/…).
  if (/^\/(commands|actions|respond)\//.test(path)) return 'response_url';
  if (/upload/i.test(path)) return 'upload';
  return 'other';
}

/** `fetch` counting each call by method and status (and the 429s apart), for Bolt and the app's Slack clients. */
export function observedSlackFetch(fetcher: typeof fetch, metrics: Metrics | undefined): typeof fetch {
  if (!metrics) return fetcher;
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = slackMethodOf(url);
    let response: Response;
    try {
      response = await fetcher(input, init);
    } catch (error) {
      metrics.slackApiCalls.inc({ method, status: 'none' });
      throw error;
    }
    metrics.slackApiCalls.inc({ method, status: String(response.status) });
    if (response.status === 429) metrics.slackRateLimited.inc({ method });
    return response;
  };
}

/** Whether `header` is `Bearer <token>`, compared in constant time (`/metrics`, `/healthz`'s details). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  // Hashes of equal length: timingSafeEqual needs them, and the token's length stays unknown.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1] as string), digest(token));
}

/**
 * The `/metrics` route. `token` undefined: answered only where `open` (its own port), 401 elsewhere.
 * A 401 says nothing of the metrics, nor whether a token is configured.
 */
export function metricsRoute(
  metrics: Metrics,
  { token, open }: { token: string | undefined; open: boolean },
) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const allowed = token ? bearerMatches(req.headers.authorization, token) : open;
    if (!allowed) {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"', 'content-type': 'text/plain' });
      res.end('unauthorized\n');
      return;
    }
    try {
      const body = await metrics.registry.metrics();
      res.writeHead(200, { 'content-type': metrics.registry.contentType });
      res.end(body);
    } catch {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('metrics unavailable\n');
    }
  };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** `/metrics` alone on its own port (METRICS_PORT), on `host` (all interfaces when undefined). */
export async function startMetricsServer(
  metrics: Metrics,
  options: { port: number; host: string | undefined; token: string | undefined },
): Promise<MetricsServer> {
  const route = metricsRoute(metrics, { token: options.token, open: true });
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/metrics') {
      void route(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, ...(options.host ? { host: options.host } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
