/**
 * The Bolt app for the configured mode — HTTP (one port: /slack/events, OAuth install and redirect,
 * /healthz) or Socket Mode; one workspace (bot token) or many (OAuth, installations in the store) —
 * started and stopped. It knows Slack's platform, nothing of what the app does with it.
 *
 * Acks are immediate: `processBeforeResponse` is off (the router acks, see router.ts). Every
 * request is verified with the signing secret (Bolt's check is never disabled), and every Slack
 * call goes to SLACK_API_URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type AppOptions, type InstallationStore } from '@slack/bolt';
import { type Config, slackMode } from '../../config.js';
import { type Logger, toSlackLogger } from '../../logger.js';
import { InFlight } from './in-flight.js';
import { renderInstallPage } from './install-page.js';
import { BOT_SCOPES, PATHS } from './manifest.js';
import { createGuardedReceiver } from './receiver.js';

/** Slack Web API retries: short enough for someone waiting on a modal; 429s wait for Retry-After. */
const SLACK_RETRY = { retries: 3, factor: 2, minTimeout: 250, maxTimeout: 2_000, randomize: true };

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
  /** What respond() posts to response_urls with (see Clients.slackFetch). */
  slackFetch: NonNullable<NonNullable<AppOptions['clientOptions']>['fetch']>;
  /** /healthz: a query proving the store answers, and what the planning service last did. */
  health: { store(): Promise<unknown>; planning(): Record<string, unknown> };
}

export interface SlackServer {
  app: App;
  /**
   * Work the app owes after acks: the first middleware tracks each request (after-ack work
   * included), and background work (an avatar upload) is tracked here too.
   */
  inFlight: InFlight;
  /** Starts the receiver; in HTTP mode resolves with the port it listens on. */
  start(): Promise<{ port?: number }>;
  /**
   * Stops the receiver (no new requests), then waits for the work still owed after acks — at most
   * `drainMs` (default {@link SHUTDOWN_DRAIN_MS}) — so the store is not closed under it.
   */
  stop(drainMs?: number): Promise<void>;
}

export function createSlackServer({
  config,
  logger,
  installationStore,
  slackFetch,
  health,
}: ServerOptions): SlackServer {
  const mode = slackMode(config);

  const healthRoute = async (_req: IncomingMessage, res: ServerResponse) => {
    let store: 'ok' | 'error' = 'ok';
    try {
      await withinHealthBound(health.store());
    } catch (error) {
      store = 'error';
      logger.error({ err: error }, 'health check: store unreachable');
    }
    res.writeHead(store === 'ok' ? 200 : 503, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: store === 'ok' ? 'ok' : 'degraded',
        mode,
        store,
        planning: health.planning(),
      }),
    );
  };

  const options: AppOptions = {
    logger: toSlackLogger(logger),
    clientOptions: { slackApiUrl: config.SLACK_API_URL, retryConfig: SLACK_RETRY, fetch: slackFetch },
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
      scopes: [...BOT_SCOPES],
      installationStore,
      installerOptions: {
        installPath: PATHS.install,
        redirectUriPath: PATHS.redirect,
        // A landing page first (scopes and why, what is kept, how to delete it), then Slack's.
        directInstall: false,
        renderHtmlForInstallPath: renderInstallPage,
        clientOptions: { slackApiUrl: config.SLACK_API_URL },
        // The authorize page lives on the same Slack host as the API (slack.com, GovSlack…).
        authorizationUrl: new URL('/oauth/v2/authorize', config.SLACK_API_URL).href,
        // Socket Mode has no HTTP server of its own for the install pages: give it the port.
        ...(mode.transport === 'socket' ? { port: config.PORT } : {}),
      },
    });
  } else {
    options.token = config.SLACK_BOT_TOKEN;
  }
  if (mode.transport === 'http') {
    // Our receiver, not the one App would build: it checks each signed body before Bolt reads it
    // (receiver.ts). It takes the options App would have passed to its own HTTPReceiver.
    options.receiver = createGuardedReceiver({
      signingSecret: config.SLACK_SIGNING_SECRET ?? '',
      endpoints: PATHS.events,
      customRoutes: [{ path: PATHS.health, method: ['GET'], handler: healthRoute }],
      processBeforeResponse: false,
      logger: options.logger as NonNullable<AppOptions['logger']>,
      ...(mode.install === 'oauth'
        ? {
            clientId: options.clientId,
            clientSecret: options.clientSecret,
            stateSecret: options.stateSecret,
            scopes: options.scopes,
            installationStore: options.installationStore,
            installerOptions: options.installerOptions,
          }
        : {}),
    });
  }

  const app = new App(options);
  const inFlight = new InFlight();
  // First of all middleware: it spans every listener of the request, after-ack work included.
  app.use(({ next }) => inFlight.track(next()));
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled error in a listener');
  });

  let stopping: Promise<void> | undefined;
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
      const server = (await app.start(config.PORT)) as { address(): AddressInfo | string | null };
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.PORT;
      logger.info({ mode, port }, `Slack app listening on :${port}${PATHS.events}`);
      return { port };
    },
    stop(drainMs = SHUTDOWN_DRAIN_MS) {
      // A second stop (SIGTERM twice, a test's cleanup after the test stopped it) waits for the first.
      stopping ??= (async () => {
        await app.stop();
        const left = await inFlight.drain(drainMs);
        if (left > 0) logger.warn({ left, drainMs }, 'stopped with listeners still working');
      })();
      return stopping;
    },
  };
}
