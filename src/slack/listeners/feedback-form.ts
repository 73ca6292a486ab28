/**
 * Opening the feedback form, shared by the *Give feedback* shortcut and the task card's button: the
 * form for the task, or why there is none; a user who cannot act yet sees Connect in its place.
 */
import type { Context } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { FEEDBACK_TITLE, feedbackModal } from '../blocks/feedback.js';
import type { TaskCoords } from '../blocks/task.js';
import { noticeView } from '../blocks/views.js';
import { planningOf } from '../context/middleware.js';
import { connectBeforeForm, viewSurface } from '../context/reply.js';

export async function openFeedbackForm(
  client: WebClient,
  triggerId: string,
  context: Context,
  coords: TaskCoords | undefined,
  whyNot: string,
): Promise<void> {
  const opened = await client.views.open({
    trigger_id: triggerId,
    view: coords ? feedbackModal({ coords }) : noticeView(FEEDBACK_TITLE, whyNot),
  });
  if (coords) {
    await connectBeforeForm(
      planningOf(context),
      viewSurface(client, opened.view?.id as string, FEEDBACK_TITLE),
    );
  }
}
