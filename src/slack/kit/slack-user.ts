/** Workspace-admin checks, from Slack's own view of the user (users.info is_admin / is_owner). */
import type { WebClient } from '@slack/web-api';

export interface SlackUserFacts {
  isAdmin: boolean;
  /** IANA time zone of the user's Slack profile. */
  timeZone?: string;
}

export async function slackUserFacts(client: WebClient, userId: string): Promise<SlackUserFacts> {
  const { user } = await client.users.info({ user: userId });
  return {
    isAdmin: Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner),
    ...(user?.tz ? { timeZone: user.tz } : {}),
  };
}
