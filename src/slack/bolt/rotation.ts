/**
 * Token rotation (`settings.token_rotation_enabled`): Slack's access tokens then expire after 12
 * hours and are renewed with a refresh token that works once. This wraps the store's
 * InstallationStore so that an installation is refreshed before its token expires, by exactly one
 * replica at a time:
 *
 * - A fetch (Bolt's authorize, or the digest's `botToken`) of an installation whose bot token
 *   expires within {@link REFRESH_WITHIN_MS} claims it in the store (a lease, one conditional
 *   UPDATE); only the claimant reads the refresh token again, under its claim, and spends it. The
 *   lease outlasts the refresh call's timeout, so no second replica can take over while a call is
 *   still in flight — a refresh token is never sent twice.
 * - Another replica meanwhile serves the current token, still valid for hours; only a token
 *   already expired (nobody used the app for 12 hours) makes it wait for the claimant.
 * - Bolt is never handed the refresh token: its own authorize would refresh unclaimed, in every
 *   replica at once, and swallow a refusal.
 * - Slack refusing the refresh (`invalid_refresh_token`, a revoked app…) marks the installation as
 *   lapsed: it needs reinstalling, which `lapsed()` tells the app's users (see install/lapsed.ts).
 *   A failure that is not Slack's answer (network, 5xx) releases the claim; the next use tries again.
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

export interface Lapse {
  at: Date;
  /** Slack's error, e.g. `invalid_refresh_token`. */
  reason: string;
}

export interface TokenRotationOptions {
  repo: Pick<
    InstallationsRepo,
    'installationStore' | 'read' | 'claimRefresh' | 'saveRefreshed' | 'releaseRefresh' | 'markLapsed'
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
  /** Whether the installation lapsed (Slack refused a refresh), as this replica last saw it. */
  lapsed(installationKey: string): Lapse | undefined;
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
    let installation: Installation;
    let answer: Awaited<ReturnType<WebClient['oauth']['v2']['access']>>;
    try {
      const stored = await repo.read(key);
      // Another replica may have refreshed between our look and our claim: nothing left to do.
      if (!stored?.installation.bot?.refreshToken || !due(stored.installation)) {
        await repo.releaseRefresh(key, owner);
        return;
      }
      installation = stored.installation;
      answer = await slack.oauth.v2.access({
        client_id: options.clientId,
        client_secret: options.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: stored.installation.bot.refreshToken,
      });
    } catch (error) {
      if (isPlatformError(error)) {
        const reason = error.data.error;
        await repo.markLapsed(key, owner, reason);
        lapses.set(key, { at: new Date(now()), reason });
        logger.error(
          { installationKey: key, reason },
          'Slack refused to refresh the installation’s token: it must be reinstalled',
        );
      } else {
        await repo.releaseRefresh(key, owner);
        logger.warn({ installationKey: key, err: error }, 'token refresh failed; the next use tries again');
      }
      return;
    }
    const bot = installation.bot as NonNullable<Installation['bot']>;
    if (!answer.access_token || !answer.refresh_token || answer.expires_in === undefined) {
      await repo.releaseRefresh(key, owner);
      logger.error({ installationKey: key }, 'oauth.v2.access answered a refresh without tokens');
      return;
    }
    const refreshed: Installation = {
      ...installation,
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
      const ms = left(stored.installation);
      // Still valid: serve it while the other replica refreshes. Expired: wait for it, a while.
      if (ms === undefined || ms > 0 || !due(stored.installation) || now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** The stored installation answering `query`, refreshed first when due. */
  async function fetchFresh(query: InstallationQuery<boolean>): Promise<Installation> {
    const key = installationKeyFor(query);
    let installation = await base.fetchInstallation(query);
    if (left(installation) === undefined) {
      lapses.delete(key);
      return installation;
    }
    if (due(installation)) {
      await ensureFresh(key);
      installation = await base.fetchInstallation(query);
    } else lapses.delete(key);
    return installation;
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
      if (left(stored.installation) === undefined || !due(stored.installation))
        return stored.installation.bot?.token;
      await ensureFresh(key);
      return (await repo.read(key))?.installation.bot?.token;
    },
    lapsed: (key) => lapses.get(key),
  };
}
