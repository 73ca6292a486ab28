/**
 * Every direct message the app sends a person about their planning goes through here, named by
 * what it is about, so that what reaches a person can be decided in one place (their notification
 * preferences and quiet hours, issue 14) and no surface sends DMs of its own.
 */
import type { WebClient } from '@slack/web-api';
import type { Reply } from './blocks/messages.js';
import { directMessage } from './context/dm.js';

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

export interface Recipient {
  workspaceId: string;
  slackUserId: string;
}

/** Sends `body` to the person's DM with the app. Throws when Slack refuses; callers report it. */
export async function notify(
  client: WebClient,
  to: Recipient,
  _kind: NotificationKind,
  body: Reply,
): Promise<'sent'> {
  await directMessage(client, to.slackUserId, body);
  return 'sent';
}
