/**
 * Every direct message the app sends a person about their planning goes through here, named by
 * what it is about, so that what reaches a person is decided in one place: their notification
 * preferences (each kind on or off) and quiet hours in their time zone. A DM due in quiet hours is
 * kept in the store's outbox and sent when they end by {@link deliverHeld}, which the app's minute
 * tick runs (src/app/jobs.ts); the outbox id taken as a once key makes each
 * held DM go out once even when several replicas tick together.
 */
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { type Mrkdwn, md, mention } from '../../blockkit/index.js';
import { type NotificationsRepo, ONCE_TTL, type OnceRepo } from '../../store/index.js';
import { quietUntil } from './quiet-hours.js';
import { directMessage } from './surfaces.js';

/** What a DM is about. */
export const NOTIFICATION_KINDS = [
  /** Someone else assigned me a task. */
  'assigned',
  /** My task moved to review, or was done. */
  'taskMoved',
  /** Feedback on my task. */
  'feedback',
  /** A reply to my feedback. */
  'reply',
  /** The daily count of new peer grades. */
  'peerGrades',
  /** A feature I authored advanced. */
  'featureAdvanced',
  /** An admin shared an invitation to join the organization with me. */
  'invitation',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How each kind is named where a person chooses (the Home tab). */
export const NOTIFICATION_LABELS: Record<NotificationKind, string> = {
  assigned: 'A task is assigned to me',
  taskMoved: 'My task moved to review or done',
  feedback: 'Feedback on my tasks',
  reply: 'Replies to my feedback',
  peerGrades: 'Daily count of new peer grades',
  featureAdvanced: 'A feature I authored advanced',
  invitation: 'An invitation shared with me',
};

export interface Recipient {
  workspaceId: string;
  slackUserId: string;
}

/** A DM's content: the notification text and, usually, its blocks. */
export interface NotifyBody {
  text: string;
  blocks?: KnownBlock[];
}

export interface NotifyDeps {
  store: { notifications: Pick<NotificationsRepo, 'prefs' | 'enqueue'> };
  /** Epoch ms (tests move it). Default Date.now. */
  now?: () => number;
}

/** What became of a DM: sent now, turned off by the person, or held until their quiet hours end. */
export type NotifyOutcome = 'sent' | 'muted' | 'held';

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
  await directMessage(client, to.slackUserId, body);
  return 'sent';
}

/** What the sender is told about a DM: "@ana was told", or why not yet / not at all. */
export function toldText(slackUserId: string, outcome: NotifyOutcome, sent: Mrkdwn): Mrkdwn {
  if (outcome === 'held') return md`${mention(slackUserId)} will be told when their quiet hours end.`;
  if (outcome === 'muted') return md`${mention(slackUserId)} turned these notifications off.`;
  return md`${mention(slackUserId)} ${sent}.`;
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
          await directMessage(slack, item.slackUserId, body.data as NotifyBody);
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
