/** The Give feedback button of a task card: opens the feedback form for the task it carries. */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { feedbackModal } from '../../blocks/feedback.js';
import { parseCoords } from '../../blocks/task.js';
import { noticeView } from '../../blocks/views.js';
import { afterPendingAcks } from '../../context/ack.js';
import { planningOf } from '../../context/middleware.js';
import { connectBeforeForm, viewSurface } from '../../context/reply.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

export const STALE = 'This button no longer points at a task. Use *Give feedback* on the task card instead.';

export function feedbackOpenAction() {
  return async ({ ack, body, action, client, context }: ButtonArgs) => {
    await ack();
    await afterPendingAcks();
    const coords = parseCoords(action.value ?? '');
    const opened = await client.views.open({
      trigger_id: body.trigger_id,
      view: coords ? feedbackModal({ coords }) : noticeView('Give feedback', STALE),
    });
    if (coords) {
      await connectBeforeForm(
        planningOf(context),
        viewSurface(client, opened.view?.id as string, 'Give feedback'),
      );
    }
  };
}
