/** What the Slack layer needs from the rest of the process: its configuration, store, logger and clients. */
import type { Clients } from '../../clients.js';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import type { PlanningClient } from '../../planning/index.js';
import type { Store } from '../../store/index.js';

export interface SlackDeps {
  config: Config;
  store: Store;
  logger: Logger;
  /** The process's client factory: every planning call is made (and logged, and counted) through it. */
  clients: Clients;
  /**
   * PLANNING_ADMIN_TOKEN (or the built-in sandbox owner's). Read it through
   * {@link environmentAdminToken}, which applies the single-workspace rule.
   */
  envAdminToken?: string;
  /** Where Slack's requests are counted and timed; `/metrics` on the Slack port serves it (behind METRICS_TOKEN). */
  metrics?: Metrics;
}

/**
 * The environment's admin token serves the single workspace of a bot-token install only: with
 * OAuth, any workspace can install the app, and one organization's admin token must never act for
 * another workspace's users.
 */
export function environmentAdminToken(deps: Pick<SlackDeps, 'config' | 'envAdminToken'>): string | undefined {
  return deps.config.SLACK_CLIENT_ID ? undefined : deps.envAdminToken;
}

/**
 * The organization admin token that provisions this workspace's users: the one an admin saved with
 * `/plan connect admin`, else (single-workspace mode only) PLANNING_ADMIN_TOKEN.
 */
export async function adminTokenFor(deps: SlackDeps, workspaceId: string): Promise<string | undefined> {
  const settings = await deps.store.workspaces.get(workspaceId);
  return settings?.adminToken ?? environmentAdminToken(deps);
}

/** A client acting as the workspace's organization admin, when it has one. */
export async function adminClientFor(
  deps: SlackDeps,
  workspaceId: string,
): Promise<PlanningClient | undefined> {
  const token = await adminTokenFor(deps, workspaceId);
  return token ? deps.clients.planning(token) : undefined;
}
