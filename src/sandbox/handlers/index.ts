/** Every operation's handler, one module per area, keyed exactly as the endpoint table. */
import type { Area } from '../../planning/endpoints.js';
import type { AreaHandlers } from '../context.js';
import { account } from './account.js';
import { assumptions } from './assumptions.js';
import { billing } from './billing.js';
import { channels } from './channels.js';
import { deepContext } from './deep-context.js';
import { experiences } from './experiences.js';
import { features } from './features.js';
import { invitations } from './invitations.js';
import { notions } from './notions.js';
import { serviceAccounts } from './service-accounts.js';
import { tasks } from './tasks.js';
import { teams } from './teams.js';

export const handlers: { [A in Area]: AreaHandlers<A> } = {
  billing,
  account,
  serviceAccounts,
  teams,
  channels,
  features,
  tasks,
  assumptions,
  notions,
  experiences,
  invitations,
  deepContext,
};
