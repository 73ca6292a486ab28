/**
 * Forgetting a Slack user's planning identity (disconnect, a revoked token, a deactivated user):
 * the stored token goes, and an account the app provisioned for them is closed when the workspace
 * still has an organization admin token. A pasted token is only forgotten: it is the person's own.
 */
import type { Identity } from '../../store/index.js';
import { adminClientFor } from '../context/deps.js';
import type { Services } from '../context/services.js';

/** Closes the provisioned accounts among `identities`; returns how many were closed. */
export async function closeProvisioned(
  svc: Services,
  workspaceId: string,
  identities: readonly Pick<Identity, 'origin' | 'serviceAccountId'>[],
): Promise<{ closed: number; failed: number }> {
  const provisioned = identities.filter((i) => i.origin === 'provisioned');
  if (provisioned.length === 0) return { closed: 0, failed: 0 };
  const admin = await adminClientFor(svc.deps, workspaceId);
  let closed = 0;
  for (const identity of provisioned) {
    try {
      if (!admin) throw new Error('no organization admin token');
      await admin.serviceAccounts.close(identity.serviceAccountId);
      closed += 1;
    } catch (error) {
      svc.deps.logger.warn(
        { workspaceId, serviceAccountId: identity.serviceAccountId, err: error },
        'could not close a provisioned service account',
      );
    }
  }
  return { closed, failed: provisioned.length - closed };
}
