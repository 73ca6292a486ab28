/**
 * Who acts: a Slack user → their stored service account, provisioned on first use when the
 * workspace has an organization admin token. A Slack user only ever acts with their own account,
 * and only within the workspace the request came from.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebClient } from '@slack/web-api';
import { orgIdFromToken, type PlanningClient, UnauthorizedError } from '../../planning/index.js';
import type { Identity } from '../../store/index.js';
import { InFlight } from '../bolt/in-flight.js';
import { adminClientFor, type SlackDeps } from './deps.js';
import { type Home, type NotAMember, notAMember } from './membership.js';
import { followSlackProfile, serviceAccountName } from './profile.js';

export type ConnectReason = 'missing' | 'invalid';

/** The acting user has no usable identity: lead them to Connect. */
export class NotConnectedError extends Error {
  override name = 'NotConnectedError';
  constructor(readonly reason: ConnectReason) {
    super(reason === 'invalid' ? 'the stored token was refused' : 'no identity for this Slack user');
  }
}

/** Another Slack user (assignee, peer) has no identity and none can be provisioned. */
export class PeerNotConnectedError extends Error {
  override name = 'PeerNotConnectedError';
  constructor(readonly slackUserId: string) {
    super('that Slack user is not connected');
  }
}

/**
 * A Slack user who may not get a provisioned account (a guest, someone from another organization,
 * a bot, a deactivated user) and has none: `slackUserId` is the acting user or the peer named.
 */
export class NotAMemberError extends Error {
  override name = 'NotAMemberError';
  constructor(
    readonly slackUserId: string,
    readonly reason: NotAMember,
    readonly acting: boolean,
  ) {
    super(`no account is provisioned for this user (${reason})`);
  }
}

/**
 * Why an identity stopped working when an admin closed its account (the admin modal): it is not
 * renewed behind the admin's back; re-opening the account (regenerate) makes it valid again.
 */
export const CLOSED_BY_ADMIN = 'closed-by-admin';

/** How long a replica waits for another one that is provisioning the same user. */
const PROVISIONING_WAIT_MS = 15_000;
const PROVISIONING_POLL_MS = 100;

/** The organization admin token used for provisioning was refused. */
export class AdminTokenError extends Error {
  override name = 'AdminTokenError';
  constructor(cause: unknown) {
    super('the organization admin token was refused', { cause });
  }
}

export interface Acting {
  workspaceId: string;
  slackUserId: string;
  identity: Identity;
  planning: PlanningClient;
}

export { serviceAccountName } from './profile.js';

