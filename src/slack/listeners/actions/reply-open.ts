/** The Reply button of a feedback DM: opens the reply form for the feedback it carries. */
import { FeedbackRef, replyModal } from '../../blocks/feedback.js';
import { noticeView } from '../../blocks/views.js';
import { parseCarried } from '../../carried.js';
import { afterPendingAcks } from '../../context/ack.js';
import { type ButtonArgs, STALE } from './feedback-open.js';

export function replyOpenAction() {
  return async ({ ack, body, action, client }: ButtonArgs) => {
    await ack();
    await afterPendingAcks();
    const ref = parseCarried(FeedbackRef, action.value);
    await client.views.open({
      trigger_id: body.trigger_id,
      view: ref ? replyModal({ ref }) : noticeView('Reply to feedback', STALE),
    });
  };
}
