/**
 * Reply, from the feedback DM's button (the assignee) or the Home tab: the reply form — saying, when
 * the feedback is answered already, that the reply replaces the earlier one — then
 * `tasks.feedbackReply`, a DM to the feedback's author (that the reply changed, for a replacement),
 * the task's cards updated, and the DM's button turned into *Change reply*.
 */
import type { ViewOutput } from '@slack/bolt';
import type { KnownBlock, ModalView } from '@slack/types';
import { type Mrkdwn, md, modal } from '../../blockkit/index.js';
import { LOCK_LEASE } from '../../store/index.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { toldText } from '../kit/dm-kinds.js';
import { type FormOutput, form, minuteText, read } from '../kit/form.js';
import {
  formProblem,
  loadModal,
  modalRequest,
  noticeView,
  openModal,
  withoutFormProblem,
} from '../kit/modal.js';
import { slackUserOf } from '../kit/people.js';
import { messagePressedOn } from '../kit/press.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { FormProblem, submission } from '../kit/submission.js';
import {
  CHANGE_REPLY_TITLE,
  FEEDBACK_STALE,
  FeedbackRef,
  feedbackDm,
  REPLY_TITLE,
  ReplyMeta,
  replyDm,
  replyModal,
} from './blocks.js';
import { FEEDBACK_ACTION, FEEDBACK_FIELD, FEEDBACK_VIEW } from './ids.js';

const ReplyForm = form({
  meta: read.metadata(FEEDBACK_FIELD.reply, ReplyMeta),
  reply: read.value(FEEDBACK_FIELD.reply, minuteText('reply')),
});
type ReplyForm = FormOutput<typeof ReplyForm>;

/** One reply to a feedback at a time: whether it replaces an earlier one is read and written together. */
const replyLock = (workspaceId: string, feedbackId: string) => `feedback-reply:${workspaceId}:${feedbackId}`;

const BUSY = md`Another reply to this feedback is being recorded right now; try again in a moment.`;

/**
 * The form again after a failure, as it was shown (its title, whether it replaces a reply, the
 * earlier reply), with what was typed and why.
 */
function replyAgain(view: ViewOutput, data: ReplyForm, problem: Mrkdwn): ModalView {
  const shown = withoutFormProblem(view.blocks as KnownBlock[]);
  if (!shown.some((b) => b.block_id === FEEDBACK_FIELD.reply.block))
    return replyModal({ meta: data.meta, reply: data.reply, problem });
  const typed = replyModal({ meta: data.meta, reply: data.reply }).blocks.find(
    (b) => b.block_id === FEEDBACK_FIELD.reply.block,
  );
  return modal({
    callbackId: FEEDBACK_VIEW.reply,
    title: view.title?.text || REPLY_TITLE,
    submit: (view as { submit?: { text?: string } }).submit?.text || 'Reply',
    close: 'Cancel',
    privateMetadata: JSON.stringify(ReplyMeta.parse(data.meta)),
    blocks: [
      ...shown.map((b) =>
        b.block_id === FEEDBACK_FIELD.reply.block && typed
          ? { ...typed, label: (b as { label?: unknown }).label ?? (typed as { label?: unknown }).label }
          : b,
      ),
      formProblem(problem),
    ] as KnownBlock[],
  });
}

export const replySubmission = submission<ReplyForm>({
  action: 'reply',
  title: REPLY_TITLE,
  working: 'Sending your reply…',
  parse: ReplyForm.parse,
  retry: (data, problem, view) => replyAgain(view, data, problem),
  run: async (svc, { meta, reply }, args) => {
    const { dm, ...ref } = meta;
    const planning = planningOf(args.context);
    const acting = await planning.acting();
    const { planning: service } = acting;
    // Whether this replaces a reply is read under the feedback's lock, so two replies never both
    // say they were the first. A retried or double submission does not get here again (submission.ts).
    const recorded = await svc.deps.store.locks.with(
      replyLock(planning.workspaceId, ref.feedbackId),
      LOCK_LEASE.feedbackReply,
      async () => {
        const task = await service.tasks.read(ref.teamId, ref.channelId, ref.featureId, ref.taskId);
        const earlier = task.minute?.feedback.find((f) => f.id === ref.feedbackId)?.reply;
        const feedback = await service.tasks.feedbackReply(
          ref.teamId,
          ref.channelId,
          ref.featureId,
          ref.taskId,
          ref.feedbackId,
          { reply },
        );
        return { feedback, replaced: Boolean(earlier) };
      },
    );
    if (!recorded.ran) throw new FormProblem(BUSY);
    const { feedback, replaced } = recorded.value;
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
                  changed: replaced,
                }),
              },
            ]
          : [],
    });
    // The DM the Reply was pressed in now offers to change the reply, not to give one.
    if (dm && author) {
      await args.client.chat
        .update({
          channel: dm.channel,
          ts: dm.ts,
          ...feedbackDm({
            ref,
            authorSlackId: author,
            taskHeading: reflected.tasks.get(ref.taskId)?.heading,
            ...(feedback.issue ? { issue: feedback.issue } : {}),
            message: feedback.message ?? '',
            replied: true,
          }),
        })
        .catch((error: unknown) =>
          svc.deps.logger.warn({ action: 'reply dm button', err: error }, 'could not update the feedback DM'),
        );
    }
    const sent = reflected.dms.find((dm) => dm.kind === 'reply');
    const told: Mrkdwn =
      author === null || sent?.outcome === 'failed'
        ? md`The feedback's author could not be notified.`
        : sent
          ? toldText(sent.to, sent.outcome, replaced ? md`was told it changed` : md`was told`)
          : md`The feedback's author is not connected in Slack, so nobody was notified.`;
    return {
      text: replaced
        ? md`:white_check_mark: Reply changed: it replaces your earlier one. ${told}`
        : md`:white_check_mark: Reply recorded. ${told}`,
    };
  },
});

/**
 * Reply or Change reply: the form opens at once, then says — read from the service, whichever
 * button it was — whether the feedback is answered already, and then that this replaces that reply.
 */
export async function replyOpenAction(svc: Services, args: ActionArgs) {
  const ref = parseCarried(FeedbackRef, actionValue(args.action));
  const changing = args.action.action_id === FEEDBACK_ACTION.replyChange;
  const title = changing ? CHANGE_REPLY_TITLE : REPLY_TITLE;
  const req = modalRequest(svc, args, args.body.trigger_id, 'reply open');
  if (!ref) {
    await openModal(req, noticeView(title, FEEDBACK_STALE));
    return;
  }
  const dm = messagePressedOn(args);
  await loadModal({ ...req, title }, async ({ planning }) => {
    const task = await planning.tasks.read(ref.teamId, ref.channelId, ref.featureId, ref.taskId);
    const earlier = task.minute?.feedback.find((f) => f.id === ref.feedbackId)?.reply;
    return replyModal({ meta: { ...ref, ...(dm ? { dm } : {}) }, ...(earlier ? { earlier } : {}) });
  });
}
