/**
 * Who acts: a Slack user → their stored service account, provisioned on first use when the
 * workspace has an organization admin token, once across replicas. A Slack user only ever acts with
 * their own account, and only within the workspace the request came from. The people a form names
 * (`named`) are checked first and given an account only for a change the service accepts.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import type { WebClient } from '@slack/web-api';
import {
  InvalidArgumentError,
  NetworkError,
  NotFoundError,
  orgIdFromToken,
  type PlanningClient,
  PlanningError,
  UnauthorizedError,
} from '../../planning/index.js';
import { type Departure, type Identity, type IdentityInput, LOCK_LEASE } from '../../store/index.js';
import { InFlight } from '../bolt/in-flight.js';
import { adminClientFor, type SlackDeps } from './deps.js';
import { type Home, type NotAMember, notAMember } from './membership.js';
import type { ConnectReason } from './messages.js';
import { followSlackProfile, type SlackProfile, serviceAccountName } from './profile.js';
import { slackUserOf } from './slack-user.js';

export type { ConnectReason } from './messages.js';

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

/** What the next command asks someone who disconnected (see messages.ts `ConnectReason`). */
export function leftReason(departure: Pick<Departure, 'origin' | 'closed'>): ConnectReason {
  if (departure.closed) return 'left-closed';
  return departure.origin === 'provisioned' ? 'left-open' : 'left-pasted';
}

/**
 * What a press of *Connect again* or *Start with a new account* came to: the person acts again
 * (`again`: with the account they left; `new`: a new one), was connected already (a retry, a double
 * click, another replica), or has to choose another way (`ask`: why, as the message says it).
 */
export type Reconnected =
  | { outcome: 'connected'; identity: Identity; account: 'again' | 'new' }
  | { outcome: 'already'; identity: Identity }
  | { outcome: 'ask'; reason: ConnectReason };

/** How long a replica waits for another one that is provisioning the same user. */
const PROVISIONING_WAIT_MS = 15_000;
const PROVISIONING_POLL_MS = 100;
/** The provisioning lock of one person: `provision:<workspace>:<Slack user>` in `store.locks`. */
const provisioningLock = (workspaceId: string, slackUserId: string) =>
  `provision:${workspaceId}:${slackUserId}`;

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

/**
 * Who reads a task or a feature for a card: a person acting (their own client), or the watch of a
 * linked channel (src/slack/watch/, with the digest's access rule) — a planning client in a workspace.
 */
export type CardReader = Pick<Acting, 'workspaceId' | 'planning'>;

/** A person named in a form — an assignee, a participant, a graded peer, someone added to a team — as the change names them. */
export interface NamedPerson {
  slackUserId: string;
  planningUserId: string;
}

/** One {@link NamedPerson} for each Slack user id given, in the same order (a tuple stays a tuple). */
export type NamedPeopleOf<T extends readonly string[]> = { -readonly [K in keyof T]: NamedPerson };

/**
 * The people a form names, checked — each has an identity here, or is a full member of the
 * workspace the app can give an account (anyone else was refused with one sentence) — and nothing
 * provisioned yet.
 */
export interface NamedPeople<T extends readonly string[]> {
  /**
   * Makes the service change that names them, with their planning accounts. An account that has to
   * be made is made just before the change, under the person's provisioning lock, and stored only
   * once the service accepted the change; when the service refuses it (or it never reached the
   * service) the account is closed, so a refused action leaves no account behind. When the outcome
   * is unknown (a timeout, a 5xx: the change may have been applied) the account is kept, stored and
   * so held. Rejects with what `change` threw.
   */
  apply<R>(change: (people: NamedPeopleOf<T>) => Promise<R>): Promise<R>;
}

export { serviceAccountName } from './profile.js';

/**
 * Whether the service surely did not apply a call that failed: it answered with a refusal (4xx),
 * or the request never left (refused by the client, or no connection was made). A timeout or a 5xx
 * says nothing about it.
 */
