/**
 * Forgetting a Slack user's planning identity (disconnect, a revoked token, a deactivated user):
 * the stored token goes, and an account the app provisioned for them is closed when the workspace
 * still has an organization admin token. A pasted token is only forgotten — it is the person's own —
 * unless they ask to close its account too (`/plan disconnect --close`, after a confirmation).
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
 * Disconnects a person: their identity is forgotten; a provisioned account is closed by the app; a
 * pasted one is closed with the person's own token (account.close) only when they asked (`close`).
 * A second call (a retry, a double click) finds nothing left and says so.
 */
export async function disconnectPerson(
  svc: Services,
  workspaceId: string,
  slackUserId: string,
  { close }: { close: boolean },
): Promise<Mrkdwn> {
  const { store } = svc.deps;
  const identity = await store.identities.get(workspaceId, slackUserId);
  if (!identity) return md`You are not connected, so there is nothing to forget.`;
  let account: Mrkdwn = md``;
  if (identity.origin === 'provisioned') {
    const { closed, failed } = await closeProvisioned(svc, workspaceId, [identity]);
    if (closed > 0) account = md` Its service account is closed.`;
    else if (failed > 0)
      account = md` Its service account could not be closed; an organization admin can close it.`;
  } else if (close) {
    // Throws (nothing forgotten) when the service refuses: the person can try again or just disconnect.
    await svc.deps.clients.planning(identity.token).account.close();
    account = md` Your account in the planning service is closed.`;
  }
  await store.identities.delete(workspaceId, slackUserId);
  return md`:wave: Disconnected: the app no longer acts for you.${account}`;
}

/**
 * `/plan disconnect`: forgets the user's identity; a provisioned service account is closed too.
 * `/plan disconnect --close` asks first (a button with a confirmation) and then also closes an
 * account the person connected themselves (account.close with their own token).
 */
export const disconnectSubcommand: Subcommand<Services> = {
  name: 'disconnect',
  usage: 'disconnect [--close]',
  summary: 'forget your planning account here (--close also closes an account you connected)',
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
    const ask = md`Close your account in the planning service? This cannot be undone from Slack: only an organization admin can re-open it.`;
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
