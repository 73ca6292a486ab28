/**
 * The storage layer: installations, workspace settings, identities, channel links, digest claims,
 * once keys and locks, accounts still to close, on SQLite (default) or PostgreSQL, with tokens
 * encrypted at rest.
 *
 * Every repository method that concerns a workspace takes its id first (see {@link workspaceIdFor})
 * and never returns another workspace's rows.
 */
import type { Kysely } from 'kysely';
import { type AccountClosuresRepo, createAccountClosuresRepo } from './account-closures.js';
import { type AssistantThreadsRepo, createAssistantThreadsRepo } from './assistant-threads.js';
import { type ChannelCanvasesRepo, createChannelCanvasesRepo } from './channel-canvases.js';
import { type ChannelLinksRepo, createChannelLinksRepo } from './channel-links.js';
import type { RepoContext } from './context.js';
import type { Keyring } from './crypto.js';
import { type Backend, type DatabaseOptions, openDatabase } from './database.js';
import { createDeparturesRepo, type DeparturesRepo } from './departures.js';
import {
  createDigestClaimsRepo,
  DEFAULT_MAX_DIGEST_ATTEMPTS,
  type DigestClaimsRepo,
} from './digest-claims.js';
import {
  createExperimentParticipantsRepo,
  type ExperimentParticipantsRepo,
} from './experiment-participants.js';
import { createHomePublicationsRepo, type HomePublicationsRepo } from './home-publications.js';
import { createIdentitiesRepo, type IdentitiesRepo } from './identities.js';
import { createInstallationsRepo, type InstallationsRepo } from './installations.js';
import { type StoreLogger, silentLogger } from './logger.js';
import { migrateToLatest } from './migrate.js';
import { createNotificationsRepo, type NotificationsRepo } from './notifications.js';
import { createPostedCardsRepo, type PostedCardsRepo } from './posted-cards.js';
import { createLocksRepo, createOnceRepo, type LocksRepo, type OnceRepo } from './processed-interactions.js';
import { type ReencryptResult, reencryptAll } from './reencrypt.js';
import type { Database } from './schema.js';
import { createSlackNotesRepo, type SlackNotesRepo } from './slack-notes.js';
import { createTaskOriginsRepo, type TaskOriginsRepo } from './task-origins.js';
import { createThreadDiscoveriesRepo, type ThreadDiscoveriesRepo } from './thread-discoveries.js';
import { createWatchRepo, type WatchRepo } from './watch.js';
import { createWorkflowConsentsRepo, type WorkflowConsentsRepo } from './workflow-consents.js';
import { createWorkspacesRepo, type WorkspacesRepo } from './workspaces.js';

export * from './account-closures.js';
export * from './assistant-threads.js';
export * from './channel-canvases.js';
export * from './channel-links.js';
export { createKeyring, DecryptionError, type Keyring, type KeyringOptions } from './crypto.js';
export type { Backend } from './database.js';
export * from './departures.js';
export * from './digest-claims.js';
export { StoreNotWritableError, StoreUnavailableError, StoreValidationError } from './errors.js';
export * from './experiment-participants.js';
export * from './home-publications.js';
export * from './housekeeping.js';
export * from './identities.js';
export * from './installations.js';
export * from './keeps.js';
export { resolveKeyring } from './keys.js';
export type { StoreLogger } from './logger.js';
export * from './notifications.js';
export * from './posted-cards.js';
export * from './processed-interactions.js';
export type { ReencryptResult } from './reencrypt.js';
export type { Database } from './schema.js';
export * from './slack-notes.js';
export * from './task-origins.js';
export * from './thread-discoveries.js';
export * from './watch.js';
export * from './workflow-consents.js';
export * from './workspaces.js';

export interface StoreOptions extends DatabaseOptions {
  keyring: Keyring;
  /** Clock in epoch ms (default Date.now); tests inject one. */
  now?: () => number;
  logger?: StoreLogger;
  /** Attempts a digest (link, date) gets before it is given up (default 3). */
  digestMaxAttempts?: number;
}

