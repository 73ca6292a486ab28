/**
 * The process: configuration → (sandbox) → store → clients → Slack app → digest scheduler, and a
 * clean shutdown on SIGTERM/SIGINT in the reverse order of start: the receiver (no new requests),
 * the digest scheduler (its pass in progress finishes), housekeeping, the store, the sandbox, then
 * the planning connection pools.
 */
import { pathToFileURL } from 'node:url';
import { createClients } from './clients.js';
import {
  type Config,
  ConfigError,
  hasSlackVariables,
  loadConfig,
  loadDotEnv,
  PLAYGROUND_HINT,
  startMode,
} from './config.js';
import { planningAccessFor, startDigestScheduler } from './digest/index.js';
import { createLogger, type Logger, redactSecrets } from './logger.js';
import { closePlanningPools } from './planning/index.js';
import { createSlackApp } from './slack/app.js';
import { deliverHeld } from './slack/kit/notify.js';
import { environmentAdminToken } from './slack/kit/services.js';
import { openStore, resolveKeyring, type Store, startHousekeeping } from './store/index.js';

export interface Running {
  config: Config;
  logger: Logger;
  store: Store;
  /** The planning service the app talks to (the sandbox's URL when PLANNING_API_URL=sandbox). */
  planningUrl: string;
  /** HTTP mode: the port the app listens on. */
  port?: number;
  /** Stops everything; safe to call twice. */
  stop(): Promise<void>;
}

/** A workspace's bot token: the configured one, or its installation's (OAuth). */
function botTokenFor(config: Config, store: Store) {
  return async (workspaceId: string): Promise<string | undefined> =>
    config.SLACK_CLIENT_ID ? store.installations.botToken(workspaceId) : config.SLACK_BOT_TOKEN;
}

/** Starts the app from the environment. */
export async function startApp(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  const config = loadConfig(env);
  const logger = createLogger({ level: config.LOG_LEVEL });
  const stack: (() => Promise<unknown>)[] = [];

  let planningUrl = config.PLANNING_API_URL;
  let envAdminToken = config.PLANNING_ADMIN_TOKEN;
  if (planningUrl === 'sandbox') {
    // Loaded only when asked for: production never needs the sandbox's code.
    const { startSandbox } = await import('./sandbox/index.js');
    const sandbox = await startSandbox({ seed: 'demo', logger });
    stack.push(() => sandbox.close());
    planningUrl = sandbox.url;
    // Development only: the sandbox owner provisions accounts, so the app works out of the box.
    envAdminToken ??= sandbox.ownerToken;
    logger.info({ url: sandbox.url }, 'Built-in planning sandbox started (demo data)');
  }

  const store = await openStore({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
    keyring: resolveKeyring(config, logger),
    logger,
  });
  stack.push(() => store.close());
  const housekeeping = startHousekeeping(store, logger);
  stack.push(() => housekeeping.stop());

  const clients = createClients({
    planningUrl,
    slackApiUrl: config.SLACK_API_URL,
    logger,
    planningOptions: { maxConnections: config.PLANNING_MAX_CONNECTIONS },
  });
  const slack = createSlackApp({ config, store, logger, clients, envAdminToken });
  const digest = startDigestScheduler({
    store,
    logger,
    botTokenFor: botTokenFor(config, store),
    planningClientFor: planningAccessFor({
      store,
      clients,
      adminToken: environmentAdminToken({ config, envAdminToken }),
    }),
    slackClientFor: clients.slack,
    peerGrades: {
      identities: store.identities,
      notifications: store.notifications,
      planningClientFor: clients.planning,
    },
    everyTick: () =>
      deliverHeld({
        store,
        logger,
        slackFor: async (workspaceId) => {
          const token = await botTokenFor(config, store)(workspaceId);
          return token ? clients.slack(token) : undefined;
        },
      }),
  });
  stack.push(() => digest.stop());
  let started: { port?: number };
  try {
    started = await slack.start();
  } catch (error) {
    await unwind(stack, logger);
    throw error;
  }
  stack.push(() => slack.stop());

  let stopping: Promise<void> | undefined;
  return {
    config,
    logger,
    store,
    planningUrl,
    port: started.port,
    stop: () => {
      stopping ??= unwind(stack, logger).then(() => closePlanningPools());
      return stopping;
    },
  };
}

/** Runs the stack's stoppers last-in first-out; one failing does not keep the others from running. */
async function unwind(stack: (() => Promise<unknown>)[], logger: Logger) {
  for (const stop of stack.reverse()) {
    await stop().catch((error: unknown) => logger.error({ err: error }, 'error during shutdown'));
  }
}

/**
 * The last line of defence: a promise that rejects with nobody listening (a library's fire-and-forget
 * path, a connection dropped between two queries) is logged on one line — the error's secrets
 * redacted by the logger — and the process keeps serving everyone else. Returns the uninstaller.
 */
export function guardProcess(logger: Logger): () => void {
  const onRejection = (reason: unknown) => {
    logger.error({ err: reason }, 'unhandled promise rejection; the process keeps serving');
  };
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}

/** The process entry: start, and stop on SIGTERM/SIGINT. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let running: Running;
  try {
    running = await startApp(env);
  } catch (error) {
    const message =
      error instanceof ConfigError
        ? `${error.message}\n(see .env.example)${hasSlackVariables(env) ? '' : `\n${PLAYGROUND_HINT}`}`
        : `Start-up failed: ${(error as Error).message}`;
    process.stderr.write(`${redactSecrets(message)}\n`);
    process.exitCode = 1;
    return;
  }
  guardProcess(running.logger);
  const shutdown = (signal: NodeJS.Signals) => {
    running.logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  loadDotEnv();
  if (startMode(process.env) === 'playground') {
    // Loaded only when asked for, like the sandbox: a deployment never runs the playground's code.
    // Not awaited: the playground imports this module, which must finish evaluating first.
    import('./playground/cli.js')
      .then(({ runPlayground }) => runPlayground(process.env))
      .catch((error: unknown) => {
        process.stderr.write(`The playground could not start: ${(error as Error).message}\n`);
        process.exitCode = 1;
      });
  } else await run();
}
