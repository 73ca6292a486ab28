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
import { createMetrics, startMetricsServer } from '../metrics.js';
import { closePlanningPools } from '../planning/index.js';
import { createSlackApp } from '../slack/app.js';
import { environmentAdminToken } from '../slack/kit/deps.js';
import {
  openStore,
  resolveKeyring,
  type Store,
  StoreUnavailableError,
  startHousekeeping,
} from '../store/index.js';
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
  /** HTTP mode: the address it is bound to (`HOST`; `::` or `0.0.0.0` for every interface). */
  address?: string;
  /** With METRICS_PORT: the port /metrics is served on. */
  metricsPort?: number;
  /**
   * Stops everything; safe to call twice. /readyz answers 503 from the call on, and the app serves
   * on for SHUTDOWN_GRACE_MS first; `{ graceMs: 0 }` (here or in a second call) cuts that short.
   */
  stop(options?: { graceMs?: 0 }): Promise<void>;
}

/** Starts the app from the environment. */
export async function startApp(env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  const config = loadConfig(env);
  const logger = createLogger({ level: config.LOG_LEVEL });
  const stack: (() => Promise<unknown>)[] = [];
  const metrics = createMetrics();

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
    onQueryError: (error) =>
      metrics.storeErrors.inc({ kind: error instanceof StoreUnavailableError ? 'unavailable' : 'query' }),
  });
  stack.push(() => store.close());
  const housekeeping = startHousekeeping(store, logger);
  stack.push(() => housekeeping.stop());
  metrics.sources.heldDms = () => store.notifications.heldCount();
  // Closed last but the store: a scrape during the drain still answers.
  let metricsPort: number | undefined;
  if (config.METRICS_PORT !== undefined) {
    try {
      const served = await startMetricsServer(metrics, {
        port: config.METRICS_PORT,
        host: config.HOST,
        token: config.METRICS_TOKEN,
      });
      stack.push(() => served.close());
      metricsPort = served.port;
    } catch (error) {
      await unwind(stack, logger);
      throw new Error(`/metrics could not listen on METRICS_PORT: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  const clients = createClients({
    planningUrl,
    slackApiUrl: config.SLACK_API_URL,
    logger,
    planningOptions: { maxConnections: config.PLANNING_MAX_CONNECTIONS },
    metrics,
    postLimits: {
      perWorkspacePerMinute: config.SLACK_POSTS_PER_MINUTE,
      channelIntervalMs: config.SLACK_CHANNEL_POST_INTERVAL_MS,
    },
  });
  const slack = createSlackApp({ config, store, logger, clients, envAdminToken, metrics });
  const jobs = startJobs({
    logger,
    jobs: appJobs({
      store,
      clients,
      logger,
      botTokenFor: (workspaceId) => slack.botToken(workspaceId),
      refreshTokens: () => slack.refreshTokens(),
      planningAccessFor: planningAccessFor({
        store,
        clients,
        adminToken: environmentAdminToken({ config, envAdminToken }),
      }),
      digest: { metrics },
      config,
      watch: { intervalMs: config.WATCH_INTERVAL_MS, metrics: metrics.watchLinks },
    }),
  });
  stack.push(() => jobs.stop());
  let started: { port?: number; address?: string };
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
    ...(started.address ? { address: started.address } : {}),
    ...(metricsPort !== undefined ? { metricsPort } : {}),
    stop: (options) => {
      // The Slack server's stop first, synchronously: readiness turns 503 before anything else.
      if (options?.graceMs === 0 || !stopping) void slack.stop(options ?? {});
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
