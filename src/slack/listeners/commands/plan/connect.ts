import { connectModal } from '../../../blocks/connect.js';
import { notice } from '../../../blocks/messages.js';
import { slackUserFacts } from '../../../context/admin.js';
import type { Subcommand } from './subcommand.js';

/**
 * `/plan connect` opens the token form; `/plan connect admin` (workspace admins) the organization
 * token form used for provisioning. The modal opens straight away: the trigger id lives 3 s.
 */
export const connect: Subcommand = {
  name: 'connect',
  usage: 'connect [admin]',
  summary: 'connect your planning account (admins: `connect admin` sets up accounts for everyone)',
  async run({ args, command, client, reply }) {
    if (args === '') {
      await client.views.open({ trigger_id: command.trigger_id, view: connectModal() });
      return;
    }
    if (args.toLowerCase() !== 'admin') {
      await reply(
        notice('Say `/plan connect` for your own account, or `/plan connect admin` for the organization.'),
      );
      return;
    }
    if (!(await slackUserFacts(client, command.user_id)).isAdmin) {
      await reply(notice('Only workspace admins can connect the organization.'));
      return;
    }
    await client.views.open({ trigger_id: command.trigger_id, view: connectModal({ admin: true }) });
  },
};
