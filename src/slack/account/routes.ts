/** The account topic's routes: connecting, who one acts as, disconnecting, and Slack's profile changes. */
import type { TopicRoutes } from '../bolt/routes.js';
import { ACTION } from '../kit/ids.js';
import type { Services } from '../kit/services.js';
import {
  connectAdminSubmission,
  connectOpenAction,
  connectSubcommand,
  connectSubmission,
} from './connect.js';
import { closeAccountAction, disconnectAction, disconnectSubcommand } from './disconnect.js';
import { followProfileAction } from './follow-profile.js';
import { ACCOUNT_ACTION, ACCOUNT_VIEW } from './ids.js';
import { connectAgainAction, connectNewAccountAction } from './reconnect.js';
import { userChangeEvent } from './user-change.js';
import { whoamiSubcommand } from './whoami.js';

export const accountRoutes: TopicRoutes<Services> = {
  topic: 'account',
  // Connecting and leaving are open to anyone Slack sends (a guest may paste their own token).
  gate: { access: 'anyone' },
  subcommands: [connectSubcommand, whoamiSubcommand, disconnectSubcommand],
  actions: {
    [ACTION.connectOpen]: connectOpenAction,
    // Offered to someone who disconnected; each checks who may get an account (kit/identity.ts).
    [ACTION.connectAgain]: connectAgainAction,
    [ACTION.connectNewAccount]: connectNewAccountAction,
    [ACCOUNT_ACTION.close]: closeAccountAction,
    [ACCOUNT_ACTION.disconnect]: disconnectAction,
    // Home's choice for one's own pasted account: the person's own, so members only.
    [ACCOUNT_ACTION.followProfile]: { access: 'member', run: followProfileAction },
  },
  views: {
    [ACCOUNT_VIEW.connect]: connectSubmission,
    [ACCOUNT_VIEW.connectAdmin]: {
      access: 'admin',
      doing: 'connect the organization',
      run: connectAdminSubmission,
    },
  },
  events: { user_change: userChangeEvent },
};
