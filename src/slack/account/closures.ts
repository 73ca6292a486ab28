/**
 * Closing the accounts the app provisioned for people it forgot (the workspace uninstalled or its
 * bot token revoked, a person deactivated or their Slack token revoked): the store recorded each
 * one, with the organization admin token the workspace had, in the transaction that forgot it
 * (store.closures). Here they are closed — right after the event for its workspace, and by the
 * minute tick (src/app/jobs.ts) for whatever a failure, a restart or another replica left.
 *
 * Once: each closure is taken under a once key (`account-closure:<workspace>:<account>`) and read
 * again before the call, so two replicas, or the event and the tick, never both close one account.
 * Bounded: at most `limit` closures a run; a failure is tried again later (1 min, then twice as
 * long each time, at most an hour apart) and given up after `maxAttempts`, logged so an organization
 * admin can close it. An account the service no longer has counts as closed.
 */
import type { Clients } from '../../clients.js';
import { NotFoundError } from '../../planning/index.js';
import { type AccountClosuresRepo, ONCE_TTL, type OnceRepo } from '../../store/index.js';

export interface ClosureDeps {
  store: {
    closures: AccountClosuresRepo;
    once: Pick<OnceRepo, 'run'>;
  };
  clients: Pick<Clients, 'planning'>;
  logger: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

export interface ClosureRun {
  /** Epoch ms the run is as of (default Date.now()). */
  now?: number;
  /** Only this workspace's closures (right after its event). */
  workspaceId?: string;
  /** Closures a run takes at most. Default 50. */
  limit?: number;
  /** Attempts before a closure is given up. Default 10 (about four hours of retries). */
  maxAttempts?: number;
}

export interface ClosureReport {
  closed: number;
  retrying: number;
  givenUp: number;
}

const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 60 * 60_000;

/** The wait after the `attempt`-th failure: 1 min, 2, 4, … at most an hour. */
export const closureRetryDelay = (attempt: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), MAX_RETRY_MS);

/** Closes the due closures (of one workspace, when given); never rejects for one account's failure. */
export async function closeForgottenAccounts(
  deps: ClosureDeps,
  run: ClosureRun = {},
): Promise<ClosureReport> {
  const { closures } = deps.store;
  const now = run.now ?? Date.now();
  const maxAttempts = run.maxAttempts ?? 10;
  const report: ClosureReport = { closed: 0, retrying: 0, givenUp: 0 };
  const due = await closures.due(now, {
    limit: run.limit ?? 50,
    ...(run.workspaceId === undefined ? {} : { workspaceId: run.workspaceId }),
  });
  for (const closure of due) {
    const { workspaceId, serviceAccountId } = closure;
    const about = { workspaceId, serviceAccountId, reason: closure.reason };
    // Of two replicas closing together only one takes a closure; one put off gives its key back.
    await deps.store.once.run(
      `account-closure:${workspaceId}:${serviceAccountId}`,
      ONCE_TTL.accountClosure,
      async () => {
        // Another replica may have closed it between our read and our claim.
        if (!(await closures.pending(workspaceId, serviceAccountId))) return 'closed elsewhere';
        try {
          try {
            await deps.clients.planning(closure.adminToken).serviceAccounts.close(serviceAccountId);
          } catch (error) {
            if (!(error instanceof NotFoundError)) throw error;
            deps.logger.info(about, 'provisioned service account already gone from the service');
          }
          await closures.remove(workspaceId, serviceAccountId);
        } catch (error) {
          const attempts = closure.attempts + 1;
          if (attempts >= maxAttempts) {
            await closures.remove(workspaceId, serviceAccountId);
            report.givenUp += 1;
            deps.logger.error(
              { ...about, attempts, err: error },
              'provisioned service account could not be closed; given up: an organization admin must close it',
            );
          } else {
            await closures.retryLater(workspaceId, serviceAccountId, now + closureRetryDelay(attempts));
            report.retrying += 1;
            deps.logger.warn(
              { ...about, attempts, err: error },
              'provisioned service account not closed yet; will retry',
            );
          }
          return 'put off';
        }
        report.closed += 1;
        deps.logger.info(about, 'provisioned service account closed');
        return 'closed';
      },
      { releaseIf: (outcome) => outcome === 'put off' },
    );
  }
  return report;
}
