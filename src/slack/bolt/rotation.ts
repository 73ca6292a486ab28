/**
 * Token rotation (`settings.token_rotation_enabled`): Slack's access tokens then expire after 12
 * hours and are renewed with a refresh token that works once. This wraps the store's
 * InstallationStore so that an installation is refreshed before its token expires, by exactly one
 * replica at a time:
 *
 * - The jobs' minute tick ({@link TokenRotation.refreshDue}) and any fetch (Bolt's authorize, the
 *   digest's `botToken`) of an installation whose bot token expires within {@link REFRESH_WITHIN_MS}
 *   start its refresh in the background and serve the current token, still valid for hours: no
 *   request's ack waits for Slack's OAuth. Only a token already expired makes a fetch wait.
 * - The refresh claims the installation in the store (a lease, one conditional UPDATE); only the
 *   claimant reads the refresh token again, under its claim, and spends it. The lease outlasts the
 *   refresh call's timeout, so no second replica can take over while a call is still in flight — a
 *   refresh token is never sent twice.
 * - Bolt is never handed the refresh token: its own authorize would refresh unclaimed, in every
 *   replica at once, and swallow a refusal.
 * - Slack refusing the refresh ({@link REFUSALS}: `invalid_refresh_token`, a revoked app…) marks
 *   the installation as lapsed: it needs reinstalling, which `lapsed()` tells the app's users (see
 *   install/lapsed.ts). Any other failure is passing (`service_unavailable`, `ratelimited`, a 5xx, a
 *   timeout, a reset): the claim is given up and no replica tries again before a backoff, stored
 *   with the installation ({@link retryDelayMs}: 30 s doubling to 10 minutes, so a 3-hour window
 *   holds many attempts before the token expires).
 *
 * Only bot tokens are refreshed: the app asks for no user scope, so no user token rotates.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import { ErrorCode, type WebAPIPlatformError, WebClient } from '@slack/web-api';
import { SLACK_CLIENT_OPTIONS } from '../../clients.js';
import type { Logger } from '../../logger.js';
import { type InstallationsRepo, installationKeyFor, installationKeyOfWorkspace } from '../../store/index.js';

/** Refresh when less than this is left (Bolt's own window is 2 hours; tokens live 12). */
export const REFRESH_WITHIN_MS = 3 * 60 * 60_000;
/** How long the refresh call may take: well inside the lease. */
const REFRESH_TIMEOUT_MS = 10_000;
/** How long a claim holds; longer than the call, so a claim is never taken over mid-call. */
const LEASE_MS = 6 * REFRESH_TIMEOUT_MS;
/** How long a fetch of an expired token waits for the replica refreshing it. */
const WAIT_MS = 15_000;
/** Installations the jobs refresh per tick at most (the rest on the next). */
const DUE_PER_TICK = 100;

/**
 * Slack's answers to a refresh that mean the app must be reinstalled: the refresh token, the app's
 * credentials or the grant itself are no longer good. Anything else is passing and tried again.
 */
export const REFUSALS: ReadonlySet<string> = new Set([
  'invalid_refresh_token',
  'invalid_client_id',
  'bad_client_secret',
  'invalid_client',
  'invalid_grant_type',
  'token_revoked',
  'app_uninstalled',
  'account_inactive',
  'team_disabled',
  'org_login_required',
]);

/** Before the next attempt after `failures` passing failures in a row (the first: 30 s). */
export function retryDelayMs(failures: number): number {
  return Math.min(10 * 60_000, 30_000 * 2 ** Math.max(0, failures));
}

export interface Lapse {
  at: Date;
  /** Slack's error, e.g. `invalid_refresh_token`. */
  reason: string;
}

export interface TokenRotationOptions {
  repo: Pick<
    InstallationsRepo,
    | 'installationStore'
    | 'read'
    | 'claimRefresh'
    | 'saveRefreshed'
    | 'releaseRefresh'
    | 'deferRefresh'
    | 'dueForRefresh'
    | 'markLapsed'
  >;
  clientId: string;
  clientSecret: string;
  slackApiUrl: string;
  /** The one Slack sender (Clients.slackFetch): `oauth.v2.access` is never sent again once it may have reached Slack. */
  slackFetch?: typeof fetch;
  logger: Logger;
  /** Epoch ms (tests move it). */
  now?: () => number;
  /** This replica's name in claims. */
  owner?: string;
  /** Between two looks at a claim held by another replica. */
  pollMs?: number;
}

