/**
 * Reply, from the feedback DM's button (the assignee): the reply form, then `tasks.feedbackReply`, a
 * DM to the feedback's author, and the task's cards updated.
 */
import { type Mrkdwn, md } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { type FormOutput, form, minuteText, read } from '../kit/form.js';
import { modalRequest, noticeView, openModal } from '../kit/modal.js';
import { notify, toldText } from '../kit/notify.js';
import { slackUserOf } from '../kit/people.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import { refreshTaskCards } from '../tasks/index.js';
import { FEEDBACK_STALE, FeedbackRef, replyDm, replyModal } from './blocks.js';
import { FEEDBACK_FIELD } from './ids.js';

const ReplyForm = form({
  ref: read.metadata(FEEDBACK_FIELD.reply, FeedbackRef),
  reply: read.value(FEEDBACK_FIELD.reply, minuteText('reply')),
});
type ReplyForm = FormOutput<typeof ReplyForm>;

export const replySubmission = submission<ReplyForm>({
  action: 'reply',
  title: 'Reply to feedback',
  working: 'Sending your reply…',
  parse: ReplyForm.parse,
  retry: (data, problem) => replyModal({ ref: data.ref, reply: data.reply, problem }),
  run: async (svc, { ref, reply }, args) => {
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
      const author = await slackUserOf(svc.deps, planning.workspaceId, feedback.authorUserId);
      if (author && author !== planning.slackUserId) {
        const task = await service.tasks
          .read(ref.teamId, ref.channelId, ref.featureId, ref.taskId)
          .catch(() => undefined);
        const outcome = await notify(
          svc.deps,
          args.client,
          { workspaceId: planning.workspaceId, slackUserId: author },
          'reply',
          replyDm({ replierSlackId: planning.slackUserId, reply, taskHeading: task?.heading }),
        );
        told = toldText(author, outcome, md`was told`);
      }
    } catch (error) {
      svc.deps.logger.warn({ action: 'reply notify', err: error }, 'could not notify the author');
      told = md`The feedback's author could not be notified.`;
    }
    return { text: md`:white_check_mark: Reply recorded. ${told}` };
  },
});

export async function replyOpenAction(svc: Services, args: ActionArgs) {
  const ref = parseCarried(FeedbackRef, actionValue(args.action));
  await openModal(
    modalRequest(svc, args, args.body.trigger_id, 'reply open'),
    ref ? replyModal({ ref }) : noticeView('Reply to feedback', FEEDBACK_STALE),
  );
}
