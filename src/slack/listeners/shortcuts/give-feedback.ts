/** "Give feedback" on a message: on a task card, the feedback form; on anything else, why not. */
import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { feedbackModal } from '../../blocks/feedback.js';
import { type CardLike, taskCoordsFromMessage } from '../../blocks/task.js';
import { noticeView } from '../../blocks/views.js';
import { afterPendingAcks } from '../../context/ack.js';
import { planningOf } from '../../context/middleware.js';
import { connectBeforeForm, viewSurface } from '../../context/reply.js';
import { COMMAND } from '../../ids.js';

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
    const opened = await client.views.open({
      trigger_id: shortcut.trigger_id,
      view: coords ? feedbackModal({ coords }) : noticeView('Give feedback', NOT_A_CARD),
    });
    if (coords) {
      await connectBeforeForm(
        planningOf(context),
        viewSurface(client, opened.view?.id as string, 'Give feedback'),
      );
    }
  };
}