export function createIdentities(deps: SlackDeps, background = new InFlight()) {
  const { store } = deps;
  /** One provisioning at a time per user in this process; the store key covers other replicas. */
  const inFlight = new Map<string, Promise<Identity | undefined>>();

  async function provision(
    workspaceId: string,
    slackUserId: string,
    slack: WebClient,
    home: Home,
    acting: boolean,
  ) {
    const admin = await adminClientFor(deps, workspaceId);
    if (!admin) return undefined;
    const info = await slack.users.info({ user: slackUserId });
    const refused = notAMember(info.user, home);
    if (refused) {
      // Neither user id is logged: a grader's request must not pair them with the peer.
      deps.logger.info({ workspaceId, reason: refused }, 'provisioning refused: not a full member');
      throw new NotAMemberError(slackUserId, refused, acting);
    }
    const userName = serviceAccountName({ ...info.user?.profile, name: info.user?.name }, slackUserId);
    let account: Awaited<ReturnType<PlanningClient['serviceAccounts']['create']>>;
    try {
      account = await admin.serviceAccounts.create({ roleOrg: 'member', userName });
    } catch (error) {
      if (error instanceof UnauthorizedError) throw new AdminTokenError(error);
      throw error;
    }
    const serviceToken = account.serviceToken;
    const orgId = serviceToken ? orgIdFromToken(serviceToken) : undefined;
    if (!serviceToken || !orgId) throw new Error('the service created an account without a usable token');
    deps.logger.info({ workspaceId, serviceAccountId: account.id }, 'provisioned a service account');
    const saved = await store.identities.save({
      workspaceId,
      slackUserId,
      serviceAccountId: account.id,
      planningUserId: account.id,
      orgId,
      token: serviceToken,
      origin: 'provisioned',
    });
    // Best effort, in the background (a shutdown waits for it): the new account takes the Slack
    // photo as its avatar.
    void background.track(
      followSlackProfile(deps, workspaceId, slackUserId, { ...info.user?.profile, name: info.user?.name }),
    );
    return saved;
  }

  /**
   * Provisions once across replicas: the store lock is taken by one of them; the others wait
   * (bounded) for its account — a user's first command reaching two replicas (a Slack retry) must
   * not answer "not connected" on the one that lost — and take over if it gave up.
   */
  async function provisionOnce(
    workspaceId: string,
    slackUserId: string,
    slack: WebClient,
    home: Home,
    acting: boolean,
  ): Promise<Identity | undefined> {
    const lock = `provision:${workspaceId}:${slackUserId}`;
    const until = Date.now() + PROVISIONING_WAIT_MS;
    for (let waited = false; ; waited = true) {
      if (await store.locks.acquire(lock, 60_000)) {
        try {
          return await provision(workspaceId, slackUserId, slack, home, acting);
        } finally {
          await store.locks.release(lock);
        }
      }
      const identity = await store.identities.get(workspaceId, slackUserId);
      if (identity || Date.now() > until) return identity;
      if (!waited) deps.logger.debug({ workspaceId }, "waiting for another replica's provisioning");
      await sleep(PROVISIONING_POLL_MS);
    }
  }

  /** The user's valid identity, provisioning one when possible; undefined when none can be had. */
  async function resolve(
    workspaceId: string,
    slackUserId: string,
    slack: WebClient,
    home: Home,
    acting: boolean,
  ) {
    const existing = await store.identities.get(workspaceId, slackUserId);
    if (existing) return existing;
    const key = `${workspaceId}:${slackUserId}`;
    let pending = inFlight.get(key);
    if (!pending) {
      pending = provisionOnce(workspaceId, slackUserId, slack, home, acting).finally(() =>
        inFlight.delete(key),
      );
      inFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * A provisioned account whose token was refused gets a new one (regenerate, which also re-opens
   * it), so its user never has to paste a token they never had — unless an admin closed it on
   * purpose. Undefined when that cannot be done.
   */
  async function renew(identity: Identity): Promise<Identity | undefined> {
    if (identity.origin !== 'provisioned' || identity.invalidReason === CLOSED_BY_ADMIN) return undefined;
    const admin = await adminClientFor(deps, identity.workspaceId);
    if (!admin) return undefined;
    try {
      const account = await admin.serviceAccounts.regenerate(identity.serviceAccountId);
      if (!account.serviceToken) return undefined;
      await store.identities.rotateToken(identity.workspaceId, identity.slackUserId, account.serviceToken);
      deps.logger.info(
        { workspaceId: identity.workspaceId, serviceAccountId: account.id },
        'renewed a provisioned token',
      );
      return store.identities.get(identity.workspaceId, identity.slackUserId);
    } catch (error) {
      deps.logger.warn(
        { workspaceId: identity.workspaceId, err: error },
        'could not renew a provisioned token',
      );
      return undefined;
    }
  }

  return {
    /** The acting user, with a client for their own account. @throws {NotConnectedError} {NotAMemberError} */
    async acting(workspaceId: string, slackUserId: string, slack: WebClient, home: Home): Promise<Acting> {
      let identity = await resolve(workspaceId, slackUserId, slack, home, true);
      if (!identity) throw new NotConnectedError('missing');
      if (!identity.valid) identity = await renew(identity);
      if (!identity?.valid) throw new NotConnectedError('invalid');
      return { workspaceId, slackUserId, identity, planning: deps.clients.planning(identity.token) };
    },
    /** Another user's identity (an assignee, a peer). @throws {PeerNotConnectedError} {NotAMemberError} */
    async other(workspaceId: string, slackUserId: string, slack: WebClient, home: Home): Promise<Identity> {
      const identity = await resolve(workspaceId, slackUserId, slack, home, false);
      if (!identity) throw new PeerNotConnectedError(slackUserId);
      return identity;
    },
  };
}

export type Identities = ReturnType<typeof createIdentities>;
