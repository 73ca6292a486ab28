/**
 * The `/plan` subcommands, in the order help lists them. Adding one is a file in this folder and a
 * line here.
 */
import { admin } from './admin.js';
import { connect } from './connect.js';
import { digest } from './digest.js';
import { disconnect } from './disconnect.js';
import { feature } from './feature.js';
import { features } from './features.js';
import { grade } from './grade.js';
import { grades } from './grades.js';
import { helpSubcommand } from './help.js';
import { link } from './link.js';
import { search } from './search.js';
import type { Subcommand } from './subcommand.js';
import { tasks } from './tasks.js';
import { unlink } from './unlink.js';
import { whoami } from './whoami.js';

export type { Subcommand, SubcommandContext } from './subcommand.js';

export const subcommands: Subcommand[] = [];
subcommands.push(
  helpSubcommand(() => subcommands),
  connect,
  whoami,
  disconnect,
  grade,
  grades,
  link,
  unlink,
  digest,
  tasks,
  feature,
  features,
  search,
  admin,
);
