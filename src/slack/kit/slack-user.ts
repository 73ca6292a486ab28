/** What Slack says about a user (users.info): whether they are a workspace admin, their time zone. */
import type { WebClient } from '@slack/web-api';

/** The user object of users.info. */
export type SlackUser = NonNullable<Awaited<ReturnType<WebClient['users']['info']>>['user']>;

export interface SlackUserFacts {
  isAdmin: boolean;
  /** IANA time zone of the user's Slack profile. */
  timeZone?: string;
}

/** users.info for one user. */
export async function slackUserOf(client: WebClient, userId: string): Promise<SlackUser | undefined> {
  return (await client.users.info({ user: userId })).user;
}

/** A workspace admin or owner, as Slack says (is_admin / is_owner / is_primary_owner). */
export const isWorkspaceAdmin = (user: SlackUser | undefined) =>
  Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner);

export function factsOf(user: SlackUser | undefined): SlackUserFacts {
  return { isAdmin: isWorkspaceAdmin(user), ...(user?.tz ? { timeZone: user.tz } : {}) };
}

export async function slackUserFacts(client: WebClient, userId: string): Promise<SlackUserFacts> {
  return factsOf(await slackUserOf(client, userId));
}
