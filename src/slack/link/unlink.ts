/**
 * `/plan unlink` (workspace admins): this channel's link removed, and its digest with it.
 */
import { channelMention, md } from '../../blockkit/index.js';
import type { Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { notice } from '../kit/messages.js';
import type { Services } from '../kit/services.js';

/**
 * Removes the channel's link in this workspace and its digest history (the scheduler reads links
 * afresh, so no digest follows): `/plan unlink` and the admin modal's links section. False when the
 * channel was not linked.
 */
export function unlinkChannel(svc: Services, workspaceId: string, slackChannelId: string): Promise<boolean> {
  return svc.deps.store.links.delete(workspaceId, slackChannelId);
}

/** `/plan unlink` (admins): removes this channel's link and its digest. */
export const unlinkSubcommand: Subcommand<Services> = {
  name: 'unlink',
  usage: 'unlink',
  summary: "remove this channel's link (and its digest)",
  async run(svc, { command, context, reply }) {
    const planning = planningOf(context);
    const removed = await unlinkChannel(svc, planning.workspaceId, command.channel_id);
    await reply(
      notice(
        removed
          ? md`${channelMention(command.channel_id)} is no longer linked.`
          : md`This channel is not linked.`,
      ),
    );
  },
};
