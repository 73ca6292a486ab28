/** The link topic's routes: linking a Slack channel to a planning channel, and unlinking it. */
import type { TopicRoutes } from '../bolt/routes.js';
import { ACTION } from '../kit/ids.js';
import type { Services } from '../kit/services.js';
import { LINK_FIELD, LINK_VIEW } from './ids.js';
import { linkSubcommand, linkSubmission, linkTeamPicked } from './link-form.js';
import { timeZoneOptions } from './time-zones.js';
import { unlinkSubcommand } from './unlink.js';

export const linkRoutes: TopicRoutes<Services> = {
  topic: 'link',
  gate: { access: 'admin', doing: 'link channels' },
  subcommands: [linkSubcommand, unlinkSubcommand],
  actions: { [ACTION.teamPicked]: { inView: LINK_VIEW.link, run: linkTeamPicked } },
  views: { [LINK_VIEW.link]: linkSubmission },
  options: { [LINK_FIELD.timeZone.action]: timeZoneOptions },
};
