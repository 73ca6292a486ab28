import { md } from '../../../../blockkit/index.js';
import { connectModal } from '../../../blocks/connect.js';
import { notice } from '../../../blocks/messages.js';
import { slackUserFacts } from '../../../context/admin.js';
import { modalRequest, openModal } from '../../../context/modal.js';
import type { Subcommand } from './subcommand.js';

/**
 * `/plan connect` opens the token form; `/plan connect admin` (workspace admins) the organization
 * token form used for provisioning. The modal opens straight away: the trigger id lives 3 s.
 */
export const connect: Subcommand = {
  name: 'connect',
  usage: 'connect [admin]',
  summary: 'connect your planning account (admins: `connect admin` sets up accounts for everyone)',
  async run(ctx) {
    const { args, command, client, reply } = ctx;
    const admin = args.toLowerCase() === 'admin';
    if (args !== '' && !admin) {
      await reply(
        notice(
          md`Say \`/plan connect\` for your own account, or \`/plan connect admin\` for the organization.`,
        ),
      );
      return;
    }
    if (admin && !(await slackUserFacts(client, command.user_id)).isAdmin) {
      await reply(notice(md`Only workspace admins can connect the organization.`));
      return;
    }
    await openModal(modalRequest(ctx.svc, ctx, command.trigger_id, '/plan connect'), connectModal({ admin }));
  },
};
