/** What every listener receives: the process's dependencies and the identity resolver built on them. */
import type { SlackDeps } from './deps.js';
import type { Identities } from './identity.js';

export interface Services {
  deps: SlackDeps;
  identities: Identities;
}
