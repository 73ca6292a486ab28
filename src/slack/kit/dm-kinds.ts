/**
 * What the app's DMs are about, as a person chooses them on Home, and what became of one — shared by
 * the senders (kit/notify.ts, the change funnel) and whoever tells the outcome or draws the choices.
 */
import type { KnownBlock } from '@slack/types';
import { type Mrkdwn, md, mention } from '../../blockkit/index.js';

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

/** A DM's content: the notification text and, usually, its blocks. */
export interface NotifyBody {
  text: string;
  blocks?: KnownBlock[];
}

/**
 * What became of a DM: sent now, turned off by the person, held until their quiet hours end — or
 * sent, then not confirmed by Slack (it may have reached them; it is never sent twice).
 */
export type NotifyOutcome = 'sent' | 'muted' | 'held' | 'unconfirmed';

/** What the sender is told about a DM: "@ana was told", or why not yet / not at all. */
export function toldText(slackUserId: string, outcome: NotifyOutcome, sent: Mrkdwn): Mrkdwn {
  if (outcome === 'held') return md`${mention(slackUserId)} will be told when their quiet hours end.`;
  if (outcome === 'muted') return md`${mention(slackUserId)} turned these notifications off.`;
  if (outcome === 'unconfirmed')
    return md`${mention(slackUserId)} may have been told: Slack did not confirm the message, and it was not sent twice.`;
  return md`${mention(slackUserId)} ${sent}.`;
}
