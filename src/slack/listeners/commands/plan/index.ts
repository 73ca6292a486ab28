/**
 * The `/plan` subcommands, in the order help lists them. Adding one is a file in this folder and a
 * line here.
 */

import { connect } from '../../../account/connect.js';
import { disconnect } from '../../../account/disconnect.js';
import { whoami } from '../../../account/whoami.js';
import { admin } from '../../../admin/root.js';
import { digest } from '../../../digest/settings.js';
import { feature } from '../../../features/feature-form.js';
import { features } from '../../../features/list.js';
import { search } from '../../../features/search.js';
import { grades } from '../../../grades/my-grades.js';
import { grade } from '../../../grades/peer-grade.js';
import { helpSubcommand } from '../../../kit/help.js';
import { link } from '../../../link/link-form.js';
import { unlink } from '../../../link/unlink.js';
import { tasks } from '../../../tasks/list.js';
import type { Subcommand } from './subcommand.js';

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
