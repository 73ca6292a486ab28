/**
 * Who may get a planning account provisioned: full members of the workspace that installed the app
 * (or of its Enterprise Grid organization). Guests, people from other organizations in Slack
 * Connect channels, bots and deactivated users may reach the app too — they get no account from it.
 */

/** The parts of Slack's user object (users.info) that decide it. */
export interface SlackUserRecord {
  deleted?: boolean;
  is_bot?: boolean;
  is_app_user?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  is_stranger?: boolean;
  team_id?: string;
  enterprise_user?: { enterprise_id?: string };
}

/** The workspace (and organization) a request came from. */
export interface Home {
  teamId?: string;
  enterpriseId?: string;
}

export type NotAMember = 'deactivated' | 'bot' | 'guest' | 'external';

/** Why this user may not get a provisioned account, or undefined when they may. Pure. */
export function notAMember(user: SlackUserRecord | undefined, home: Home): NotAMember | undefined {
  if (!user) return 'external';
  if (user.deleted) return 'deactivated';
  if (user.is_bot || user.is_app_user) return 'bot';
  if (user.is_restricted || user.is_ultra_restricted) return 'guest';
  if (user.is_stranger) return 'external';
  const sameTeam = user.team_id !== undefined && user.team_id === home.teamId;
  const sameOrg =
    home.enterpriseId !== undefined && user.enterprise_user?.enterprise_id === home.enterpriseId;
  return sameTeam || sameOrg ? undefined : 'external';
}

/** Says why, in a phrase that completes "… because they are …" / "you are …". */
export const NOT_A_MEMBER_PHRASE: Record<NotAMember, string> = {
  deactivated: 'deactivated in this workspace',
  bot: 'a bot or an app',
  guest: 'a guest in this workspace',
  external: 'from another organization',
};
