import { DIGEST_DEFAULTS } from '../../../../store/index.js';
import { LINK_TITLE, linkModal } from '../../../blocks/link.js';
import { slackUserFacts } from '../../../context/admin.js';
import { loadModal, modalRequest } from '../../../context/modal.js';
import type { Subcommand } from './subcommand.js';

/** `/plan link` (admins): the link modal, opened loading then filled with the organization's teams. */
export const link: Subcommand = {
  name: 'link',
  usage: 'link',
  summary: 'link this channel to a planning team and channel, with its daily digest',
  adminOnly: true,
  async run(ctx) {
    const { command, client, planning, svc } = ctx;
    await loadModal(
      { ...modalRequest(svc, ctx, command.trigger_id, 'link open'), title: LINK_TITLE },
      async ({ planning: service }) => {
        const [facts, existing] = await Promise.all([
          slackUserFacts(client, command.user_id),
          svc.deps.store.links.get(planning.workspaceId, command.channel_id),
        ]);
        const { teams } = await service.teams.listAll({ pageSize: 100 });
        const channels = existing ? (await service.teams.read(existing.teamId)).channels : undefined;
        return linkModal({
          slackChannelId: command.channel_id,
          teams,
          teamId: existing?.teamId,
          channels,
          channelId: existing?.channelId,
          digestTime: existing?.digestTime ?? DIGEST_DEFAULTS.digestTime,
          timeZone: existing?.timeZone ?? facts.timeZone ?? DIGEST_DEFAULTS.timeZone,
          weekdaysOnly: existing?.weekdaysOnly ?? DIGEST_DEFAULTS.weekdaysOnly,
          digestEnabled: existing?.digestEnabled ?? DIGEST_DEFAULTS.digestEnabled,
        });
      },
    );
  },
};
