/** The More button of `/plan tasks`: the next page replaces the list (an ephemeral message). */
import { TasksMore } from '../../blocks/task-card.js';
import { planningOf } from '../../context/middleware.js';
import { respondSurface, showFailure } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { tasksPage } from '../../flows/task-list.js';
import { parseCarried } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';

export function tasksMoreAction(svc: Services) {
  return async (args: ActionArgs) => {
    const planning = planningOf(args.context);
    const more = parseCarried(TasksMore, actionValue(args.action));
    const channel = args.body.channel?.id;
    if (!more || !channel || !args.respond) return;
    try {
      const page = await tasksPage(svc.deps, await planning.acting(), channel, more.q, more.p);
      await args.respond({ replace_original: true, ...page });
    } catch (error) {
      await showFailure(svc.deps, respondSurface(args.respond), error, {
        action: 'tasks more',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}
