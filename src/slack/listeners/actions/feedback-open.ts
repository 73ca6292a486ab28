/** The Give feedback button of a task card: opens the feedback form for the task it carries. */
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { parseCoords } from '../../blocks/task.js';
import { afterPendingAcks } from '../../context/ack.js';
import { openFeedbackForm } from '../feedback-form.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

export const STALE = 'This button no longer points at a task. Use *Give feedback* on the task card instead.';

export function feedbackOpenAction() {
  return async ({ ack, body, action, client, context }: ButtonArgs) => {
    await ack();
    await afterPendingAcks();
    await openFeedbackForm(client, body.trigger_id, context, parseCoords(action.value ?? ''), STALE);
  };
}