export interface Store {
  db: Kysely<Database>;
  backend: Backend;
  installations: InstallationsRepo;
  workspaces: WorkspacesRepo;
  identities: IdentitiesRepo;
  /** People who disconnected, and the account each left (no token), until they connect again. */
  departures: DeparturesRepo;
  links: ChannelLinksRepo;
  digests: DigestClaimsRepo;
  /** Work done once however often it is asked for (a submission, an operation, a held DM): `once.run`. */
  once: OnceRepo;
  /** Work one replica does at a time (a card press, a digest posted now, provisioning): `locks.with`. */
  locks: LocksRepo;
  /** Cards posted for tasks and features, updated in place after a change. */
  cards: PostedCardsRepo;
  /** Where and by whom tasks were created from Slack. */
  taskOrigins: TaskOriginsRepo;
  /** Notification preferences and DMs held back by quiet hours. */
  notifications: NotificationsRepo;
  /** Who took part in an assumption's experiment, as picked in Slack. */
  participants: ExperimentParticipantsRepo;
  /** Provisioned accounts of forgotten people still to close in the service. */
  closures: AccountClosuresRepo;
  /** What Slack already did or showed about service objects, so the watch does not echo it. */
  slackNotes: SlackNotesRepo;
  /** Replies in task card threads recorded as discoveries, so their edits and deletions follow. */
  threadDiscoveries: ThreadDiscoveriesRepo;
  workflowConsents: WorkflowConsentsRepo;
  /** The app's assistant threads and the channel each person is looking at in them. */
  assistantThreads: AssistantThreadsRepo;
  /** The watch of linked channels: its lease and due time per link, what it saw per feature. */
  watch: WatchRepo;
  /** Per person, the newest Home tab snapshot published (no replica publishes an older one). */
  homes: HomePublicationsRepo;
  /** Linked channels' canvases of the plan: their ids, what waits to be shown, what Slack refused. */
  canvases: ChannelCanvasesRepo;
  /** Rewrites every ciphertext under the keyring's current key; returns how many rows changed. */
  reencryptAll(): Promise<ReencryptResult>;
  /** Releases the database (pool or file). */
  close(): Promise<void>;
}

/** Opens the database, applies pending migrations, and returns the repositories. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const logger = options.logger ?? silentLogger;
  const { db, backend, schema } = await openDatabase(options, logger);
  try {
    const { applied, newer } = await migrateToLatest(db, schema);
    if (applied.length > 0) logger.info(`Store (${backend}) migrated: ${applied.join(', ')}`);
    if (newer.length > 0) {
      logger.warn(
        `Store (${backend}) was migrated by a newer version (${newer.join(', ')}); running on it as it is`,
      );
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const context: RepoContext = { db, keyring: options.keyring, now: options.now ?? Date.now };
  return {
    db,
    backend,
    installations: createInstallationsRepo(context),
    workspaces: createWorkspacesRepo(context),
    identities: createIdentitiesRepo(context),
    departures: createDeparturesRepo(context),
    links: createChannelLinksRepo(context),
    digests: createDigestClaimsRepo(context, options.digestMaxAttempts ?? DEFAULT_MAX_DIGEST_ATTEMPTS),
    once: createOnceRepo(context, logger),
    locks: createLocksRepo(context, logger),
    cards: createPostedCardsRepo(context),
    taskOrigins: createTaskOriginsRepo(context),
    notifications: createNotificationsRepo(context),
    participants: createExperimentParticipantsRepo(context),
    closures: createAccountClosuresRepo(context),
    slackNotes: createSlackNotesRepo(context),
    threadDiscoveries: createThreadDiscoveriesRepo(context),
    workflowConsents: createWorkflowConsentsRepo(context),
    assistantThreads: createAssistantThreadsRepo(context),
    watch: createWatchRepo(context),
    homes: createHomePublicationsRepo(context),
    canvases: createChannelCanvasesRepo(context),
    reencryptAll: () => reencryptAll(db, options.keyring),
    close: () => db.destroy(),
  };
}
