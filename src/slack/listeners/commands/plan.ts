/**
 * `/plan …`: routed to its subcommand (the router acked it). Empty input is help; an unknown word
 * answers "I don't know" with the help — never silence. Admin-only subcommands are checked against
 * Slack's own is_admin/is_owner. Failures end in a short private sentence or a Connect button.
 */
import { md } from '../../../blockkit/index.js';
import type { CommandArgs } from '../../bolt/router.js';
import { planningOf } from '../../kit/acting.js';
import { helpEntries, helpMessage } from '../../kit/help.js';
import { notice } from '../../kit/messages.js';
import type { Services } from '../../kit/services.js';
import { slackUserFacts } from '../../kit/slack-user.js';
import { respondSurface, showFailure } from '../../kit/surfaces.js';
import { subcommands } from './plan/index.js';

export function planCommand(svc: Services) {
  return async ({ command, client, respond, context }: CommandArgs) => {
    const surface = respondSurface(respond);
    const [word = '', ...rest] = command.text.trim().split(/\s+/);
    const name = word.toLowerCase() || 'help';
    const sub = subcommands.find((s) => s.name === name);
    if (!sub) {
      await surface.show(helpMessage(helpEntries(subcommands), command.text.trim()));
      return;
    }
    const planning = planningOf(context);
    try {
      if (sub.adminOnly && !(await slackUserFacts(client, command.user_id)).isAdmin) {
        await surface.show(notice(md`Only workspace admins can use \`/plan ${sub.name}\`.`));
        return;
      }
      await sub.run({
        args: rest.join(' '),
        command,
        client,
        respond,
        context,
        planning,
        svc,
        reply: surface.show,
      });
    } catch (error) {
      await showFailure(svc.deps, surface, error, {
        action: `/plan ${sub.name}`,
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}
