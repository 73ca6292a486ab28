/**
 * Every direct message the app sends a person about their planning goes through here, named by
 * what it is about (dm-kinds.ts), so that what reaches a person is decided in one place: their
 * notification preferences (each kind on or off) and quiet hours in their time zone. DMs about a
 * change of a task or a feature are sent by the change funnel (kit/changes/) alone; the others (an
 * invitation shared, the daily peer-grade count) by their own flows. A DM due in quiet hours is
 * kept in the store's outbox and sent when they end by {@link deliverHeld}, which the app's minute
 * tick runs (src/app/jobs.ts); the outbox id taken as a once key makes each
 * held DM go out once even when several replicas tick together.
 */
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { unconfirmedCall } from '../../slack-api/index.js';
import { type NotificationsRepo, ONCE_TTL, type OnceRepo } from '../../store/index.js';
import type { NotificationKind, NotifyBody, NotifyOutcome } from './dm-kinds.js';
import { quietUntil } from './quiet-hours.js';
import { directMessage } from './surfaces.js';

export interface Recipient {
  workspaceId: string;
  slackUserId: string;
}

export interface NotifyDeps {
  store: { notifications: Pick<NotificationsRepo, 'prefs' | 'enqueue'> };
  /** Epoch ms (tests move it). Default Date.now. */
  now?: () => number;
}

/**
 * Sends `body` to the person's DM with the app, unless they turned `kind` off (dropped) or are in
 * their quiet hours (kept and sent when those end). Throws when Slack refuses; callers report it.
 */
export async function notify(
  deps: NotifyDeps,
  client: WebClient,
  to: Recipient,
  kind: NotificationKind,
  body: NotifyBody,
): Promise<NotifyOutcome> {
  const prefs = await deps.store.notifications.prefs(to.workspaceId, to.slackUserId);
  if (prefs?.muted.includes(kind)) return 'muted';
  const now = new Date((deps.now ?? Date.now)());
  const until = prefs && quietUntil(prefs.quiet, prefs.timeZone, now);
  if (until) {
    await deps.store.notifications.enqueue({
      ...to,
      kind,
      body: JSON.stringify(body),
      deliverAt: until.getTime(),
    });
    return 'held';
  }
  try {
    await directMessage(client, to.slackUserId, body);
  } catch (error) {
    if (!unconfirmedCall(error)) throw error;
    return 'unconfirmed';
  }
  return 'sent';
}

export interface DeliverDeps {
  store: {
    notifications: NotificationsRepo;
    once: Pick<OnceRepo, 'run'>;
  };
  /** The bot's client in a workspace; undefined when it has no bot token any more. */
  slackFor(workspaceId: string): Promise<WebClient | undefined>;
  logger: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  now?: () => number;
  /** Failed sends are retried this many times, 5 minutes apart. Default 5. */
  maxAttempts?: number;
}

const StoredBody = z.object({ text: z.string(), blocks: z.array(z.any()).optional() });
const RETRY_MS = 5 * 60_000;

/**
 * Sends the held DMs whose quiet hours are over. Each one is taken under the key `outbox:<id>`:
 * of two replicas ticking together only one sends it, and the row is removed once sent. Preferences
 * are read again, so a kind turned off (or quiet hours moved) in the meantime is honoured.
 */
export async function deliverHeld(
  deps: DeliverDeps,
): Promise<{ sent: number; dropped: number; failed: number }> {
  const report = { sent: 0, dropped: 0, failed: 0 };
  const now = deps.now ?? Date.now;
  const { notifications, once } = deps.store;
  for (const item of await notifications.due(now())) {
    await once.run(
      `outbox:${item.id}`,
      ONCE_TTL.heldDm,
      async () => {
        try {
          const prefs = await notifications.prefs(item.workspaceId, item.slackUserId);
          const body = StoredBody.safeParse(JSON.parse(item.body));
          if (prefs?.muted.includes(item.kind) || !body.success) {
            await notifications.remove(item.id);
            report.dropped += 1;
            return 'dropped';
          }
          const until = prefs && quietUntil(prefs.quiet, prefs.timeZone, new Date(now()));
          if (until) {
            // The quiet hours moved since: hold it until the new end.
            await notifications.retryLater(item.id, until.getTime());
            return 'held';
          }
          const slack = await deps.slackFor(item.workspaceId);
          if (!slack) throw new Error('no Slack bot token for this workspace');
          try {
            await directMessage(slack, item.slackUserId, body.data as NotifyBody);
          } catch (error) {
            // It may have reached them: never sent twice.
            if (!unconfirmedCall(error)) throw error;
            deps.logger.warn(
              { workspaceId: item.workspaceId, kind: item.kind },
              'held DM not confirmed by Slack',
            );
          }
          await notifications.remove(item.id);
          report.sent += 1;
          return 'sent';
        } catch (error) {
          report.failed += 1;
          const giveUp = item.attempts + 1 >= (deps.maxAttempts ?? 5);
          if (giveUp) await notifications.remove(item.id);
          else await notifications.retryLater(item.id, now() + RETRY_MS);
          deps.logger.warn(
            { workspaceId: item.workspaceId, kind: item.kind, attempts: item.attempts + 1, err: error },
            giveUp ? 'held DM could not be sent; given up' : 'held DM could not be sent; will retry',
          );
          return 'failed';
        }
      },
      // Held again or failed: its key is given back for the time it comes due again.
      { releaseIf: (outcome) => outcome === 'held' || outcome === 'failed' },
    );
  }
  if (report.sent + report.dropped + report.failed > 0) deps.logger.info(report, 'held DMs delivered');
  return report;
}
