/**
 * Reply, from the feedback DM's button (the assignee): the reply form, then `tasks.feedbackReply`, a
 * DM to the feedback's author, and the task's cards updated.
 */
import { type Mrkdwn, md } from '../../blockkit/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { toldText } from '../kit/dm-kinds.js';
import { type FormOutput, form, minuteText, read } from '../kit/form.js';
import { modalRequest, noticeView, openModal } from '../kit/modal.js';
import { slackUserOf } from '../kit/people.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
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
    // Recorded: the task's cards show one more answered feedback, and the feedback's author is told
    // (best effort).
    // null: not known whether the author is here (the store failed), so nobody could be told.
    const author = await slackUserOf(svc.deps, planning.workspaceId, feedback.authorUserId).catch(
      (error: unknown) => {
        svc.deps.logger.warn({ action: 'reply notify', err: error }, 'could not notify the author');
        return null;
      },
    );
    const reflected = await svc.changes.changed({
      ...madeFromSlack(acting, args.client, ref),
      tasks: [ref.taskId],
      dms: (tasks) =>
        author && author !== planning.slackUserId
          ? [
              {
                to: author,
                kind: 'reply',
                body: replyDm({
                  replierSlackId: planning.slackUserId,
                  reply,
                  taskHeading: tasks.get(ref.taskId)?.heading,
                }),
              },
            ]
          : [],
    });
    const sent = reflected.dms.find((dm) => dm.kind === 'reply');
    const told: Mrkdwn =
      author === null || sent?.outcome === 'failed'
        ? md`The feedback's author could not be notified.`
        : sent
          ? toldText(sent.to, sent.outcome, md`was told`)
          : md`The feedback's author is not connected in Slack, so nobody was notified.`;
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
