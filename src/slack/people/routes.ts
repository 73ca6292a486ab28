/**
 * The people topic's routes: a person's planning profile (`/plan who @someone`, or *Planning
 * profile* wherever a person is named) and who knows a notion. Members only: a guest, someone from
 * another organization, a bot or a deactivated user without a connection of their own is refused
 * in one sentence before anything is read.
 */
import type { TopicRoutes } from '../bolt/routes.js';
import { ACTION } from '../kit/ids.js';
import type { Services } from '../kit/services.js';
import { PEOPLE_ACTION } from './ids.js';
import { knowsAction } from './knows.js';
import { profileOpenAction, whoSubcommand } from './who.js';

export const peopleRoutes: TopicRoutes<Services> = {
  topic: 'people',
  gate: { access: 'member' },
  subcommands: [whoSubcommand],
  actions: {
    [ACTION.profileOpen]: profileOpenAction,
    [PEOPLE_ACTION.knows]: knowsAction,
  },
};
