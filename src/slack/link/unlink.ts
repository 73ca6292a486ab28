/**
 * `/plan unlink` (workspace admins): this channel's link removed, and its digest with it; its canvas of
 * the plan, if kept, ends with a line saying it is no longer kept current.
 */
import type { WebClient } from '@slack/web-api';
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
export async function unlinkChannel(
  svc: Services,
  workspaceId: string,
  slackChannelId: string,
  slack?: WebClient,
): Promise<boolean> {
  // Its canvas of the plan, if kept, says it is no longer kept current, and is forgotten.
  await svc.canvas?.unlinked(workspaceId, slackChannelId, slack);
  return svc.deps.store.links.delete(workspaceId, slackChannelId);
}

/** `/plan unlink` (admins): removes this channel's link and its digest. */
export const unlinkSubcommand: Subcommand<Services> = {
  name: 'unlink',
  usage: 'unlink',
  summary: "remove this channel's link (and its digest)",
  async run(svc, { command, context, reply, client }) {
    const planning = planningOf(context);
    const removed = await unlinkChannel(svc, planning.workspaceId, command.channel_id, client);
    await reply(
      notice(
        removed
          ? md`${channelMention(command.channel_id)} is no longer linked.`
          : md`This channel is not linked.`,
      ),
    );
  },
};
