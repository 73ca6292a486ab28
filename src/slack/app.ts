/**
 * The Slack app, composed: the Bolt server for the configured mode (bolt/server.ts), the lazy
 * `acting()` middleware that says who is acting (kit/acting.ts), and every topic's routes bound
 * by the router with the app's gates (bolt/router.ts, kit/access.ts).
 */
import { sql } from 'kysely';
import { planningAccessFor } from '../digest/index.js';
import { createTokenRotation } from './bolt/rotation.js';
import { registerRoutes } from './bolt/router.js';
import { createSlackServer, type SlackServer } from './bolt/server.js';
import { createCanvasKeeper } from './canvas/index.js';
import { appChangeFunnel } from './changes.js';
import { forgetHome, refreshHome } from './home/index.js';
import { lapsedInstallNotice } from './install/index.js';
import { accessPolicy } from './kit/access.js';
import { planningMiddleware } from './kit/acting.js';
import { environmentAdminToken, type SlackDeps } from './kit/deps.js';
import { createIdentities } from './kit/identity.js';
import { COMMAND } from './kit/ids.js';
import type { Services } from './kit/services.js';
import { TOPICS } from './topics.js';

export { HEALTH_TIMEOUT_MS, SHUTDOWN_DRAIN_MS } from './bolt/server.js';

export type SlackApp = Pick<SlackServer, 'app' | 'start' | 'stop'> & {
  /**
   * The bot token serving a workspace id — the configured one, or (OAuth) its installation's,
   * refreshed first when token rotation says it is due — for work outside a request (the digest).
   */
  botToken(workspaceId: string): Promise<string | undefined>;
  /** OAuth with token rotation: refreshes the installations due, ahead of expiry (the jobs' tick). */
  refreshTokens(): Promise<void>;
};

export function createSlackApp(deps: SlackDeps): SlackApp {
  const { config } = deps;
  // OAuth: installations refresh their rotating tokens (one replica at a time) before they expire.
  const rotation =
    config.SLACK_CLIENT_ID && config.SLACK_CLIENT_SECRET
      ? createTokenRotation({
          repo: deps.store.installations,
          clientId: config.SLACK_CLIENT_ID,
          clientSecret: config.SLACK_CLIENT_SECRET,
          slackApiUrl: config.SLACK_API_URL,
          slackFetch: deps.clients.slackFetch,
          logger: deps.logger,
        })
      : undefined;
  const server = createSlackServer({
    config: deps.config,
    logger: deps.logger,
    installationStore: rotation?.installationStore ?? deps.store.installations.installationStore,
    slackFetch: deps.clients.slackFetch,
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
    health: {
      store: () => sql`select 1`.execute(deps.store.db),
      planning: () => ({
        url: new URL(deps.clients.planningUrl).origin,
        lastCall: deps.clients.lastPlanningCall() ?? null,
      }),
    },
  });
  const identities = createIdentities(deps, server.inFlight);
  server.app.use(planningMiddleware(identities));
  if (rotation) server.app.use(lapsedInstallNotice(rotation.lapsed));
  const digestAccess = planningAccessFor({
    store: deps.store,
    clients: deps.clients,
    adminToken: environmentAdminToken(deps),
  });
  const botToken = async (workspaceId: string) =>
    rotation ? rotation.botToken(workspaceId) : deps.config.SLACK_BOT_TOKEN;
  // The channel canvases of the plan: turned on in the link settings, following every change.
  const canvas = createCanvasKeeper({
    ...deps,
    planningAccessFor: digestAccess,
    slackFor: async (workspaceId) => {
      const token = await botToken(workspaceId);
      return token ? deps.clients.slack(token) : undefined;
    },
  });
  const svc: Services = {
    deps,
    identities,
    digestAccess,
    home: {
      refresh: (client, planning, banner) => refreshHome(svc, client, planning, banner),
      forget: (workspaceId, slackUserId) => forgetHome(svc, workspaceId, slackUserId),
    },
    changes: appChangeFunnel(deps, canvas),
    canvas,
  };
  registerRoutes(server.app, { svc, command: COMMAND, topics: TOPICS, policy: accessPolicy });
  return {
    app: server.app,
    start: () => server.start(),
    stop: (drainMs) => server.stop(drainMs),
    botToken,
    refreshTokens: async () => rotation?.refreshDue(),
  };
}
