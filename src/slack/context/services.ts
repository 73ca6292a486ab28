/** What every listener receives: the process's dependencies and what is built on them once. */
import type { PlanningAccess } from '../../digest/index.js';
import type { ChannelLink } from '../../store/index.js';
import type { SlackDeps } from './deps.js';
import type { Identities } from './identity.js';

export interface Services {
  deps: SlackDeps;
  identities: Identities;
  /** Which planning account reads a channel's digest (`/plan digest now`), as the scheduler's. */
  digestAccess(link: ChannelLink): Promise<PlanningAccess | undefined>;
}
