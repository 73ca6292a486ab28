import { actions, md, message, section } from '../../../../blockkit/index.js';
import { closeAccountButton } from '../../../blocks/account.js';
import { notice } from '../../../blocks/messages.js';
import { disconnectPerson } from '../../../flows/accounts.js';
import type { Subcommand } from './subcommand.js';

/**
 * `/plan disconnect`: forgets the user's identity; a provisioned service account is closed too.
 * `/plan disconnect --close` asks first (a button with a confirmation) and then also closes an
 * account the person connected themselves (account.close with their own token).
 */
export const disconnect: Subcommand = {
  name: 'disconnect',
  usage: 'disconnect [--close]',
  summary: 'forget your planning account here (--close also closes an account you connected)',
  async run({ args, planning, svc, reply }) {
    const close = args.split(/\s+/).includes('--close');
    if (!close) {
      await reply(notice(await disconnectPerson(svc, planning.workspaceId, planning.slackUserId, { close })));
      return;
    }
    const identity = await svc.deps.store.identities.get(planning.workspaceId, planning.slackUserId);
    if (!identity) {
      await reply(notice(md`You are not connected, so there is nothing to close.`));
      return;
    }
    const text = md`Close your account in the planning service? This cannot be undone from Slack: only an organization admin can re-open it.`;
    await reply(message(text, [section(md`:warning: ${text}`), actions(undefined, closeAccountButton())]));
  },
};
