import { openAdminModal } from '../../../flows/admin/open.js';
import type { Subcommand } from './subcommand.js';

/** `/plan admin` (admins): the admin modal — people, invitations, teams and channels, notions, billing. */
export const admin: Subcommand = {
  name: 'admin',
  usage: 'admin',
  summary: 'administer the organization: people, invitations, teams and channels, notions, billing',
  adminOnly: true,
  run: (ctx) => openAdminModal(ctx.svc, ctx, ctx.command.trigger_id),
};
