/** The digest's Slack routes: `/plan digest` and the Advance button the digest carries. */
import { DIGEST_ACTIONS } from '../../digest/index.js';
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { advanceFeatureAction } from './advance.js';
import { digestSubcommand } from './settings.js';

export const digestRoutes: TopicRoutes<Services> = {
  topic: 'digest',
  gate: { access: 'member' },
  subcommands: [digestSubcommand],
  // The digest composes this button (src/digest owns its id); the app answers it.
  actions: { [DIGEST_ACTIONS.advanceFeature]: advanceFeatureAction },
};
