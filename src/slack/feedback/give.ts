/**
 * Give feedback on a task, from the shortcut on its card or the card's button: the form (or why there
 * is none; Connect for someone who cannot act yet), then `tasks.feedbackCreate`, the assignee's DM
 * with its Reply button, and the task's cards updated.
 */

import type { Context } from '@slack/bolt';
import { z } from 'zod';
import { type Mrkdwn, md } from '../../blockkit/index.js';
import { FEEDBACK_ISSUES } from '../../planning/index.js';
import { type ActionArgs, actionValue, type MessageShortcutArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { toldText } from '../kit/dm-kinds.js';
import { type FormOutput, form, minuteText, read } from '../kit/form.js';
import { type ModalRequest, modalRequest, noticeView, openModal } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import { connectBeforeForm, viewSurface } from '../kit/surfaces.js';
import { type CardLike, parseCoords, TaskCoords, taskCoordsFromMessage } from '../tasks/index.js';
import { FEEDBACK_STALE, FEEDBACK_TITLE, feedbackDm, feedbackModal, NOT_A_CARD } from './blocks.js';
import { FEEDBACK_FIELD } from './ids.js';

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

const FeedbackForm = form({
  coords: read.metadata(FEEDBACK_FIELD.message, TaskCoords),
  issue: read.value(
    FEEDBACK_FIELD.issue,
    z.enum(FEEDBACK_ISSUES, { error: 'Choose what the feedback is about.' }),
  ),
  message: read.value(FEEDBACK_FIELD.message, minuteText('feedback')),
});

type FeedbackForm = FormOutput<typeof FeedbackForm>;

export const feedbackSubmission = submission<FeedbackForm>({
  action: 'feedback',
  title: FEEDBACK_TITLE,
  working: 'Sending your feedback…',
  parse: FeedbackForm.parse,
  retry: (data, problem) =>
    feedbackModal({ coords: data.coords, issue: data.issue, message: data.message, problem }),
  run: async (svc, { coords: c, issue, message }, args) => {
    const planning = planningOf(args.context);
    const acting = await planning.acting();
    const { planning: service } = acting;
    const feedback = await service.tasks.feedbackCreate(c.teamId, c.channelId, c.featureId, c.taskId, {
      message,
      issue,
    });
    // The feedback exists now: the task's cards count it, and telling the assignee is best
    // effort and reported, never fatal. The watch does not post it in the card's thread again.
    const reflected = await svc.changes.changed({
      ...madeFromSlack(acting, args.client, c),
      tasks: [c.taskId],
      minutes: [{ taskId: c.taskId, id: feedback.id }],
      dms: (tasks) => {
        const assignee = tasks.get(c.taskId)?.assigneeSlackId;
        if (!assignee || assignee === planning.slackUserId) return [];
        const body = feedbackDm({
          ref: { ...c, feedbackId: feedback.id },
          authorSlackId: planning.slackUserId,
          taskHeading: tasks.get(c.taskId)?.heading,
          issue,
          message,
        });
        return [{ to: assignee, kind: 'feedback', body }];
      },
    });
    const sent = reflected.dms.find((dm) => dm.kind === 'feedback');
    const told: Mrkdwn =
      !reflected.tasks.has(c.taskId) || sent?.outcome === 'failed'
        ? md`The assignee could not be notified.`
        : sent
          ? toldText(sent.to, sent.outcome, md`was told and can reply`)
          : md`The task has no assignee connected in Slack, so nobody was notified.`;
    return { text: md`:white_check_mark: Feedback sent. ${told}` };
  },
});

export async function giveFeedbackShortcut(svc: Services, args: MessageShortcutArgs) {
  const { shortcut } = args;
  await openFeedbackForm(
    modalRequest(svc, args, shortcut.trigger_id, 'give feedback'),
    taskCoordsFromMessage(shortcut.message as CardLike),
    NOT_A_CARD,
  );
}

export async function feedbackOpenAction(svc: Services, args: ActionArgs) {
  await openFeedbackForm(
    modalRequest(svc, args, args.body.trigger_id, 'feedback open'),
    parseCoords(actionValue(args.action) ?? ''),
    FEEDBACK_STALE,
  );
}
