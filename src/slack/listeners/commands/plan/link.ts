import { LINK_TITLE } from '../../../blocks/link.js';
import { loadModal, modalRequest } from '../../../context/modal.js';
import { linkModalFor } from '../../../flows/link.js';
import type { Subcommand } from './subcommand.js';

/** `/plan link` (admins): the link modal, opened loading then filled with the organization's teams. */
export const link: Subcommand = {
  name: 'link',
  usage: 'link',
  summary: 'link this channel to a planning team and channel, with its daily digest',
  adminOnly: true,
  async run(ctx) {
    const { command, client, svc } = ctx;
    await loadModal(
      { ...modalRequest(svc, ctx, command.trigger_id, 'link open'), title: LINK_TITLE },
      (acting) => linkModalFor(svc, client, acting, command.channel_id),
    );
  },
};
