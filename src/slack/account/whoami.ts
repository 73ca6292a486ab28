import { orgName, roleIn } from '../kit/planning-account.js';
import type { Subcommand } from '../listeners/commands/plan/subcommand.js';
import { whoamiMessage } from './blocks.js';

/** `/plan whoami`: the account, organization and role the user acts as — never the token. */
export const whoami: Subcommand = {
  name: 'whoami',
  usage: 'whoami',
  summary: 'who you act as in the planning service',
  async run({ planning, reply }) {
    const { identity, planning: service } = await planning.acting();
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
