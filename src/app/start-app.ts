/**
 * The composition: configuration → (sandbox) → store → clients → Slack app → jobs (the minute tick:
 * digests, peer-grade notices, held DMs), and a clean shutdown in the reverse order of start: the
 * receiver (no new requests), the jobs (their pass in progress finishes), housekeeping, the store,
 * the sandbox, then the planning connection pools. The process entries (src/bin/) and the
 * playground start the app from here.
 */
import { createClients } from '../clients.js';
import { type Config, loadConfig } from '../config.js';
import { planningAccessFor } from '../digest/index.js';
import { createLogger, type Logger } from '../logger.js';
import { closePlanningPools } from '../planning/index.js';
import { createSlackApp } from '../slack/app.js';
import { environmentAdminToken } from '../slack/kit/deps.js';
import { openStore, resolveKeyring, type Store, startHousekeeping } from '../store/index.js';
import { appJobs, type Jobs, startJobs } from './jobs.js';

export interface Running {
  config: Config;
  logger: Logger;
  store: Store;
  /** The planning service the app talks to (the sandbox's URL when PLANNING_API_URL=sandbox). */
  planningUrl: string;
  /** HTTP mode: the port the app listens on. */
  port?: number;
  /** The minute tick (its `pass` runs one at once: the playground's tests use it). */
  jobs: Jobs;
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
    const { startSandbox } = await import('../sandbox/index.js');
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
  const jobs = startJobs({
    logger,
    jobs: appJobs({
      store,
      clients,
      logger,
      botTokenFor: botTokenFor(config, store),
      planningAccessFor: planningAccessFor({
        store,
        clients,
        adminToken: environmentAdminToken({ config, envAdminToken }),
      }),
    }),
  });
  stack.push(() => jobs.stop());
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
    jobs,
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
