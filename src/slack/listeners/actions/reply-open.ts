/** The Reply button of a feedback DM: opens the reply form for the feedback it carries. */
import { FEEDBACK_STALE, FeedbackRef, replyModal } from '../../blocks/feedback.js';
import { noticeView } from '../../blocks/views.js';
import { modalRequest, openModal } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { parseCarried } from '../../round-trip.js';
import { type ActionArgs, actionValue } from '../router.js';

export function replyOpenAction(svc: Services) {
  return async (args: ActionArgs) => {
    const ref = parseCarried(FeedbackRef, actionValue(args.action));
    await openModal(
      modalRequest(svc, args, args.body.trigger_id, 'reply open'),
      ref ? replyModal({ ref }) : noticeView('Reply to feedback', FEEDBACK_STALE),
    );
  };
}
