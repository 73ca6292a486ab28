import { linkModal } from '../../../blocks/link.js';
import { loadingView } from '../../../blocks/views.js';
import { slackUserFacts } from '../../../context/admin.js';
import { showFailure, viewSurface } from '../../../context/reply.js';
import type { Subcommand } from './subcommand.js';

const TITLE = 'Link this channel';

/** `/plan link` (admins): the link modal, opened loading then filled with the organization's teams. */
export const link: Subcommand = {
  name: 'link',
  usage: 'link',
  summary: 'link this channel to a planning team and channel, with its daily digest',
  adminOnly: true,
  async run({ command, client, planning, svc }) {
    const opened = await client.views.open({ trigger_id: command.trigger_id, view: loadingView(TITLE) });
    const viewId = opened.view?.id as string;
    try {
      const [{ planning: service }, facts, existing] = await Promise.all([
        planning.acting(),
        slackUserFacts(client, command.user_id),
        svc.deps.store.links.get(planning.workspaceId, command.channel_id),
      ]);
      const { teams } = await service.teams.listAll({ pageSize: 100 });
      const channels = existing ? (await service.teams.read(existing.teamId)).channels : undefined;
      await client.views.update({
        view_id: viewId,
        hash: opened.view?.hash,
        view: linkModal({
          slackChannelId: command.channel_id,
          teams,
          teamId: existing?.teamId,
          channels,
          channelId: existing?.channelId,
          digestTime: existing?.digestTime ?? '09:00',
          timeZone: existing?.timeZone ?? facts.timeZone ?? 'UTC',
          weekdaysOnly: existing?.weekdaysOnly ?? true,
          digestEnabled: existing?.digestEnabled ?? true,
        }),
      });
    } catch (error) {
      await showFailure(svc.deps, viewSurface(client, viewId, TITLE), error, {
        action: 'link open',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  },
};
