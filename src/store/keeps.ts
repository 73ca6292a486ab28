/**
 * How long each use of once keys (`store.once.run`) and locks (`store.locks.with`) keeps its key,
 * and how long Slack's word that someone is a full member is taken, with why — in one place, so
 * that they can be compared and none is chosen in passing.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long a once key is kept: a repeat within it gets the first outcome (or waits for it). */
export const ONCE_TTL = {
  /** A form submission: far beyond Slack's retries and a double click; a person reopening the same view a day later is not a retry. */
  submission: DAY,
  /** A confirmed admin button (view, hash and target): as long as a submission, for the same reasons. */
  adminOperation: DAY,
  /** A workflow step's execution id: far beyond Slack's retries of one delivery. */
  workflowExecution: DAY,
  /** A thread reply's delivery (`message` event by channel and ts): far beyond Slack's retries of one event. */
  threadReply: DAY,
  /** An event a person sent the app (a message in its DM), by its route's key: far beyond Slack's retries of one event. */
  personEvent: DAY,
  /** A link pasted again in the same channel within this is not previewed again. */
  linkPreviewWindow: 10 * MINUTE,
  /** An applied Slack profile version: long, since a version applied once need not be applied again. */
  profileVersion: 90 * DAY,
  /** A held DM taken by one replica: the bound on a replica that died sending it. */
  heldDm: 10 * MINUTE,
  /** A provisioned account being closed by one replica: the bound on a replica that died closing it. */
  accountClosure: 5 * MINUTE,
  /** A watch effect (an activity message, a DM) taken by one replica; done ones are marked for good in slack notes. */
  watchEffect: 10 * MINUTE,
} as const;

/** How long a lock's lease lasts: the bound on a holder that died holding it. */
export const LOCK_LEASE = {
  /** A card press on one entity: a service read, the change and the card updates, each bounded by its client's timeout. */
  cardPress: MINUTE,
  /** `/plan digest now` in one channel: a service read of the channel's features and tasks, then one post. */
  digestNow: 2 * MINUTE,
  /**
   * Provisioning one person: an account created (and, for a person named in a form, the one change
   * that names them), each bounded by the planning client's timeout. Should it run out all the same,
   * the account stored first stands and a later one is closed: a race never leaves an account open.
   */
  provisioning: MINUTE,
  /** A reply to one feedback: a task read and the reply, each bounded by the planning client's timeout. */
  feedbackReply: MINUTE,
  /** Bringing one channel's canvas up to date: a listing of its features, then one edit (two with a lookup). */
  canvasEdit: 2 * MINUTE,
} as const;

/**
 * How long Slack's word that a connected person is a full member of the workspace (users.info,
 * recorded on their identity) is taken without asking again (kit/acting.ts). Asking on every
 * request would cost a Slack round trip each time and exhaust users.info's per-workspace rate limit
 * (Tier 4) in a busy workspace; a person who becomes a guest, a bot or someone of another
 * organization is told by `user_change`, which clears the confirmation at once, so this only bounds
 * how stale it can be when that event is lost. Deactivation forgets the identity itself.
 */
export const MEMBER_CONFIRMATION_TTL = 10 * MINUTE;
