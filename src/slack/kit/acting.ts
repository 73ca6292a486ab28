/**
 * A global middleware that says who is acting. It does no I/O (acks stay immediate): it puts on
 * the context the workspace id and a lazy, memoized `acting()` that resolves the Slack user to
 * their service account when a listener first asks, after its ack.
 */
import type { AnyMiddlewareArgs, Context, Middleware } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Identity } from '../../store/index.js';
import { MEMBER_CONFIRMATION_TTL, workspaceIdFor } from '../../store/index.js';
import { type Acting, type Identities, type NamedPeople, NotAMemberError } from './identity.js';
import { type Home, type NotAMember, notAMember } from './membership.js';
import { type SlackUser, slackUserOf } from './slack-user.js';

const KEY = 'planning';

export interface PlanningContext {
  /** The store's tenant key: the team id, or `<enterprise id>:<team id>` in an org-wide install (store/installations.ts). */
  workspaceId: string;
  slackUserId: string;
  /** The workspace (and Enterprise Grid organization) the request came from. */
  home: Home;
  /** The acting user as Slack describes them (users.info), read once per request. */
  slackUser(): Promise<SlackUser | undefined>;
  /**
   * The acting user's identity as the store holds it, undefined when they are not connected — read
   * once per request: the access gate asks first (kit/access.ts), `acting()` starts from it. The
   * routes that change the acting user's own identity (the account topic) are ungated, so nothing
   * read here can be out of date when `acting()` uses it.
   */
  stored(): Promise<Identity | undefined>;
  /**
   * Why the user is not a full member of this workspace (or of its Grid organization) now, as Slack
   * says, or undefined when they are; 'unknown' when Slack did not answer. The one rule every
   * surface applies before serving planning data to a person (kit/membership.ts `notAMember`),
   * whatever they connected. A connected person Slack confirmed within MEMBER_CONFIRMATION_TTL
   * (store/keeps.ts) is taken as one without asking; otherwise Slack is asked once per request and
   * its answer recorded on their identity (a confirmation, or its clearing).
   */
  notAFullMember(): Promise<NotAMember | 'unknown' | undefined>;
  /**
   * The acting user's identity and client — only for a full member: a guest's, an outsider's or a
   * bot's own connection is not used. @throws {NotConnectedError} {NotAMemberError}
   */
  acting(): Promise<Acting>;
  /**
   * The people a form names (an assignee, participants, a peer, someone added to a team), checked
   * before anything changes; `apply` makes the change with their accounts, provisioning anyone who
   * needs one only for a change the service accepts (see kit/identity.ts).
   * @throws {PeerNotConnectedError} {NotAMemberError}
   */
  named<const T extends readonly string[]>(slackUserIds: T): Promise<NamedPeople<T>>;
}

export function planningMiddleware(identities: Identities): Middleware<AnyMiddlewareArgs> {
  return async ({ context, client, body, next }) => {
    const userId = context.userId ?? assistantThreadUser(body);
    if (userId && (context.teamId || context.enterpriseId)) {
      const home = { teamId: context.teamId, enterpriseId: context.enterpriseId };
      context[KEY] = planningContextFor(
        identities,
        client as WebClient,
        workspaceIdFor(context),
        home,
        userId,
      );
    }
    await next();
  };
}

/**
 * The person of an assistant thread's event (`assistant_thread_started`, `…_context_changed`):
 * Bolt finds no user in them (the person is `assistant_thread.user_id`), yet they are a person's
 * request, gated as any other.
 */
function assistantThreadUser(body: unknown): string | undefined {
  const event = (body as { event?: { assistant_thread?: { user_id?: unknown } } }).event;
  const userId = event?.assistant_thread?.user_id;
  return typeof userId === 'string' ? userId : undefined;
}

/**
 * The planning context of `userId` in a workspace: what the middleware puts on a request from them,
 * and what a workflow step builds for the person it acts as (workflows/run.ts). No I/O until asked.
 */
export function planningContextFor(
  identities: Identities,
  slack: WebClient,
  workspaceId: string,
  home: Home,
  userId: string,
): PlanningContext {
  let resolved: Promise<Acting> | undefined;
  let user: Promise<SlackUser | undefined> | undefined;
  let stored: Promise<Identity | undefined> | undefined;
  let member: Promise<NotAMember | undefined> | undefined;
  /** notAFullMember's answer, once per request; rejects when Slack did not answer (not kept). */
  const membership = () => {
    member ??= confirmedMembership();
    member.catch(() => {
      member = undefined;
    });
    return member;
  };
  const confirmedMembership = async (): Promise<NotAMember | undefined> => {
    // A failed store read only means Slack is asked.
    const identity = await planning.stored().catch(() => undefined);
    const confirmedAt = identity?.memberConfirmedAt?.getTime();
    const now = Date.now();
    // A confirmation stamped ahead of this replica's clock is not taken for a fresh one.
    const age = confirmedAt === undefined ? undefined : now - confirmedAt;
    if (age !== undefined && age >= 0 && age < MEMBER_CONFIRMATION_TTL) return undefined;
    const reason = notAMember(await planning.slackUser(), home);
    // One write per person per period at most; a guest never confirmed is not written for. A
    // failed write only means Slack is asked again next time.
    if (identity && (!reason || confirmedAt !== undefined)) {
      await identities
        .confirmMember(workspaceId, userId, reason ? undefined : new Date(now))
        .catch(() => undefined);
    }
    return reason;
  };
  const planning: PlanningContext = {
    workspaceId,
    slackUserId: userId,
    home,
    slackUser: () => {
      user ??= slackUserOf(slack, userId);
      // A failed read is not kept: the next asker tries again.
      user.catch(() => {
        user = undefined;
      });
      return user;
    },
    stored: () => {
      stored ??= identities.stored(workspaceId, userId);
      // A failed read is not kept either.
      stored.catch(() => {
        stored = undefined;
      });
      return stored;
    },
    notAFullMember: () => membership().catch(() => 'unknown' as const),
    acting: () => {
      resolved ??= (async () => {
        const stored = await planning.stored();
        // Someone without an identity is checked by provisioning itself (kit/identity.ts).
        if (stored) {
          // Slack not answering fails the request: nobody is served without its word.
          const reason = await membership();
          if (reason) throw new NotAMemberError(userId, reason, true);
        }
        return identities.acting(workspaceId, userId, slack, home, Promise.resolve(stored));
      })();
      return resolved;
    },
    named: (slackUserIds) => identities.named(workspaceId, slackUserIds, slack, home),
  };
  return planning;
}

/** The planning context of a request from a user. @throws when the request names no user. */
export function planningOf(context: Context): PlanningContext {
  const planning = context[KEY] as PlanningContext | undefined;
  if (!planning) throw new Error('this request names no Slack user or workspace');
  return planning;
}
