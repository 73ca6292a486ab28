/**
 * A task card's Delete button (after Slack's confirmation dialog): the task's author or an
 * organization owner or admin deletes it, once; its cards then say so in one line.
 */
import { md } from '../../../blockkit/index.js';
import { notice } from '../../blocks/messages.js';
import { TaskPress } from '../../blocks/task-card.js';
import { pressCard } from '../../cards/index.js';
import type { Acting } from '../../context/identity.js';
import { planningOf } from '../../context/middleware.js';
import { privateSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { refreshFeatureCards } from '../../flows/feature.js';
import { taskLiveCard } from '../../flows/tasks.js';
import { parseCarried } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';
import { STALE_BUTTON } from './task-state.js';

/** The service does not say who created a task: the app remembers it (store/task-origins). */
async function mayDelete(svc: Services, acting: Acting, taskId: string): Promise<boolean> {
  const origin = await svc.deps.store.taskOrigins.get(acting.workspaceId, taskId);
  if (origin?.authorSlackId === acting.slackUserId) return true;
  const account = await acting.planning.account.read();
  const role = account.roleOrg.find((r) => r.orgId === acting.identity.orgId)?.role;
  return role === 'owner' || role === 'admin';
}

export function taskDeleteAction(svc: Services) {
  return async (args: ActionArgs) => {
    const planning = planningOf(args.context);
    const press = parseCarried(TaskPress, actionValue(args.action));
    if (!press) {
      await privateSurface(args, planning.slackUserId).show(notice(STALE_BUTTON));
      return;
    }
    await pressCard(svc, args, taskLiveCard(svc.deps, planning.workspaceId, press), {
      shown: { state: press.s, assignee: press.a },
      apply: async (task, acting) => {
        if (!(await mayDelete(svc, acting, task.coords.taskId))) {
          return {
            after: task,
            said: md`:no_entry: Only the task's author or an organization owner or admin can delete it; nothing was deleted.`,
          };
        }
        const { teamId, channelId, featureId, taskId } = task.coords;
        await acting.planning.tasks.delete(teamId, channelId, featureId, taskId);
        await svc.deps.store.taskOrigins
          .forget(acting.workspaceId, taskId)
          .catch((error: unknown) => svc.deps.logger.warn({ err: error }, 'could not forget a task origin'));
        // The feature's cards count its tasks by state.
        await refreshFeatureCards(svc, args.client, acting, { teamId, channelId, featureId });
        return { after: 'deleted' as const, said: md`:wastebasket: Task deleted.` };
      },
      ...(press.l ? { pressedMessage: () => notice(md`:wastebasket: This task was deleted.`) } : {}),
    });
  };
}
