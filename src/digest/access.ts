/**
 * Which planning token reads a channel's digest data.
 *
 * The digest is the channel's view, not one person's, so it reads with the workspace's organization
 * admin token when there is one (stored by the admin connect flow, or PLANNING_ADMIN_TOKEN in
 * single-workspace mode): an admin can read every team of the organization, and the digest keeps
 * working when the person who linked the channel leaves. Without one it falls back to the link
 * creator's own service account, if still valid — they could see the channel when they linked it.
 */
import { createPlanningClient, orgIdFromToken, type PlanningClientOptions } from '../planning/index.js';
import type { ChannelLink, IdentitiesRepo, WorkspacesRepo } from '../store/index.js';
import { memoByKey } from './memo.js';
import type { PlanningAccess } from './scheduler.js';

export interface PlanningAccessOptions {
  store: { workspaces: Pick<WorkspacesRepo, 'get'>; identities: Pick<IdentitiesRepo, 'get'> };
  /** The service's base URL. */
  baseUrl: string;
  /**
   * PLANNING_ADMIN_TOKEN, for workspaces without an admin token of their own; the caller passes it
   * in single-workspace mode only (see `environmentAdminToken`).
   */
  adminToken?: string;
  /** Passed to every client (timeouts, retries, a dispatcher in tests). */
  clientOptions?: Omit<PlanningClientOptions, 'baseUrl' | 'token'>;
}

/** Builds `planningClientFor(link)` for the scheduler and `/plan digest now`. */
export function planningAccessFor(
  options: PlanningAccessOptions,
): (link: ChannelLink) => Promise<PlanningAccess | undefined> {
  // Clients per token: cheap to keep (connections are pooled per origin anyway), costly to rebuild per digest.
  const clientFor = memoByKey((token) =>
    createPlanningClient({ ...options.clientOptions, baseUrl: options.baseUrl, token }),
  );
  return async (link) => {
    const workspace = await options.store.workspaces.get(link.workspaceId);
    let token = workspace?.adminToken ?? options.adminToken;
    let orgId = workspace?.planningOrgId;
    if (!token) {
      const creator = await options.store.identities.get(link.workspaceId, link.createdBy);
      if (!creator?.valid) return undefined;
      token = creator.token;
      orgId ??= creator.orgId;
    }
    return {
      client: clientFor(token),
      // Organizations are the unit the service limits; a token without the claim gets its workspace's limit.
      orgId: orgIdFromToken(token) ?? orgId ?? `workspace:${link.workspaceId}`,
    };
  };
}
