/**
 * The Bolt app for the configured mode — HTTP (one port: /slack/events, OAuth install and redirect,
 * /healthz) or Socket Mode; one workspace (bot token) or many (OAuth, installations in the store) —
 * started and stopped. It knows Slack's platform, nothing of what the app does with it.
 *
 * Acks are immediate: `processBeforeResponse` is off (the router acks, see router.ts). Every
 * request is verified with the signing secret (Bolt's check is never disabled), and every Slack
 * call goes to SLACK_API_URL through the one Slack sender.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type AppOptions, type InstallationStore } from '@slack/bolt';
import { SLACK_CLIENT_OPTIONS } from '../../clients.js';
import { type Config, slackMode, webLinkTemplates } from '../../config.js';
import { type Logger, logContext, toSlackLogger, withLogContext } from '../../logger.js';
import { bearerMatches, type Metrics, metricsRoute } from '../../metrics.js';
import { InFlight } from './in-flight.js';
import { renderInstallPage } from './install-page.js';
import { botScopes, PATHS } from './manifest.js';
import {
  createGuardedReceiver,
  createGuardedSocketReceiver,
  newRequestId,
  slackRequestKind,
} from './receiver.js';

/** /healthz answers within this, whatever the database does (a probe must not hang). */
export const HEALTH_TIMEOUT_MS = 2_000;

/** How long a shutdown waits for listeners still working after their ack. */
export const SHUTDOWN_DRAIN_MS = 10_000;

