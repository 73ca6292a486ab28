/**
 * Provisioned service accounts still to be closed in the service after the app forgot them — the
 * workspace uninstalled or its bot token revoked, a person deactivated or their Slack token
 * revoked. Each row is written in the transaction that forgets the account
 * (`forgetIdentities` in identities.ts), with the organization admin token the workspace had then,
 * encrypted and bound to the row: nothing else of the workspace may be left to close it with.
 *
 * The minute tick works through the due rows (src/slack/account/closures.ts), each taken under a
 * once key so two replicas never both close one, and removes a row once its account is closed or
 * given up; a failed attempt is counted and tried again later. Rows are not purged by housekeeping:
 * they leave only that way.
 */
import { z } from 'zod';
import { aad } from './aad.js';
import { type RepoContext, touched } from './context.js';
import { parseInput } from './errors.js';
import type { ClosureReason } from './schema.js';

export interface AccountClosure {
  workspaceId: string;
  serviceAccountId: string;
  /** The organization admin token that closes it, decrypted. */
  adminToken: string;
  reason: ClosureReason;
  /** Failed attempts so far. */
  attempts: number;
  /** When it may next be tried, epoch ms. */
  nextAttemptAt: number;
}

export interface AccountClosuresRepo {
  /** Closures due by `at` (epoch ms), the longest waiting first; only the workspace's when given. */
  due(at: number, options?: { limit?: number; workspaceId?: string }): Promise<AccountClosure[]>;
  /** Whether the account is still to be closed (another replica may have closed it since). */
  pending(workspaceId: string, serviceAccountId: string): Promise<boolean>;
  /** Closed or given up: the row goes. False when another replica removed it first. */
  remove(workspaceId: string, serviceAccountId: string): Promise<boolean>;
  /** A failed attempt: counted, and tried again at `retryAt` (epoch ms). */
  retryLater(workspaceId: string, serviceAccountId: string, retryAt: number): Promise<void>;
}

const key = z.object({ workspaceId: z.string().min(1), serviceAccountId: z.string().min(1) });

export function createAccountClosuresRepo({ db, keyring }: RepoContext): AccountClosuresRepo {
  const one = (workspaceId: string, serviceAccountId: string) => {
    parseInput(key, { workspaceId, serviceAccountId }, 'account closure');
    return { workspaceId, serviceAccountId };
  };
  return {
    async due(at, { limit = 50, workspaceId } = {}) {
      let query = db.selectFrom('account_closures').selectAll().where('next_attempt_at', '<=', at);
      if (workspaceId !== undefined) query = query.where('workspace_id', '=', workspaceId);
      const rows = await query
        .orderBy('next_attempt_at')
        .orderBy('workspace_id')
        .orderBy('service_account_id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        workspaceId: r.workspace_id,
        serviceAccountId: r.service_account_id,
        adminToken: keyring.decrypt(r.admin_token, aad.accountClosure(r.workspace_id, r.service_account_id)),
        reason: r.reason,
        attempts: r.attempts,
        nextAttemptAt: Number(r.next_attempt_at),
      }));
    },

    async pending(workspaceId, serviceAccountId) {
      one(workspaceId, serviceAccountId);
      const row = await db
        .selectFrom('account_closures')
        .select('workspace_id')
        .where('workspace_id', '=', workspaceId)
        .where('service_account_id', '=', serviceAccountId)
        .executeTakeFirst();
      return row !== undefined;
    },

    async remove(workspaceId, serviceAccountId) {
      one(workspaceId, serviceAccountId);
      const result = await db
        .deleteFrom('account_closures')
        .where('workspace_id', '=', workspaceId)
        .where('service_account_id', '=', serviceAccountId)
        .executeTakeFirst();
      return touched(result);
    },

    async retryLater(workspaceId, serviceAccountId, retryAt) {
      one(workspaceId, serviceAccountId);
      await db
        .updateTable('account_closures')
        .set((eb) => ({ next_attempt_at: retryAt, attempts: eb('attempts', '+', 1) }))
        .where('workspace_id', '=', workspaceId)
        .where('service_account_id', '=', serviceAccountId)
        .execute();
    },
  };
}