function refusedByService(error: unknown): boolean {
  if (!(error instanceof PlanningError)) return false;
  if (error instanceof InvalidArgumentError && error.local) return true;
  if (error instanceof NetworkError) return error.notSent;
  return error.status !== undefined && error.status >= 400 && error.status < 500;
}

/** An account the app made for a person, not stored yet. */
interface Made {
  identity: IdentityInput;
  /** Their Slack profile, which the account follows once it is kept. */
  profile: SlackProfile;
}

export function createIdentities(deps: SlackDeps, background = new InFlight()) {
  const { store, logger } = deps;
  /** One provisioning at a time per user in this process; the store's lock covers other replicas. */
  const inFlight = new Map<string, Promise<Identity | undefined>>();

  /** Slack's word that a person with no identity may get one. @throws {NotAMemberError} */
  async function fullMember(
    workspaceId: string,
    slackUserId: string,
    slack: WebClient,
    home: Home,
    acting: boolean,
  ): Promise<SlackProfile> {
    const user = await slackUserOf(slack, slackUserId);
    const refused = notAMember(user, home);
    if (refused) {
      // Neither user id is logged: a grader's request must not pair them with the peer.
      logger.info({ workspaceId, reason: refused }, 'provisioning refused: not a full member');
      throw new NotAMemberError(slackUserId, refused, acting);
    }
    return { ...user?.profile, name: user?.name };
  }

  /**
   * Runs `work` for the person, given their stored identity if there is one; else under their
   * provisioning lock (across replicas), given the identity stored meanwhile, if any: the store is
   * read again once the lock is taken, since the replica it waited for may have stored the identity
   * and let go just before — provisioning then would make a second account. While another replica
   * holds the lock, its identity is looked for again every poll, for a bounded wait. Undefined when
   * neither came within it.
   */
  async function provisioning<R>(
    workspaceId: string,
    slackUserId: string,
    work: (stored: Identity | undefined) => Promise<R>,
  ): Promise<{ value: R } | undefined> {
    const until = Date.now() + PROVISIONING_WAIT_MS;
    for (let waited = false; ; waited = true) {
      const found = await store.identities.get(workspaceId, slackUserId);
      if (found) return { value: await work(found) };
      const locked = await store.locks.with(
        provisioningLock(workspaceId, slackUserId),
        LOCK_LEASE.provisioning,
        async () => work(await store.identities.get(workspaceId, slackUserId)),
      );
      if (locked.ran) return { value: locked.value };
      if (Date.now() > until) return undefined;
      if (!waited) logger.debug({ workspaceId }, "waiting for another replica's provisioning");
      await sleep(PROVISIONING_POLL_MS);
    }
  }

  /** A new service account for the person, not stored yet. @throws {AdminTokenError} */
  async function create(
    admin: PlanningClient,
    workspaceId: string,
    slackUserId: string,
    profile: SlackProfile,
  ): Promise<Made> {
    const userName = serviceAccountName(profile, slackUserId);
    let account: Awaited<ReturnType<PlanningClient['serviceAccounts']['create']>>;
    try {
      account = await admin.serviceAccounts.create({ roleOrg: 'member', userName });
    } catch (error) {
      if (error instanceof UnauthorizedError) throw new AdminTokenError(error);
      throw error;
    }
    const serviceToken = account.serviceToken;
    const orgId = serviceToken ? orgIdFromToken(serviceToken) : undefined;
    if (!serviceToken || !orgId) {
      await discard(admin, workspaceId, account.id, 'it came without a usable token');
      throw new Error('the service created an account without a usable token');
    }
    logger.info({ workspaceId, serviceAccountId: account.id }, 'provisioned a service account');
    return {
      identity: {
        workspaceId,
        slackUserId,
        serviceAccountId: account.id,
        planningUserId: account.id,
        orgId,
        token: serviceToken,
        origin: 'provisioned',
      },
      profile,
    };
  }

  /**
   * Closes an account the app made and does not keep: open, it would hold a token nobody has. A
   * failure is logged with the account, for an admin to close; it never hides the caller's outcome.
   */
  async function discard(admin: PlanningClient, workspaceId: string, serviceAccountId: string, why: string) {
    try {
      await admin.serviceAccounts.close(serviceAccountId);
      logger.info({ workspaceId, serviceAccountId }, `closed a service account the app made: ${why}`);
    } catch (error) {
      logger.error(
        { workspaceId, serviceAccountId, err: error },
        `could not close a service account the app made (${why}); it stays open`,
      );
    }
  }

  /**
   * Stores a made account as the person's identity — unless one was stored meanwhile (a replica
   * whose lock's lease ran out, the person's own pasted token): that one stands, and the made
   * account is closed. The identity that stands is returned.
   */
  async function keep(admin: PlanningClient, made: Made): Promise<Identity> {
    const { workspaceId, slackUserId, serviceAccountId } = made.identity;
    let stored: Awaited<ReturnType<typeof store.identities.add>>;
    try {
      stored = await store.identities.add(made.identity);
    } catch (error) {
      // Not stored (or not known to be): closed. Were it stored after all, its token's refusal
      // renews it on first use (regenerate re-opens it).
      await discard(admin, workspaceId, serviceAccountId, 'it could not be stored');
      throw error;
    }
    if (!stored.added) {
      await discard(admin, workspaceId, serviceAccountId, 'another account was stored for the person first');
      return stored.identity;
    }
    // Best effort, in the background (a shutdown waits for it): the new account takes the Slack
    // photo as its avatar.
    void background.track(followSlackProfile(deps, workspaceId, slackUserId, made.profile));
    return stored.identity;
  }

  /** Provisions the acting user once across replicas (see `provisioning`); undefined when none can be had. */
  async function provision(workspaceId: string, slackUserId: string, slack: WebClient, home: Home) {
    const admin = await adminClientFor(deps, workspaceId);
    if (!admin) return undefined;
    const profile = await fullMember(workspaceId, slackUserId, slack, home, true);
    // Someone who disconnected is asked what to do, whatever surface they come back by: a new
    // account made unasked would hide their tasks and grades and list them twice.
    const departure = await store.departures.get(workspaceId, slackUserId);
    if (departure) throw new NotConnectedError(leftReason(departure));
    const provisioned = await provisioning(
      workspaceId,
      slackUserId,
      async (stored) => stored ?? keep(admin, await create(admin, workspaceId, slackUserId, profile)),
    );
    return provisioned?.value;
  }

  /**
   * The acting user's identity, provisioning one when possible; undefined when none can be had.
   * `stored` is the store's answer when the request already asked it (kit/acting.ts).
   */
  async function resolve(
    workspaceId: string,
    slackUserId: string,
    slack: WebClient,
    home: Home,
    stored?: Promise<Identity | undefined>,
  ) {
    const existing = await (stored ?? store.identities.get(workspaceId, slackUserId));
    if (existing) return existing;
    const key = `${workspaceId}:${slackUserId}`;
    let pending = inFlight.get(key);
    if (!pending) {
      pending = provision(workspaceId, slackUserId, slack, home).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  }

  /**
   * The account the person left, given back with a new token (regenerate) — only while it is open:
   * regenerating would re-open a closed one behind whoever closed it. Under the person's lock, with
   * the store read again: a retry or a double click finds them connected and changes nothing.
   */
  async function connectAgain(
    admin: PlanningClient,
    workspaceId: string,
    slackUserId: string,
    departure: Departure | undefined,
  ): Promise<Reconnected> {
    if (!departure || leftReason(departure) !== 'left-open') {
      return { outcome: 'ask', reason: departure ? leftReason(departure) : 'missing' };
    }
    const { serviceAccountId } = departure;
    let closed: boolean;
    try {
      closed = (await admin.serviceAccounts.read(serviceAccountId)).closedTime !== 0;
    } catch (error) {
      if (error instanceof UnauthorizedError) throw new AdminTokenError(error);
      if (!(error instanceof NotFoundError)) throw error;
      closed = true;
    }
    if (closed) {
      await store.departures.markClosed(workspaceId, slackUserId);
      return { outcome: 'ask', reason: 'left-closed' };
    }
    let token: string | undefined;
    try {
      token = (await admin.serviceAccounts.regenerate(serviceAccountId)).serviceToken;
    } catch (error) {
      if (error instanceof UnauthorizedError) throw new AdminTokenError(error);
      throw error;
    }
    const orgId = token ? orgIdFromToken(token) : undefined;
    if (!token || !orgId) throw new Error('the service gave the account back without a usable token');
    const { identity, added } = await store.identities.add({
      workspaceId,
      slackUserId,
      serviceAccountId,
      planningUserId: departure.planningUserId,
      orgId,
      token,
      origin: 'provisioned',
    });
    logger.info({ workspaceId, serviceAccountId }, 'gave a person back the account they left');
    return added ? { outcome: 'connected', identity, account: 'again' } : { outcome: 'already', identity };
  }

  /**
   * *Connect again* (`again`) or *Start with a new account* (`new`), pressed by someone who is not
   * connected: under their provisioning lock, once across replicas — what the press finds stored
   * decides. A new account is only made where the person left none open to come back to.
   * @throws {NotAMemberError} {AdminTokenError}
   */
  async function reconnect(
    workspaceId: string,
    slackUserId: string,
    slack: WebClient,
    home: Home,
    account: 'again' | 'new',
  ): Promise<Reconnected> {
    const admin = await adminClientFor(deps, workspaceId);
    if (!admin) {
      const stored = await store.identities.get(workspaceId, slackUserId);
      return stored ? { outcome: 'already', identity: stored } : { outcome: 'ask', reason: 'missing' };
    }
    const profile = await fullMember(workspaceId, slackUserId, slack, home, true);
    const done = await provisioning(workspaceId, slackUserId, async (stored): Promise<Reconnected> => {
      if (stored) return { outcome: 'already', identity: stored };
      const departure = await store.departures.get(workspaceId, slackUserId);
      if (account === 'again') return connectAgain(admin, workspaceId, slackUserId, departure);
      if (departure && leftReason(departure) === 'left-open') return { outcome: 'ask', reason: 'left-open' };
      const identity = await keep(admin, await create(admin, workspaceId, slackUserId, profile));
      return { outcome: 'connected', identity, account: 'new' };
    });
    if (!done) throw new Error('another replica held the person’s provisioning too long');
    return done.value;
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
      logger.info(
        { workspaceId: identity.workspaceId, serviceAccountId: account.id },
        'renewed a provisioned token',
      );
      return store.identities.get(identity.workspaceId, identity.slackUserId);
    } catch (error) {
      logger.warn({ workspaceId: identity.workspaceId, err: error }, 'could not renew a provisioned token');
      return undefined;
    }
  }

  /**
   * The people a form names, checked without provisioning anyone (see {@link NamedPeople}).
   * @throws {PeerNotConnectedError} {NotAMemberError}
   */
  async function named<const T extends readonly string[]>(
    workspaceId: string,
    slackUserIds: T,
    slack: WebClient,
    home: Home,
  ): Promise<NamedPeople<T>> {
    const known = new Map<string, string>();
    const toMake = new Map<string, SlackProfile>();
    let admin: PlanningClient | undefined;
    for (const slackUserId of new Set(slackUserIds)) {
      const identity = await store.identities.get(workspaceId, slackUserId);
      if (identity) {
        known.set(slackUserId, identity.planningUserId);
        continue;
      }
      // Someone who disconnected is named by the account they left, which keeps their history;
      // one that is closed is not used, and no new one is made for them unasked.
      const departure = await store.departures.get(workspaceId, slackUserId);
      if (departure) {
        if (departure.closed) throw new PeerNotConnectedError(slackUserId);
        known.set(slackUserId, departure.planningUserId);
        continue;
      }
      admin ??= await adminClientFor(deps, workspaceId);
      if (!admin) throw new PeerNotConnectedError(slackUserId);
      toMake.set(slackUserId, await fullMember(workspaceId, slackUserId, slack, home, false));
    }

    /** Each made account kept (the change was accepted, or may have been) or closed, under the locks. */
    async function settle(made: readonly Made[], outcome: 'keep' | 'close') {
      for (const m of made) {
        if (!admin) break;
        if (outcome === 'close') {
          await discard(
            admin,
            workspaceId,
            m.identity.serviceAccountId,
            'the change naming the person was refused',
          );
          continue;
        }
        // The change is made: a failure to store is logged (and the account closed by keep), never
        // turned into "nothing was saved".
        await keep(admin, m).catch((error: unknown) =>
          logger.error({ workspaceId, err: error }, 'could not store an account made for a change'),
        );
      }
    }

    return {
      async apply<R>(change: (people: NamedPeopleOf<T>) => Promise<R>): Promise<R> {
        const made: Made[] = [];
        const accounts = new Map(known);
        // In one order (by Slack id): two forms naming the same new people never hold one lock
        // each while waiting for the other's.
        const toLock = [...toMake].sort(([a], [b]) => (a < b ? -1 : 1));
        let changing = false;
        /** Person `i` and the ones after under their locks, then the change under all of them. */
        const underLocks = async (i: number): Promise<R> => {
          const next = toLock[i];
          if (!next) {
            changing = true;
            const people = slackUserIds.map((slackUserId) => ({
              slackUserId,
              planningUserId: accounts.get(slackUserId)!,
            })) as NamedPeopleOf<T>;
            let result: R;
            try {
              result = await change(people);
            } catch (error) {
              await settle(made, refusedByService(error) ? 'close' : 'keep');
              throw error;
            }
            await settle(made, 'keep');
            return result;
          }
          const [slackUserId, profile] = next;
          const locked = await provisioning(workspaceId, slackUserId, async (stored) => {
            if (stored) accounts.set(slackUserId, stored.planningUserId);
            else {
              // `admin` is set: someone had to be made.
              const m = await create(admin!, workspaceId, slackUserId, profile);
              made.push(m);
              accounts.set(slackUserId, m.identity.planningUserId);
            }
            return underLocks(i + 1);
          });
          if (!locked) throw new PeerNotConnectedError(slackUserId);
          return locked.value;
        };
        try {
          return await underLocks(0);
        } catch (error) {
          // Nothing was changed: whoever was made for it is closed.
          if (!changing) await settle(made, 'close');
          throw error;
        }
      },
    };
  }

  return {
    /** The acting user, with a client for their own account. @throws {NotConnectedError} {NotAMemberError} */
    async acting(
      workspaceId: string,
      slackUserId: string,
      slack: WebClient,
      home: Home,
      stored?: Promise<Identity | undefined>,
    ): Promise<Acting> {
      let identity = await resolve(workspaceId, slackUserId, slack, home, stored);
      if (!identity) throw new NotConnectedError('missing');
      if (!identity.valid) identity = await renew(identity);
      if (!identity?.valid) throw new NotConnectedError('invalid');
      return { workspaceId, slackUserId, identity, planning: deps.clients.planning(identity.token) };
    },
    /** The user's identity as the store holds it (no provisioning, no renewal). */
    stored: (workspaceId: string, slackUserId: string) => store.identities.get(workspaceId, slackUserId),
    /** Records when Slack confirmed the person a full member, or clears it (kit/acting.ts). */
    confirmMember: (workspaceId: string, slackUserId: string, at: Date | undefined) =>
      store.identities.confirmMember(workspaceId, slackUserId, at),
    named,
    reconnect,
  };
}

export type Identities = ReturnType<typeof createIdentities>;