/** `work`, or a rejection once {@link HEALTH_TIMEOUT_MS} has passed (`work` settles on its own later). */
function withinHealthBound<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`)),
      HEALTH_TIMEOUT_MS,
    );
  });
  // The query's own failure after the bound has nobody left to hear it: swallow it here.
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export interface ServerOptions {
  config: Config;
  logger: Logger;
  /** OAuth mode: where installations are kept. */
  installationStore: InstallationStore;
  /** The one Slack sender (Clients.slackFetch): Bolt's clients, respond() and the OAuth installer use it. */
  slackFetch: NonNullable<NonNullable<AppOptions['clientOptions']>['fetch']>;
  /**
   * /healthz: a query proving the store answers, and what the planning service last did — the
   * latter (the service's address, its last operation) shown only to whoever sends METRICS_TOKEN.
   */
  health: { store(): Promise<unknown>; planning(): Record<string, unknown> };
  /** What the requests are counted in; `/metrics` on the Slack port wants `config.METRICS_TOKEN`. */
  metrics?: Metrics;
}

export interface SlackServer {
  app: App;
  /**
   * Work the app owes after acks: the first middleware tracks each request (after-ack work
   * included), and background work (an avatar upload) is tracked here too.
   */
  inFlight: InFlight;
  /** Starts the receiver; in HTTP mode resolves with the port and address it listens on. */
  start(): Promise<{ port?: number; address?: string }>;
  /**
   * Stops: from the first moment /readyz answers 503 (the drain); the app keeps serving for
   * `graceMs` (default `SHUTDOWN_GRACE_MS`), so that a load balancer sees it leave before its port
   * closes; then the receiver stops (no new requests) and the work still owed after acks is waited
   * for — at most `drainMs` (default {@link SHUTDOWN_DRAIN_MS}) — so the store is not closed under
   * it. A second call with `graceMs: 0` (a second signal) cuts a grace in progress short.
   */
  stop(options?: { drainMs?: number; graceMs?: number }): Promise<void>;
}

export function createSlackServer({
  config,
  logger,
  installationStore,
  slackFetch,
  health,
  metrics,
}: ServerOptions): SlackServer {
  const mode = slackMode(config);
  /** Readiness: false until started, false again from the moment a stop begins. */
  let accepting = false;

  /**
   * /healthz: liveness, answered to anyone with a status alone (the port is the one Slack reaches);
   * the details — the mode, the store, the planning service's address and last operation — only
   * with `Authorization: Bearer $METRICS_TOKEN`, as /metrics. Without a token configured, never.
   */
  const healthRoute = async (req: IncomingMessage, res: ServerResponse) => {
    let store: 'ok' | 'error' = 'ok';
    try {
      await withinHealthBound(health.store());
    } catch (error) {
      store = 'error';
      logger.error({ err: error }, 'health check: store unreachable');
    }
    const status = store === 'ok' ? 'ok' : 'degraded';
    const token = config.METRICS_TOKEN;
    const detailed = token !== undefined && bearerMatches(req.headers.authorization, token);
    res.writeHead(store === 'ok' ? 200 : 503, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
    res.end(JSON.stringify(detailed ? { status, mode, store, planning: health.planning() } : { status }));
  };

  /**
   * /readyz: 200 once started (the store migrated: it opens before the app) and while the store
   * answers; 503 before, from the moment a stop begins, and while the store does not answer.
   * /healthz stays liveness: the process answers.
   */
  const readyRoute = async (_req: IncomingMessage, res: ServerResponse) => {
    let status: 'ready' | 'starting' | 'draining' | 'store unreachable' = accepting
      ? 'ready'
      : stopping
        ? 'draining'
        : 'starting';
    if (status === 'ready') {
      try {
        await withinHealthBound(health.store());
      } catch {
        status = 'store unreachable';
      }
      // The stop may have begun while the store was asked.
      if (!accepting) status = 'draining';
    }
    res.writeHead(status === 'ready' ? 200 : 503, {
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
    res.end(JSON.stringify({ status }));
  };

  const options: AppOptions = {
    logger: toSlackLogger(logger),
    // Every call through the one Slack sender: its method table decides what is sent again.
    clientOptions: { slackApiUrl: config.SLACK_API_URL, ...SLACK_CLIENT_OPTIONS, fetch: slackFetch },
    // Listeners ack first and work after; Bolt must not hold the HTTP response until they finish.
    processBeforeResponse: false,
    ignoreSelf: true,
    // No listener keeps conversation state: skip the store's lookup on every request's ack path.
    convoStore: false,
    // start() runs init() and awaits it: a refused bot token stops start-up with a clear error
    // instead of surfacing later as an unhandled rejection.
    deferInitialization: true,
  };
  if (mode.transport === 'socket') {
    Object.assign(options, { socketMode: true, appToken: config.SLACK_APP_TOKEN });
  }
  if (mode.install === 'oauth') {
    Object.assign(options, {
      clientId: config.SLACK_CLIENT_ID,
      clientSecret: config.SLACK_CLIENT_SECRET,
      stateSecret: config.SLACK_STATE_SECRET,
      scopes: botScopes(webLinkTemplates(config)),
      installationStore,
      installerOptions: {
        installPath: PATHS.install,
        redirectUriPath: PATHS.redirect,
        // A landing page first (scopes and why, what is kept, how to delete it), then Slack's.
        directInstall: false,
        renderHtmlForInstallPath: (url: string) => renderInstallPage(url, webLinkTemplates(config)),
        clientOptions: { slackApiUrl: config.SLACK_API_URL, ...SLACK_CLIENT_OPTIONS, fetch: slackFetch },
        // The authorize page lives on the same Slack host as the API (slack.com, GovSlack…).
        authorizationUrl: new URL('/oauth/v2/authorize', config.SLACK_API_URL).href,
        // Socket Mode has no HTTP server of its own for the install pages: give it the port.
        ...(mode.transport === 'socket' ? { port: config.PORT } : {}),
      },
    });
  } else {
    options.token = config.SLACK_BOT_TOKEN;
  }
  // What App would hand its own receiver for the OAuth flow; either receiver of ours takes it.
  const oauthOptions =
    mode.install === 'oauth'
      ? {
          clientId: options.clientId,
          clientSecret: options.clientSecret,
          stateSecret: options.stateSecret,
          scopes: options.scopes,
          installationStore: options.installationStore,
        }
      : {};
  if (mode.transport === 'socket') {
    // Our receiver, built as App would build its own, checking each envelope as HTTP checks a body.
    const boltLogger = options.logger as NonNullable<AppOptions['logger']>;
    options.receiver = createGuardedSocketReceiver({
      appToken: config.SLACK_APP_TOKEN ?? '',
      logger: boltLogger,
      logLevel: boltLogger.getLevel(),
      installerOptions: { clientOptions: options.clientOptions, ...options.installerOptions },
      ...oauthOptions,
      ...(metrics ? { observe: { metrics } } : {}),
    });
  }
  if (mode.transport === 'http') {
    // Our receiver, not the one App would build: it checks each signed body before Bolt reads it
    // (receiver.ts). It takes the options App would have passed to its own HTTPReceiver.
    options.receiver = createGuardedReceiver({
      signingSecret: config.SLACK_SIGNING_SECRET ?? '',
      endpoints: PATHS.events,
      customRoutes: [
        { path: PATHS.health, method: ['GET'], handler: healthRoute },
        { path: PATHS.ready, method: ['GET'], handler: readyRoute },
        // Never open here: without METRICS_TOKEN it answers 401 (METRICS_PORT serves it instead).
        ...(metrics
          ? [
              {
                path: PATHS.metrics,
                method: ['GET'],
                handler: metricsRoute(metrics, { token: config.METRICS_TOKEN, open: false }),
              },
            ]
          : []),
      ],
      processBeforeResponse: false,
      logger: options.logger as NonNullable<AppOptions['logger']>,
      observe: { logger, ...(metrics ? { metrics } : {}) },
      ...oauthOptions,
      ...(mode.install === 'oauth' ? { installerOptions: options.installerOptions } : {}),
    });
  }

  const app = new App(options);
  const inFlight = new InFlight();
  if (metrics) metrics.sources.inFlight = () => inFlight.size;
  // First of all middleware: it spans every listener of the request, after-ack work included. Every
  // log line of that work carries the request's id: the receiver's (its ack line has it), or a new
  // one in Socket Mode.
  app.use(async ({ body, next }) => {
    const began = performance.now();
    const reqId = logContext()?.reqId ?? newRequestId();
    try {
      await withLogContext({ reqId }, () => inFlight.track(next()));
    } finally {
      metrics?.listenerDuration.observe({ kind: slackRequestKind(body) }, (performance.now() - began) / 1000);
    }
  });
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled error in a listener');
  });

  let stopping: Promise<void> | undefined;
  let endGrace: (() => void) | undefined;
  return {
    app,
    inFlight,
    async start() {
      try {
        await app.init();
      } catch (error) {
        throw new Error(
          `Slack refused the start-up check of the bot token (auth.test at ${config.SLACK_API_URL}): ${(error as Error).message}`,
          { cause: error },
        );
      }
      if (mode.transport === 'socket') {
        await app.start();
        logger.info({ mode }, 'Slack app connected over Socket Mode');
        return {};
      }
      // HOST unset: every interface, as Node listens by default.
      const server = (await app.start({
        port: config.PORT,
        ...(config.HOST ? { host: config.HOST } : {}),
      })) as { address(): AddressInfo | string | null };
      const bound = server.address();
      const port = typeof bound === 'object' && bound ? bound.port : config.PORT;
      const address = typeof bound === 'object' && bound ? bound.address : undefined;
      accepting = true;
      logger.info({ mode, port, address }, `Slack app listening on ${address ?? ''}:${port}${PATHS.events}`);
      return { port, ...(address ? { address } : {}) };
    },
    stop({ drainMs = SHUTDOWN_DRAIN_MS, graceMs = config.SHUTDOWN_GRACE_MS } = {}) {
      if (graceMs === 0) endGrace?.();
      // A second stop (SIGTERM twice, a test's cleanup after the test stopped it) waits for the first.
      stopping ??= (async () => {
        // Synchronously with the call: the first /readyz after it answers 503.
        accepting = false;
        if (graceMs > 0 && mode.transport === 'http') {
          logger.info({ graceMs }, 'stopping: /readyz answers 503; still serving for the grace period');
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, graceMs);
            endGrace = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          endGrace = undefined;
        }
        await app.stop();
        const left = await inFlight.drain(drainMs);
        if (left > 0) logger.warn({ left, drainMs }, 'stopped with listeners still working');
      })();
      return stopping;
    },
  };
}
