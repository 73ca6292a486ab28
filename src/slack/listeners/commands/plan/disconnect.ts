import { md } from '../../../../blockkit/index.js';
import { notice } from '../../../blocks/messages.js';
import { closeProvisioned } from '../../../flows/accounts.js';
import type { Subcommand } from './subcommand.js';

/** `/plan disconnect`: forgets the user's identity; a provisioned service account is closed too. */
export const disconnect: Subcommand = {
  name: 'disconnect',
  usage: 'disconnect',
  summary: 'forget your planning account here',
  async run({ planning, svc, reply }) {
    const { store } = svc.deps;
    const identity = await store.identities.get(planning.workspaceId, planning.slackUserId);
    if (!identity) {
      await reply(notice(md`You are not connected, so there is nothing to forget.`));
      return;
    }
    const { closed, failed } = await closeProvisioned(svc, planning.workspaceId, [identity]);
    await store.identities.delete(planning.workspaceId, planning.slackUserId);
    const account =
      closed > 0
        ? md` Its service account is closed.`
        : failed > 0
          ? md` Its service account could not be closed; an organization admin can close it.`
          : md``;
    await reply(notice(md`:wave: Disconnected: the app no longer acts for you.${account}`));
  },
};
