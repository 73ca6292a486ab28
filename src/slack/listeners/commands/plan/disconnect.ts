import { notice } from '../../../blocks/messages.js';
import { adminClientFor } from '../../../context/deps.js';
import type { Subcommand } from './subcommand.js';

/** `/plan disconnect`: forgets the user's identity; a provisioned service account is closed too. */
export const disconnect: Subcommand = {
  name: 'disconnect',
  usage: 'disconnect',
  summary: 'forget your planning account here',
  async run({ planning, svc, reply }) {
    const { store, logger } = svc.deps;
    const identity = await store.identities.get(planning.workspaceId, planning.slackUserId);
    if (!identity) {
      await reply(notice('You are not connected, so there is nothing to forget.'));
      return;
    }
    let closed = '';
    if (identity.origin === 'provisioned') {
      const admin = await adminClientFor(svc.deps, planning.workspaceId);
      try {
        if (!admin) throw new Error('no organization admin token');
        await admin.serviceAccounts.close(identity.serviceAccountId);
        closed = ' Its service account is closed.';
      } catch (error) {
        logger.warn(
          { workspaceId: planning.workspaceId, err: error },
          'could not close a provisioned account',
        );
        closed = ' Its service account could not be closed; an organization admin can close it.';
      }
    }
    await store.identities.delete(planning.workspaceId, planning.slackUserId);
    await reply(notice(`:wave: Disconnected: the app no longer acts for you.${closed}`));
  },
};
