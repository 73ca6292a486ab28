/**
 * A task card's state buttons (forward and back): the task moves to the state the button names,
 * once (cards/press.ts: a stale card or a double click refreshes instead), every card of the task is
 * updated in place, and the assignee or author is told when the move concerns them.
 */
import { md } from '../../../blockkit/index.js';
import { notice } from '../../blocks/messages.js';
import { liveTaskCard, TaskPress } from '../../blocks/task-card.js';
import { pressCard } from '../../cards/index.js';
import { planningOf } from '../../context/middleware.js';
import { privateSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { refreshFeatureCards } from '../../flows/feature.js';
import { notifyTaskChange, taskLiveCard } from '../../flows/tasks.js';
import { refreshHome } from '../../home/publish.js';
import { parseCarried } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';

export const STALE_BUTTON = md`This button is out of date: use the task's card, or \`/plan tasks\` for fresh ones.`;

export function taskStateAction(svc: Services) {
  return async (args: ActionArgs) => {
    const planning = planningOf(args.context);
    const press = parseCarried(TaskPress, actionValue(args.action));
    if (!press?.to) {
      await privateSurface(args, planning.slackUserId).show(notice(STALE_BUTTON));
      return;
    }
    const to = press.to;
    const card = taskLiveCard(svc.deps, planning.workspaceId, press);
    await pressCard(svc, args, card, {
      shown: { state: press.s, assignee: press.a },
      apply: async (task, acting) => {
        const { teamId, channelId, featureId, taskId } = task.coords;
        const updated = await acting.planning.tasks.update(teamId, channelId, featureId, taskId, {
          state: to,
        });
        // The service answers with the task as it now is; its minutes did not change: no second read.
        const after = {
          ...task,
          state: updated.state,
          ...(updated.heading ? { heading: updated.heading } : {}),
        };
        await notifyTaskChange(svc.deps, args.client, planning.workspaceId, planning.slackUserId, after, {
          kind: 'moved',
          to,
        });
        // The feature's cards count its tasks by state (and say whether it can advance).
        await refreshFeatureCards(svc, args.client, acting, { teamId, channelId, featureId });
        return { after };
      },
      ...(press.l
        ? { pressedMessage: (after) => (after ? liveTaskCard(after) : notice(md`This task was deleted.`)) }
        : {}),
    });
    // Pressed on the Home tab (its task rows carry these buttons): the tab shows the task as it is now.
    if (args.body.view?.type === 'home') await refreshHome(svc, args.client, planning);
  };
}
