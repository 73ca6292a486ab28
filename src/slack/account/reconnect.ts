/**
 * What someone who disconnected is offered when they come back (kit/messages.ts `connectBlocks`):
 * *Connect again* gives back the account the app made for them, with its tasks and grades, while it
 * is open; *Start with a new account* makes a new, empty one where there is none to come back to.
 * Both are decided under the person's provisioning lock with the store read again
 * (kit/identity.ts `reconnect`), so a Slack retry or a double click never gives out a second account.
 */
import { type Mrkdwn, md } from '../../blockkit/index.js';
import type { ActionArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { Reconnected } from '../kit/identity.js';
import { notConnectedMessage, notice, type Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { privateSurface, type Surface, showFailure, viewSurface } from '../kit/surfaces.js';

/** What the person is told of a press. */
export function reconnectedReply(result: Reconnected): Reply {
  if (result.outcome === 'ask') return notConnectedMessage(result.reason);
  return notice(reconnectedText(result));
}

function reconnectedText(result: Exclude<Reconnected, { outcome: 'ask' }>): Mrkdwn {
  if (result.outcome === 'already') return md`You are connected already; nothing was changed.`;
  return result.account === 'again'
    ? md`:white_check_mark: Connected again with the planning account the app made for you: your tasks, grades and history are there as you left them.`
    : md`:white_check_mark: Connected with a new planning account the app made for you. It starts empty: what your previous account had stays with it.`;
}

async function reconnectPress(svc: Services, args: ActionArgs, account: 'again' | 'new') {
  const planning = planningOf(args.context);
  const view = args.body.view;
  const onHome = view?.type === 'home';
  // The offer may sit in a message (response_url), a modal (updated in place) or on Home.
  const surface: Surface =
    view && !onHome
      ? viewSurface(args.client, view.id, 'Connect')
      : privateSurface(onHome ? { client: args.client } : args, planning.slackUserId);
  try {
    const result = await svc.identities.reconnect(
      planning.workspaceId,
      planning.slackUserId,
      args.client,
      planning.home,
      account,
    );
    svc.home.forget(planning.workspaceId, planning.slackUserId);
    const reply = reconnectedReply(result);
    // Home shows what to do by itself (its connection part); a banner says what was done.
    if (onHome)
      await svc.home.refresh(
        args.client,
        planning,
        result.outcome === 'ask' ? undefined : reconnectedText(result),
      );
    else if (view) await surface.show(reply);
    else await args.respond({ replace_original: true, ...reply });
  } catch (error) {
    await showFailure(svc.deps, surface, error, {
      action: account === 'again' ? 'connect again' : 'start a new account',
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  }
}

export const connectAgainAction = (svc: Services, args: ActionArgs) => reconnectPress(svc, args, 'again');
export const connectNewAccountAction = (svc: Services, args: ActionArgs) => reconnectPress(svc, args, 'new');
