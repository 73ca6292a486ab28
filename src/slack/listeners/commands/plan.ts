/**
 * `/plan …`: acked at once, then routed to its subcommand. Empty input is help; an unknown word
 * answers "I don't know" with the help — never silence. Admin-only subcommands are checked against
 * Slack's own is_admin/is_owner. Failures end in a short private sentence or a Connect button.
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { helpMessage, notice } from '../../blocks/messages.js';
import { afterPendingAcks } from '../../context/ack.js';
import { slackUserFacts } from '../../context/admin.js';
import { planningOf } from '../../context/middleware.js';
import { respondSurface, showFailure } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { helpEntries } from './plan/help.js';
import { subcommands } from './plan/index.js';

export function planCommand(svc: Services) {
  return async ({
    ack,
    command,
    client,
    respond,
    context,
  }: SlackCommandMiddlewareArgs & AllMiddlewareArgs) => {
    await ack();
    await afterPendingAcks();
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
        await surface.show(notice(`Only workspace admins can use \`/plan ${sub.name}\`.`));
        return;
      }
      await sub.run({ args: rest.join(' '), command, client, respond, planning, svc, reply: surface.show });
    } catch (error) {
      await showFailure(svc.deps, surface, error, {
        action: `/plan ${sub.name}`,
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}
