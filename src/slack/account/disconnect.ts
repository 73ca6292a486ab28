/**
 * Disconnecting (`/plan disconnect`, Home's button): the stored token goes and the account stays, with
 * its tasks and grades, for the person to connect again (account/reconnect.ts) — closed only when they
 * ask (`/plan disconnect --close`, after a confirmation).
 */
import { actions, type Mrkdwn, md, message, section } from '../../blockkit/index.js';
import type { Identity } from '../../store/index.js';
import type { ActionArgs, Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { adminClientFor } from '../kit/deps.js';
import { notice } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { privateSurface, showFailure } from '../kit/surfaces.js';
import { closeAccountButton } from './blocks.js';

/** Closes the provisioned accounts among `identities`; returns how many were closed. */
export async function closeProvisioned(
  svc: Services,
  workspaceId: string,
  identities: readonly Pick<Identity, 'origin' | 'serviceAccountId'>[],
): Promise<{ closed: number; failed: number }> {
  const provisioned = identities.filter((i) => i.origin === 'provisioned');
  if (provisioned.length === 0) return { closed: 0, failed: 0 };
  const admin = await adminClientFor(svc.deps, workspaceId);
  let closed = 0;
  for (const identity of provisioned) {
    try {
      if (!admin) throw new Error('no organization admin token');
      await admin.serviceAccounts.close(identity.serviceAccountId);
      closed += 1;
    } catch (error) {
      svc.deps.logger.warn(
        { workspaceId, serviceAccountId: identity.serviceAccountId, err: error },
        'could not close a provisioned service account',
      );
    }
  }
  return { closed, failed: provisioned.length - closed };
}

/**
 * Disconnects a person: their identity is forgotten and what they left remembered
 * (store.departures), so their next command asks them — connect again or paste a token — instead of
 * quietly making a new, empty account. The account stays open with its history, unless they asked
 * to close it (`close`): a provisioned one is closed by the app, a pasted one with the person's own
 * token (account.close). A second call (a retry, a double click) finds nothing left and says so.
 */
export async function disconnectPerson(
  svc: Services,
  workspaceId: string,
  slackUserId: string,
  { close }: { close: boolean },
): Promise<Mrkdwn> {
  const { store } = svc.deps;
  const identity = await store.identities.get(workspaceId, slackUserId);
  if (!identity) return NOTHING_TO_FORGET;
  let closed = false;
  if (close && identity.origin === 'provisioned') {
    closed = (await closeProvisioned(svc, workspaceId, [identity])).closed > 0;
  } else if (close) {
    // Throws (nothing forgotten) when the service refuses: the person can try again or just disconnect.
    await svc.deps.clients.planning(identity.token).account.close();
    closed = true;
  }
  if (!(await store.identities.disconnect(workspaceId, slackUserId, { closed }))) return NOTHING_TO_FORGET;
  let account: Mrkdwn;
  if (closed) {
    account = md` Your account in the planning service is closed: its tasks, grades and history stay with the closed account. If you use the app again, you start with a new, empty account or paste a token.`;
  } else if (close) {
    account = md` Your account could not be closed; an organization admin can close it. Until then it stays open, and you can connect it again.`;
  } else if (identity.origin === 'provisioned') {
    account = md` Your planning account stays open with your tasks and grades: when you use the app again, it asks whether to connect that account again or paste a token.`;
  } else {
    account = md` The account you connected stays as it is in the planning service.`;
  }
  return md`:wave: Disconnected: the app no longer acts for you.${account}`;
}

const NOTHING_TO_FORGET = md`You are not connected, so there is nothing to forget.`;

/**
 * `/plan disconnect`: forgets the user's identity; their account stays open, to come back to.
 * `/plan disconnect --close` asks first (a button with a confirmation) and then also closes it.
 */
export const disconnectSubcommand: Subcommand<Services> = {
  name: 'disconnect',
  usage: 'disconnect [--close]',
  summary: 'stop the app acting for you here (your account stays, to connect again; --close closes it)',
  async run(svc, { text, context, reply }) {
    const planning = planningOf(context);
    const close = text.split(/\s+/).includes('--close');
    if (!close) {
      await reply(notice(await disconnectPerson(svc, planning.workspaceId, planning.slackUserId, { close })));
      return;
    }
    const identity = await svc.deps.store.identities.get(planning.workspaceId, planning.slackUserId);
    if (!identity) {
      await reply(notice(md`You are not connected, so there is nothing to close.`));
      return;
    }
    const ask = md`Close your account in the planning service? Its tasks, grades and history stay with the closed account: if you use the app again, you start with a new, empty account. This cannot be undone from Slack: only an organization admin can re-open it.`;
    await reply(message(ask, [section(md`:warning: ${ask}`), actions(undefined, closeAccountButton())]));
  },
};

/** Disconnect (the Home tab's button), or close the account too (behind a confirmation). */
async function disconnectPress(svc: Services, args: ActionArgs, close: boolean) {
  {
    const planning = planningOf(args.context);
    const onHome = args.body.view?.type === 'home';
    // A button on the Home tab has no response_url: its failures go to the person's DM.
    const surface = privateSurface(onHome ? { client: args.client } : args, planning.slackUserId);
    try {
      const said = await disconnectPerson(svc, planning.workspaceId, planning.slackUserId, { close });
      svc.home.forget(planning.workspaceId, planning.slackUserId);
      if (onHome) await svc.home.refresh(args.client, planning, said);
      else await args.respond({ replace_original: true, ...notice(said) });
    } catch (error) {
      await showFailure(svc.deps, surface, error, {
        action: close ? 'close account' : 'disconnect',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  }
}

export const disconnectAction = (svc: Services, args: ActionArgs) => disconnectPress(svc, args, false);
export const closeAccountAction = (svc: Services, args: ActionArgs) => disconnectPress(svc, args, true);
