/** What the Slack layer needs from the rest of the process, handed to every listener. */
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import {
  createPlanningClient,
  type PlanningClient,
  type PlanningClientOptions,
  type RequestEvent,
} from '../../planning/index.js';
import type { Store } from '../../store/index.js';

export interface SlackDeps {
  config: Config;
  store: Store;
  logger: Logger;
  /** Base URL of the planning service (the built-in sandbox's in development). */
  planningUrl: string;
  /**
   * PLANNING_ADMIN_TOKEN (or the built-in sandbox owner's). Read it through
   * {@link environmentAdminToken}, which applies the single-workspace rule.
   */
  envAdminToken?: string;
  /** Extra client options (tests shorten timeouts and retries). */
  planningOptions?: Omit<PlanningClientOptions, 'baseUrl' | 'token' | 'onEvent'>;
  /** Sees every planning call's outcome (the health check keeps the last one). */
  observe?: (event: RequestEvent) => void;
}

/** A planning client acting with `token`. Cheap: connections come from a shared pool. */
export function planningClient(deps: SlackDeps, token: string): PlanningClient {
  return createPlanningClient({
    baseUrl: deps.planningUrl,
    token,
    ...deps.planningOptions,
    // Operation, status and timing only: never the filled path (a grade's path names the peer).
    onEvent: (event) => {
      deps.logger.debug(
        {
          operation: event.operation,
          status: event.status,
          ms: Math.round(event.durationMs),
          outcome: event.outcome,
        },
        'planning call',
      );
      deps.observe?.(event);
    },
  });
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
  return token ? planningClient(deps, token) : undefined;
}
