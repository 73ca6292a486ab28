/** What the Slack layer needs from the rest of the process, handed to every listener. */

import type { WebClient } from '@slack/web-api';
import type { Mrkdwn } from '../../blockkit/index.js';
import type { Clients } from '../../clients.js';
import type { Config } from '../../config.js';
import type { PlanningAccess } from '../../digest/index.js';
import type { Logger } from '../../logger.js';
import type { PlanningClient } from '../../planning/index.js';
import type { ChannelLink, Store } from '../../store/index.js';
import type { PlanningContext } from './acting.js';
import type { Identities } from './identity.js';

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

export interface Services {
  deps: SlackDeps;
  identities: Identities;
  /** Which planning account reads a channel's digest (`/plan digest now`), as the scheduler's. */
  digestAccess(link: ChannelLink): Promise<PlanningAccess | undefined>;
  /** The Home tab, for topics whose buttons it shows (given by the home topic at composition). */
  home: HomeTab;
}

/** What other topics may do to a person's Home tab. */
export interface HomeTab {
  /** Publishes the person's tab again, fresh, with `banner` on top. */
  refresh(client: WebClient, planning: PlanningContext, banner?: Mrkdwn): Promise<void>;
  /** Forgets what the tab cached for the person (their connection changed). */
  forget(workspaceId: string, slackUserId: string): void;
}