export interface TokenRotation {
  /** Bolt's InstallationStore: fetches refresh first when due, and never carry a refresh token. */
  readonly installationStore: InstallationStore;
  /** The bot token serving a workspace id (refreshed when due), for work outside a request. */
  botToken(workspaceId: string): Promise<string | undefined>;
  /**
   * Whether the installation lapsed (Slack refused a refresh), as this replica last saw it — once
   * the refresh it is running in the background for it, if any, is over (call it after the ack).
   */
  lapsed(installationKey: string): Promise<Lapse | undefined>;
  /** The jobs' tick: refreshes every installation due (one replica each), ahead of expiry. */
  refreshDue(): Promise<void>;
}

/** The installation as Bolt may see it: no refresh token, no expiry (so it never refreshes itself). */
function withoutRotation(installation: Installation): Installation {
  const copy = { ...installation };
  if (copy.bot) copy.bot = { ...copy.bot, refreshToken: undefined, expiresAt: undefined };
  copy.user = { ...copy.user, refreshToken: undefined, expiresAt: undefined };
  return copy;
}

const isPlatformError = (error: unknown): error is WebAPIPlatformError =>
  (error as { code?: unknown })?.code === ErrorCode.PlatformError;

export function createTokenRotation(options: TokenRotationOptions): TokenRotation {
  const { repo, logger } = options;
  const now = options.now ?? Date.now;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const pollMs = options.pollMs ?? 100;
  const base = repo.installationStore;
  // No blind retries (the sender's table): a refresh sent again could spend a refresh token twice.
  const slack = new WebClient(undefined, {
    slackApiUrl: options.slackApiUrl,
    ...SLACK_CLIENT_OPTIONS,
    timeout: REFRESH_TIMEOUT_MS,
    ...(options.slackFetch ? { fetch: options.slackFetch } : {}),
  });
  /** Lapses seen by this replica (bounded by the installations it serves). */
  const lapses = new Map<string, Lapse>();

  /** Milliseconds left on the bot token; undefined when it does not expire (no rotation). */
  const left = (installation: Installation): number | undefined => {
    const { refreshToken, expiresAt } = installation.bot ?? {};
    return refreshToken && expiresAt !== undefined ? expiresAt * 1000 - now() : undefined;
  };
  const due = (installation: Installation) => {
    const ms = left(installation);
    return ms !== undefined && ms <= REFRESH_WITHIN_MS;
  };

  /** Spends the refresh token of `key`, holding its claim; the claim ends on every path. */
  async function refreshClaimed(key: string) {
    let installation: Installation | undefined;
    let answer: Awaited<ReturnType<WebClient['oauth']['v2']['access']>>;
    let failures = 0;
    try {
      const stored = await repo.read(key);
      // Another replica may have refreshed between our look and our claim: nothing left to do.
      if (!stored?.installation.bot?.refreshToken || !due(stored.installation)) {
        await repo.releaseRefresh(key, owner);
        return;
      }
      installation = stored.installation;
      failures = stored.refresh?.failures ?? 0;
      answer = await slack.oauth.v2.access({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: stored.installation.bot.refreshToken,
      });
    } catch (error) {
      const reason = isPlatformError(error) ? error.data.error : undefined;
      if (reason !== undefined && REFUSALS.has(reason)) {
        await repo.markLapsed(key, owner, reason);
        lapses.set(key, { at: new Date(now()), reason });
        logger.error(
          { installationKey: key, reason },
          'Slack refused to refresh the installation’s token: it must be reinstalled',
        );
        return;
      }
      // Passing (Slack unavailable or rate limiting, a 5xx, a timeout, a reset): tried again later,
      // by whichever replica comes first once the backoff has passed.
      const retryAt = now() + retryDelayMs(failures);
      await repo.deferRefresh(key, owner, retryAt);
      const expiresAt = (installation?.bot?.expiresAt ?? Number.POSITIVE_INFINITY) * 1000;
      const log = { installationKey: key, reason: reason ?? String(error), failures: failures + 1, retryAt };
      if (expiresAt <= retryAt)
        logger.error(log, 'token refresh failed and the token expires before the next try');
      else logger.warn(log, 'token refresh failed for a passing reason; trying again after a backoff');
      return;
    }
    const current = installation as Installation;
    const bot = current.bot as NonNullable<Installation['bot']>;
    if (!answer.access_token || !answer.refresh_token || answer.expires_in === undefined) {
      await repo.releaseRefresh(key, owner);
      logger.error({ installationKey: key }, 'oauth.v2.access answered a refresh without tokens');
      return;
    }
    const refreshed: Installation = {
      ...current,
      bot: {
        ...bot,
        token: answer.access_token,
        refreshToken: answer.refresh_token,
        expiresAt: Math.floor(now() / 1000) + answer.expires_in,
      },
    };
    if (await repo.saveRefreshed(key, owner, refreshed)) {
      lapses.delete(key);
      logger.info({ installationKey: key }, 'Slack tokens refreshed');
    } else {
      logger.warn({ installationKey: key }, 'refreshed tokens not saved: the installation changed meanwhile');
    }
  }

  /** Makes `key`'s tokens fresh when due: refreshes them, or lets the replica holding the claim. */
  async function ensureFresh(key: string) {
    const deadline = now() + WAIT_MS;
    for (;;) {
      if (await repo.claimRefresh(key, owner, LEASE_MS)) return refreshClaimed(key);
      const stored = await repo.read(key);
      if (!stored) return;
      if (stored.lapsed) {
        lapses.set(key, stored.lapsed);
        return;
      }
      // A passing failure's backoff: nobody is refreshing it until then.
      if (stored.refresh && stored.refresh.retryAt.getTime() > now()) return;
      const ms = left(stored.installation);
      // Still valid: serve it while the other replica refreshes. Expired: wait for it, a while.
      if (ms === undefined || ms > 0 || !due(stored.installation) || now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** Refreshes started in the background by this replica, by installation key (one at a time each). */
  const inBackground = new Map<string, Promise<void>>();
  /** Starts `key`'s refresh without anyone waiting for it; failures are logged, never thrown. */
  function refreshInBackground(key: string): Promise<void> {
    let running = inBackground.get(key);
    if (!running) {
      running = ensureFresh(key)
        .catch((error: unknown) => {
          logger.warn({ installationKey: key, err: error }, 'token refresh could not run; tried again later');
        })
        .finally(() => inBackground.delete(key));
      inBackground.set(key, running);
    }
    return running;
  }

  /** The installation's token, fresh enough to serve: expired, it waits for the refresh; due, it starts it. */
  async function serveable(
    key: string,
    installation: Installation,
    again: () => Promise<Installation | undefined>,
  ) {
    const ms = left(installation);
    if (ms === undefined) {
      lapses.delete(key);
      return installation;
    }
    if (!due(installation)) {
      lapses.delete(key);
      return installation;
    }
    if (ms > 0) {
      // Still valid for a while: served now, refreshed meanwhile (no ack waits for Slack's OAuth).
      void refreshInBackground(key);
      return installation;
    }
    await refreshInBackground(key);
    return (await again()) ?? installation;
  }

  /** The stored installation answering `query`, refreshed when due (waiting only once expired). */
  async function fetchFresh(query: InstallationQuery<boolean>): Promise<Installation> {
    const key = installationKeyFor(query);
    const installation = await base.fetchInstallation(query);
    return serveable(key, installation, () => base.fetchInstallation(query));
  }

  const installationStore: InstallationStore = {
    storeInstallation: async (installation, log) => {
      await base.storeInstallation(installation, log);
      lapses.delete(
        installationKeyFor({
          isEnterpriseInstall: installation.isEnterpriseInstall === true,
          enterpriseId: installation.enterprise?.id,
          teamId: installation.team?.id,
        }),
      );
    },
    fetchInstallation: async (query) => withoutRotation(await fetchFresh(query)),
    deleteInstallation: (query, log) => base.deleteInstallation?.(query, log) ?? Promise.resolve(),
  };

  return {
    installationStore,
    async botToken(workspaceId) {
      const key = installationKeyOfWorkspace(workspaceId);
      const stored = await repo.read(key);
      if (!stored) return undefined;
      if (stored.lapsed) lapses.set(key, stored.lapsed);
      const installation = await serveable(
        key,
        stored.installation,
        async () => (await repo.read(key))?.installation,
      );
      return installation.bot?.token;
    },
    async lapsed(key) {
      await inBackground.get(key);
      return lapses.get(key);
    },
    async refreshDue() {
      const keys = await repo.dueForRefresh(now() + REFRESH_WITHIN_MS, DUE_PER_TICK);
      for (const key of keys) await refreshInBackground(key);
    },
  };
}
