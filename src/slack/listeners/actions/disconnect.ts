/**
 * The Close my account button (after Slack's confirmation) and the Disconnect button: both
 * disconnect the person who pressed it; the first also closes an account they connected themselves.
 * The answer replaces the message the button was on, or (on the Home tab) the tab is redrawn.
 */
import { notice } from '../../blocks/messages.js';
import { planningOf } from '../../context/middleware.js';
import { privateSurface, showFailure } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { disconnectPerson } from '../../flows/accounts.js';
import { forgetHome, refreshHome } from '../../home/publish.js';
import type { ActionArgs } from '../router.js';

export function disconnectAction(svc: Services, close: boolean) {
  return async (args: ActionArgs) => {
    const planning = planningOf(args.context);
    const onHome = args.body.view?.type === 'home';
    // A button on the Home tab has no response_url: its failures go to the person's DM.
    const surface = privateSurface(onHome ? { client: args.client } : args, planning.slackUserId);
    try {
      const said = await disconnectPerson(svc, planning.workspaceId, planning.slackUserId, { close });
      forgetHome(svc, planning.workspaceId, planning.slackUserId);
      if (onHome) await refreshHome(svc, args.client, planning, said);
      else await args.respond({ replace_original: true, ...notice(said) });
    } catch (error) {
      await showFailure(svc.deps, surface, error, {
        action: close ? 'close account' : 'disconnect',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}
