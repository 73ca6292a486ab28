/** "Give feedback" on a message: on a task card, the feedback form; on anything else, why not. */
import { NOT_A_CARD } from '../../blocks/feedback.js';
import { type CardLike, taskCoordsFromMessage } from '../../blocks/task.js';
import { modalRequest } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { openFeedbackForm } from '../../flows/feedback.js';
import type { MessageShortcutArgs } from '../router.js';

export function giveFeedbackShortcut(svc: Services) {
  return async (args: MessageShortcutArgs) => {
    const { shortcut } = args;
    await openFeedbackForm(
      modalRequest(svc, args, shortcut.trigger_id, 'give feedback'),
      taskCoordsFromMessage(shortcut.message as CardLike),
      NOT_A_CARD,
    );
  };
}
