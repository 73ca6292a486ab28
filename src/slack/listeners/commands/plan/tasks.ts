import { tasksPage } from '../../../flows/task-list.js';
import type { Subcommand } from './subcommand.js';

/** `/plan tasks [mine | review | unassigned | <words>]`: the channel's tasks, each with its buttons. */
export const tasks: Subcommand = {
  name: 'tasks',
  usage: 'tasks [mine | review | unassigned | <words>]',
  summary: "this channel's tasks (or yours everywhere), with their buttons",
  async run({ args, command, planning, svc, reply }) {
    await reply(await tasksPage(svc.deps, await planning.acting(), command.channel_id, args, 1));
  },
};
