/** Reply submission (the assignee, from the feedback DM): tasks.feedbackReply, then a DM to the author. */
import { z } from 'zod';
import { type Mrkdwn, md } from '../../../blockkit/index.js';
import { FeedbackRef, replyDm, replyModal } from '../../blocks/feedback.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { refreshTaskCards } from '../../flows/tasks.js';
import { fieldValue, minuteText, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { notify, toldText } from '../../notify.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const ReplyForm = z.object({ ref: FeedbackRef, reply: minuteText('reply') });
type ReplyForm = z.infer<typeof ReplyForm>;

export function replySubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<ReplyForm>(svc, args, {
      action: 'reply',
      title: 'Reply to feedback',
      working: 'Sending your reply…',
      parse: (values: StateValues, meta) =>
        validateForm(ReplyForm, { ref: parseJson(meta), reply: fieldValue(values, FIELD.reply) }, values, {
          ref: FIELD.reply,
          reply: FIELD.reply,
        }),
      retry: (data, problem) => replyModal({ ref: data.ref, reply: data.reply, problem }),
      run: async ({ ref, reply }) => {
        const planning = planningOf(args.context);
        const acting = await planning.acting();
        const { planning: service } = acting;
        const feedback = await service.tasks.feedbackReply(
          ref.teamId,
          ref.channelId,
          ref.featureId,
          ref.taskId,
          ref.feedbackId,
          { reply },
        );
        // Recorded: the task's cards show one more answered feedback (best effort).
        await refreshTaskCards(svc.deps, args.client, acting, ref);
        let told: Mrkdwn = md`The feedback's author is not connected in Slack, so nobody was notified.`;
        try {
          const author = feedback.authorUserId
            ? await svc.deps.store.identities.findByPlanningUser(planning.workspaceId, feedback.authorUserId)
            : undefined;
          if (author && author.slackUserId !== planning.slackUserId) {
            const task = await service.tasks
              .read(ref.teamId, ref.channelId, ref.featureId, ref.taskId)
              .catch(() => undefined);
            const outcome = await notify(
              svc.deps,
              args.client,
              { workspaceId: planning.workspaceId, slackUserId: author.slackUserId },
              'reply',
              replyDm({ replierSlackId: planning.slackUserId, reply, taskHeading: task?.heading }),
            );
            told = toldText(author.slackUserId, outcome, md`was told`);
          }
        } catch (error) {
          svc.deps.logger.warn({ action: 'reply notify', err: error }, 'could not notify the author');
          told = md`The feedback's author could not be notified.`;
        }
        return { text: md`:white_check_mark: Reply recorded. ${told}` };
      },
    });
}
