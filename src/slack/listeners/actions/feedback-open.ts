/** The Give feedback button of a task card: opens the feedback form for the task it carries. */
import { FEEDBACK_STALE } from '../../blocks/feedback.js';
import { parseCoords } from '../../blocks/task.js';
import { modalRequest } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { openFeedbackForm } from '../../flows/feedback.js';
import { type ActionArgs, actionValue } from '../router.js';

export function feedbackOpenAction(svc: Services) {
  return async (args: ActionArgs) => {
    await openFeedbackForm(
      modalRequest(svc, args, args.body.trigger_id, 'feedback open'),
      parseCoords(actionValue(args.action) ?? ''),
      FEEDBACK_STALE,
    );
  };
}
