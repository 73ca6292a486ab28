import { channelMention, md } from '../../blockkit/index.js';
import { notice } from '../kit/messages.js';
import type { Subcommand } from '../listeners/commands/plan/subcommand.js';

/** `/plan unlink` (admins): removes this channel's link and its digest. */
export const unlink: Subcommand = {
  name: 'unlink',
  usage: 'unlink',
  summary: "remove this channel's link (and its digest)",
  adminOnly: true,
  async run({ command, planning, svc, reply }) {
    const removed = await svc.deps.store.links.delete(planning.workspaceId, command.channel_id);
    await reply(
      notice(
        removed
          ? md`${channelMention(command.channel_id)} is no longer linked.`
          : md`This channel is not linked.`,
      ),
    );
  },
};
