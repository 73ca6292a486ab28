/**
 * Row types of every table, as Kysely sees them. Portable across SQLite and PostgreSQL: text ids,
 * epoch-millisecond timestamps (bigint), booleans as 0/1 integers (better-sqlite3 cannot bind a JS
 * boolean), JSON as text. Columns holding secrets hold ciphertexts from ./crypto.ts.
 */

import type { Generated } from 'kysely';

/**
 * Bolt installations: the latest one per installation key — the team id of a workspace install, the
 * enterprise id of an org-wide one (see installations.ts `installationKeyFor`).
 */
export interface InstallationsTable {
  workspace_id: string;
  enterprise_id: string | null;
  team_id: string | null;
  is_enterprise_install: number;
  /** The Slack user whose OAuth grant produced the latest installation. */
  installer_user_id: string;
  /** Encrypted Installation JSON (bot and user tokens; with rotation, refresh tokens and expiry). */
  data: string;
  created_at: number;
  updated_at: number;
  /** Token rotation: the replica refreshing the tokens now, and until when its claim holds (ms). */
  refresh_owner: string | null;
  refresh_until: number | null;
  /** When Slack refused a refresh (the installation needs reinstalling), and Slack's error. */
  lapsed_at: number | null;
  lapsed_reason: string | null;
  /** A refresh that failed for a passing reason is not tried again before this (ms; migration 0015). */
  refresh_retry_at: number | null;
  /** Such failures in a row (the backoff doubles with each). */
  refresh_failures: number | null;
  /** The bot token's expiry (ms), for finding what to refresh ahead of time; null: no rotation. */
  bot_expires_at: number | null;
}

/** Each user's own OAuth grant (user token) in a workspace, beside the latest installation. */
export interface InstallationUsersTable {
  workspace_id: string;
  slack_user_id: string;
  /** Encrypted JSON of the Installation's `user` part. */
  data: string;
  created_at: number;
  updated_at: number;
}

export interface WorkspacesTable {
  workspace_id: string;
  /** Encrypted planning organization admin token. */
  admin_token: string | null;
  planning_org_id: string | null;
  created_at: number;
  updated_at: number;
}

export type IdentityOrigin = 'provisioned' | 'brought';

export interface IdentitiesTable {
  workspace_id: string;
  slack_user_id: string;
  service_account_id: string;
  planning_user_id: string;
  org_id: string;
  /** Encrypted service-account token. */
  token: string;
  origin: IdentityOrigin;
  valid: number;
  invalid_reason: string | null;
  /** Whether the account's name and avatar follow the Slack profile; NULL: its origin's default (0008). */
  follows_profile: number | null;
  created_at: number;
  updated_at: number;
  /** When Slack last confirmed the person a full member (epoch ms); NULL: not lately (0016). */
  member_confirmed_at: number | null;
}

