/**
 * Opening the feedback form, shared by the *Give feedback* shortcut and the task card's button: the
 * form for the task, or why there is none; a user who cannot act yet sees Connect in its place.
 */
import type { Context } from '@slack/bolt';
import type { Mrkdwn } from '../../blockkit/index.js';
import { FEEDBACK_TITLE, feedbackModal } from '../blocks/feedback.js';
import type { TaskCoords } from '../blocks/task.js';
import { noticeView } from '../blocks/views.js';
import { planningOf } from '../context/middleware.js';
import { type ModalRequest, openModal } from '../context/modal.js';
import { connectBeforeForm, viewSurface } from '../context/reply.js';

export async function openFeedbackForm(
  req: ModalRequest & { context: Context },
  coords: TaskCoords | undefined,
  whyNot: Mrkdwn,
): Promise<void> {
  const opened = await openModal(
    req,
    coords ? feedbackModal({ coords }) : noticeView(FEEDBACK_TITLE, whyNot),
  );
  if (opened && coords) {
    await connectBeforeForm(planningOf(req.context), viewSurface(req.client, opened.id, FEEDBACK_TITLE));
  }
}
