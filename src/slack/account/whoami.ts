/**
 * `/plan whoami`: the account, organization and role the person acts as — never the token.
 */
import type { Subcommand } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { orgName, roleIn } from '../kit/planning-account.js';
import type { Services } from '../kit/services.js';
import { whoamiMessage } from './blocks.js';

/** `/plan whoami`: the account, organization and role the user acts as — never the token. */
export const whoamiSubcommand: Subcommand<Services> = {
  name: 'whoami',
  usage: 'whoami',
  summary: 'who you act as in the planning service',
  access: 'member',
  async run(_svc, { context, reply }) {
    const { identity, planning: service } = await planningOf(context).acting();
    const account = await service.account.read();
    await reply(
      whoamiMessage({
        userName: account.userName,
        orgId: identity.orgId,
        orgName: orgName(account, identity.orgId),
        role: roleIn(account, identity.orgId),
        origin: identity.origin,
      }),
    );
  },
};
