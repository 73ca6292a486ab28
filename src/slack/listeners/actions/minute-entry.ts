/**
 * Edit and Delete on one's own discovery or feedback, in the Details modal. Edit pushes the entry's
 * form (loading first); Delete (after Slack's confirmation) removes it once — a retry finds it gone
 * and changes nothing — then the Details modal and the task's cards show the minutes as they are.
 * The service decides whose entries one may change: a refusal is told in one private sentence.
 */
import { md } from '../../../blockkit/index.js';
import { NotFoundError } from '../../../planning/index.js';
import { notice } from '../../blocks/messages.js';
import { MinuteRef, minuteEditModal, taskDetailsModal } from '../../blocks/task-card.js';
import { loadingView } from '../../blocks/views.js';
import { planningOf } from '../../context/middleware.js';
import { privateSurface, showFailure, viewSurface } from '../../context/reply.js';
import type { Services } from '../../context/services.js';
import { readTaskDetails, refreshTaskCards } from '../../flows/tasks.js';
import { parseCarried } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';

const GONE = md`That entry no longer exists (it was deleted).`;

export function minuteEditOpenAction(svc: Services) {
  return async (args: ActionArgs) => {
    const planning = planningOf(args.context);
    const ref = parseCarried(MinuteRef, actionValue(args.action));
    const title = ref?.k === 'd' ? 'Edit discovery' : 'Edit feedback';
    let viewId: string | undefined;
    try {
      const pushed = await args.client.views.push({
        trigger_id: args.body.trigger_id,
        view: loadingView(title),
      });
      viewId = pushed.view?.id;
      if (!ref || !viewId)
        throw new NotFoundError('stale minute button', { operation: 'tasks.read', method: 'GET', path: '' });
      const { task } = await readTaskDetails(svc.deps, await planning.acting(), ref);
      const entry =
        ref.k === 'd'
          ? task.minute?.discoveries.find((d) => d.id === ref.id)?.details
          : task.minute?.feedback.find((f) => f.id === ref.id)?.message;
      if (entry === undefined)
        throw new NotFoundError('minute entry gone', { operation: 'tasks.read', method: 'GET', path: '' });
      await args.client.views.update({ view_id: viewId, view: minuteEditModal({ ref, text: entry }) });
    } catch (error) {
      const surface = viewId
        ? viewSurface(args.client, viewId, title)
        : privateSurface(args, planning.slackUserId);
      await showFailure(svc.deps, surface, error, {
        action: 'minute edit open',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}

export function minuteDeleteAction(svc: Services) {
  return async (args: ActionArgs) => {
    const planning = planningOf(args.context);
    const surface = privateSurface(args, planning.slackUserId);
    const ref = parseCarried(MinuteRef, actionValue(args.action));
    if (!ref) {
      await surface.show(notice(GONE));
      return;
    }
    try {
      const acting = await planning.acting();
      const { tasks } = acting.planning;
      try {
        if (ref.k === 'd')
          await tasks.discoveryDelete(ref.teamId, ref.channelId, ref.featureId, ref.taskId, ref.id);
        else await tasks.feedbackDelete(ref.teamId, ref.channelId, ref.featureId, ref.taskId, ref.id);
      } catch (error) {
        // Already gone (a retry, a double click): nothing left to do but show the minutes as they are.
        if (!(error instanceof NotFoundError)) throw error;
      }
      const viewId = args.body.view?.id;
      if (viewId) {
        const { details } = await readTaskDetails(svc.deps, acting, ref);
        await args.client.views.update({ view_id: viewId, view: taskDetailsModal(details) });
      }
      await refreshTaskCards(svc.deps, args.client, acting, ref);
    } catch (error) {
      await showFailure(svc.deps, surface, error, {
        action: 'minute delete',
        workspaceId: planning.workspaceId,
        slackUserId: planning.slackUserId,
      });
    }
  };
}
