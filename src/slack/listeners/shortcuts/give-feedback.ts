/** "Give feedback" on a message: on a task card, the feedback form; on anything else, why not. */
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { type CardLike, taskCoordsFromMessage } from '../../blocks/task.js';
import { afterPendingAcks } from '../../context/ack.js';
import { COMMAND } from '../../ids.js';
import { openFeedbackForm } from '../feedback-form.js';

export const NOT_A_CARD =
  'Feedback goes on a *task card* — the message the app posts when a task is created ' +
  `(use *Create task* on a message first). This message is not one. Try \`${COMMAND} help\`.`;

export function giveFeedbackShortcut() {
  return async ({
    ack,
    shortcut,
    client,
    context,
  }: SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs) => {
    await ack();
    await afterPendingAcks();
    const coords = taskCoordsFromMessage(shortcut.message as CardLike);
    await openFeedbackForm(client, shortcut.trigger_id, context, coords, NOT_A_CARD);
  };
}
