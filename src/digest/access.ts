/**
 * Which planning token reads a channel's digest data.
 *
 * The digest is the channel's view, not one person's, so it reads with the workspace's organization
 * admin token when there is one (stored by the admin connect flow, or PLANNING_ADMIN_TOKEN in
 * single-workspace mode): an admin can read every team of the organization, and the digest keeps
 * working when the person who linked the channel leaves. Without one it falls back to the link
 * creator's own service account, if still valid — they could see the channel when they linked it.
 */
import type { Clients } from '../clients.js';
import { orgIdFromToken, type PlanningClient } from '../planning/index.js';
import type { ChannelLink, IdentitiesRepo, WorkspacesRepo } from '../store/index.js';
import type { PlanningAccess } from './scheduler.js';

export interface PlanningAccessOptions {
  store: { workspaces: Pick<WorkspacesRepo, 'get'>; identities: Pick<IdentitiesRepo, 'get'> };
  /** Makes the planning clients (`Clients.planning`). */
  clients: Pick<Clients, 'planning'>;
  /**
   * PLANNING_ADMIN_TOKEN, for workspaces without an admin token of their own; the caller passes it
   * in single-workspace mode only (see `environmentAdminToken`).
   */
  adminToken?: string;
}

/** Builds `planningClientFor(link)` for the scheduler and `/plan digest now`. */
export function planningAccessFor(
  options: PlanningAccessOptions,
): (link: ChannelLink) => Promise<PlanningAccess | undefined> {
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
    const client = options.clients.planning(token);
    // Decoded once per client (the same one per token while it is in use), not once per digest.
    let claimed = orgOfClient.get(client);
    if (claimed === undefined) {
      claimed = orgIdFromToken(token) ?? null;
      orgOfClient.set(client, claimed);
    }
    return {
      client,
      // Organizations are the unit the service limits; a token without the claim gets its workspace's limit.
      orgId: claimed ?? orgId ?? `workspace:${link.workspaceId}`,
    };
  };
}

/** The `org_id` claim of each planning client's token (null: none), kept as long as the client. */
const orgOfClient = new WeakMap<PlanningClient, string | null>();