export interface ChannelLinksTable {
  workspace_id: string;
  slack_channel_id: string;
  team_id: string;
  channel_id: string;
  digest_time: string;
  time_zone: string;
  weekdays_only: number;
  digest_enabled: number;
  /** Epoch ms the current digest schedule took effect; NULL: no bound (0008). */
  digest_from: number | null;
  /** The watch follows the channel's features (1, the default) or not (0). Migration 0010. */
  watch_enabled: Generated<number>;
  /** Replies in the threads of the channel's task cards become discoveries (1) or not (0, the default). */
  thread_discoveries: Generated<number>;
  /** The last digest posted on demand: its message ts and when (epoch ms); NULL: none yet (0018). */
  now_digest_ts: string | null;
  now_digest_at: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export type DigestClaimStatus = 'claimed' | 'posted' | 'failed';

export interface DigestClaimsTable {
  workspace_id: string;
  slack_channel_id: string;
  /** The channel's local date, YYYY-MM-DD. */
  local_date: string;
  status: DigestClaimStatus;
  owner: string;
  attempt: number;
  /**
   * Of the failed attempts, those that failed for a passing reason (overload, a post whose outcome
   * is unknown): they do not count against the cap on attempts.
   */
  transient_failures: Generated<number>;
  lease_until: number;
  retry_after: number | null;
  message_ts: string | null;
  /** JSON the digest keeps to tell what is new next time. */
  snapshot: string | null;
  error: string | null;
  posted_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface ProcessedInteractionsTable {
  key: string;
  state: 'pending' | 'done';
  result: string | null;
  expires_at: number;
  created_at: number;
}

/**
 * What a posted card is about: a task, a feature — or an invitation, whose shared message says so
 * once the invitation is revoked (no place: it lives in no feature). Kind is plain text in the
 * table: a replica of an earlier version never lists invitation rows, it asks for its kinds only.
 */
export type CardKind = 'task' | 'feature' | 'invitation';

/** A card message the app posted (thread card, list copy), to update in place after a change. */
export interface PostedCardsTable {
  workspace_id: string;
  slack_channel_id: string;
  message_ts: string;
  kind: CardKind;
  /** The task's or feature's id in the planning service. */
  entity_id: string;
  created_at: number;
  /**
   * Where the entity lives, as the app addressed it when posting the card (migration 0006): its
   * organization, team, channel and feature (a feature card's own id). Null in rows recorded before.
   */
  org_id: string | null;
  team_id: string | null;
  channel_id: string | null;
  feature_id: string | null;
  /** The thread's root when the card was posted as a reply (migration 0014); null: not in a thread, or recorded before. */
  thread_ts: string | null;
}

/** Where and by whom a task was created from Slack (migration 0004). */
export interface TaskOriginsTable {
  workspace_id: string;
  task_id: string;
  team_id: string;
  channel_id: string;
  feature_id: string;
  author_slack_id: string;
  slack_channel_id: string;
  thread_ts: string;
  created_at: number;
}

/** A person's notification preferences (defaults apply when they have no row). */
export interface NotificationPrefsTable {
  workspace_id: string;
  slack_user_id: string;
  /** JSON array of the notification kinds turned off. */
  muted: string;
  /** Quiet hours, local `HH:MM` (both set or both null). */
  quiet_start: string | null;
  quiet_end: string | null;
  /** IANA zone the quiet hours are read in. */
  time_zone: string;
  updated_at: number;
}

/** A DM held back by quiet hours, sent once they end. */
export interface NotificationOutboxTable {
  id: string;
  workspace_id: string;
  slack_user_id: string;
  kind: string;
  /** JSON message body (`text`, `blocks`). */
  body: string;
  deliver_at: number;
  attempts: number;
  created_at: number;
}

/** Participants of an assumption's experiment, picked in Slack (the service cannot hold them). */
export interface ExperimentParticipantsTable {
  workspace_id: string;
  assumption_id: string;
  /** JSON array of planning user ids. */
  planning_user_ids: string;
  updated_at: number;
}

/** Why a provisioned account is to be closed: what made the app forget it. */
export type ClosureReason = 'uninstalled' | 'deactivated' | 'revoked';

/** A provisioned service account still to be closed in the service (migration 0006). */
export interface AccountClosuresTable {
  workspace_id: string;
  service_account_id: string;
  /** Encrypted organization admin token the workspace had when it was forgotten. */
  admin_token: string;
  reason: ClosureReason;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
}

/** The watch's pass over one link: when it is next due, and the replica holding it (migration 0010). */
export interface WatchLinksTable {
  workspace_id: string;
  slack_channel_id: string;
  /** Epoch ms from which the next pass may claim the link. */
  next_at: number;
  owner: string | null;
  lease_until: number | null;
  /** When a pass last finished reading the link (its features are as of then). */
  seen_at: number | null;
  /** Why the last pass could not finish (no secrets), cleared by a pass that does. */
  error: string | null;
  updated_at: number;
}

/** What the watch last saw of one feature of a linked channel (migration 0010). */
export interface WatchFeaturesTable {
  workspace_id: string;
  slack_channel_id: string;
  feature_id: string;
  /** The service's `updatedAt` of the feature when it was seen: unchanged means nothing to compare. */
  updated_at: string | null;
  /** JSON of what was seen (src/watch: `FeatureSeen`). */
  seen: string;
  seen_at: number;
}

/**
 * What Slack itself already did or showed about a service object — a change made from Slack, a
 * discovery recorded from a thread reply — so the watch does not announce it again (migration 0010).
 */
export interface SlackNotesTable {
  workspace_id: string;
  note: string;
  created_at: number;
}

/**
 * A reply in a task card's thread recorded as a discovery of that task, with its author and the
 * task's place, so its edit and deletion follow (migration 0012).
 */
export interface ThreadDiscoveriesTable {
  workspace_id: string;
  slack_channel_id: string;
  message_ts: string;
  thread_ts: string;
  author_slack_id: string;
  org_id: string;
  team_id: string;
  channel_id: string;
  feature_id: string;
  task_id: string;
  discovery_id: string;
  created_at: number;
}

/** Per person, when the newest Home tab snapshot published was read (migration 0015). */
export interface HomePublicationsTable {
  workspace_id: string;
  slack_user_id: string;
  snapshot_at: number;
  updated_at: number;
}

/** A person who let Workflow Builder steps act for them in a workspace (migration 0013). */
export interface WorkflowConsentsTable {
  workspace_id: string;
  slack_user_id: string;
  created_at: number;
}

/**
 * A person who disconnected, and the account they acted with (no token) — until they connect again
 * (migration 0017). `closed`: 0/1, whether that account is known to be closed.
 */
export interface DeparturesTable {
  workspace_id: string;
  slack_user_id: string;
  service_account_id: string;
  planning_user_id: string;
  org_id: string;
  origin: IdentityOrigin;
  closed: number;
  departed_at: number;
}

/** A linked channel's canvas of the plan (migration 0020). */
export interface ChannelCanvasesTable {
  workspace_id: string;
  slack_channel_id: string;
  /** Kept current (1) or turned off (0). */
  enabled: number;
  /** The Slack user who turned it on last: refusals are told to them. */
  turned_on_by: string;
  canvas_id: string | null;
  /** 'channel' (the channel's own canvas) or 'tab' (a canvas tabbed in the channel). */
  canvas_kind: string | null;
  /** 'live', 'gone' (deleted in Slack: not recreated until turned on again) or 'refused'. */
  status: string;
  /** What Slack refused last (its error code), told once. */
  problem: string | null;
  /** Epoch ms of the first change not shown yet; NULL: up to date. */
  dirty_at: number | null;
  /** Epoch ms of the last edit (several changes within a minute are one edit). */
  edited_at: number | null;
  /** JSON [place, digest][]: each feature's section (its stage and id) as last written, in order. */
  sections: string | null;
  created_at: number;
  updated_at: number;
}

/** A DM thread that is one of the app's assistant threads, with its person's context channel (migration 0023). */
export interface AssistantThreadsTable {
  workspace_id: string;
  dm_channel_id: string;
  thread_ts: string;
  slack_user_id: string;
  context_channel_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  installations: InstallationsTable;
  installation_users: InstallationUsersTable;
  workspaces: WorkspacesTable;
  identities: IdentitiesTable;
  channel_links: ChannelLinksTable;
  digest_claims: DigestClaimsTable;
  processed_interactions: ProcessedInteractionsTable;
  posted_cards: PostedCardsTable;
  task_origins: TaskOriginsTable;
  notification_prefs: NotificationPrefsTable;
  notification_outbox: NotificationOutboxTable;
  experiment_participants: ExperimentParticipantsTable;
  account_closures: AccountClosuresTable;
  watch_links: WatchLinksTable;
  watch_features: WatchFeaturesTable;
  slack_notes: SlackNotesTable;
  thread_discoveries: ThreadDiscoveriesTable;
  home_publications: HomePublicationsTable;
  workflow_consents: WorkflowConsentsTable;
  departures: DeparturesTable;
  channel_canvases: ChannelCanvasesTable;
  assistant_threads: AssistantThreadsTable;
}
