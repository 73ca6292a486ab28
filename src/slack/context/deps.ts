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
  /** Organization admin token from the environment (single-workspace provisioning). */
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
    onEvent: (event) =>
      deps.logger.debug(
        {
          operation: event.operation,
          status: event.status,
          ms: Math.round(event.durationMs),
          outcome: event.outcome,
        },
        'planning call',
      ),
  });
}
