/** Buttons that open a form about a task: Give feedback (on a card) and Reply (in the feedback DM). */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { FeedbackRef, feedbackModal, replyModal } from '../../blocks/feedback.js';
import { parseCoords } from '../../blocks/task.js';
import { noticeView } from '../../blocks/views.js';

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

const STALE = 'This button no longer points at a task. Use *Give feedback* on the task card instead.';

export function feedbackOpenAction() {
  return async ({ ack, body, action, client }: ButtonArgs) => {
    await ack();
    const coords = parseCoords(action.value ?? '');
    await client.views.open({
      trigger_id: body.trigger_id,
      view: coords ? feedbackModal({ coords }) : noticeView('Give feedback', STALE),
    });
  };
}

export function replyOpenAction() {
  return async ({ ack, body, action, client }: ButtonArgs) => {
    await ack();
    const ref = (() => {
      try {
        return FeedbackRef.parse(JSON.parse(action.value ?? ''));
      } catch {
        return undefined;
      }
    })();
    await client.views.open({
      trigger_id: body.trigger_id,
      view: ref ? replyModal({ ref }) : noticeView('Reply to feedback', STALE),
    });
  };
}
