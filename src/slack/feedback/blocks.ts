/** Feedback on a task: the form, the DM to the assignee with its Reply button, the reply form and notice. */
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import {
  actions,
  button,
  context,
  inline,
  input,
  type Mrkdwn,
  md,
  mention,
  message,
  modal,
  option,
  quote,
  section,
  textInput,
} from '../../blockkit/index.js';
import { FEEDBACK_ISSUES, type FeedbackIssue, LIMITS } from '../../planning/models.js';
import { formProblem } from '../kit/modal.js';
import { profileActions, profileButton } from '../kit/people.js';
import { TaskCoords } from '../tasks/index.js';
import { FEEDBACK_ACTION, FEEDBACK_FIELD, FEEDBACK_VIEW } from './ids.js';

/** A feedback's address: its task and its id. Carried by the Reply button and the reply modal. */
export const FeedbackRef = TaskCoords.extend({ feedbackId: z.string().min(1) });
export type FeedbackRef = z.infer<typeof FeedbackRef>;

/**
 * What the reply modal carries: the feedback, and the DM its Reply was pressed in (`dm`: channel and
 * ts), whose button becomes *Change reply* once the reply is recorded. Absent from the Home tab, and
 * from modals opened before it existed.
 */
export const ReplyMeta = FeedbackRef.extend({
  dm: z.object({ channel: z.string().min(1), ts: z.string().min(1) }).optional(),
});
export type ReplyMeta = z.infer<typeof ReplyMeta>;

const ISSUE_LABEL: Record<FeedbackIssue, string> = {
  value: 'Value',
  complexity: 'Complexity',
  flexibility: 'Flexibility',
  testing: 'Testing',
  security: 'Security',
  'ci/cd': 'CI/CD',
  standards: 'Standards',
  misc: 'Miscellaneous',
};

export interface FeedbackForm {
  coords: TaskCoords;
  taskHeading?: string;
  issue?: FeedbackIssue;
  message?: string;
  problem?: Mrkdwn;
}

/** The title of every modal of the feedback flow. */
export const FEEDBACK_TITLE = 'Give feedback';

/** A feedback or Reply button whose value no longer names a task. */
export const FEEDBACK_STALE = md`This button no longer points at a task. Use *Give feedback* on the task card instead.`;

/** *Give feedback* used on a message that is not a task card. */
export const NOT_A_CARD = md`Feedback goes on a *task card* — the message the app posts when a task is created (use *Create task* on a message first). This message is not one. Try \`/plan help\`.`;

export function feedbackModal(form: FeedbackForm): ModalView {
  const options = FEEDBACK_ISSUES.map((issue) => option(ISSUE_LABEL[issue], issue));
  const initial = options.find((o) => o.value === form.issue);
  return modal({
    callbackId: FEEDBACK_VIEW.feedback,
    title: FEEDBACK_TITLE,
    submit: 'Send',
    close: 'Cancel',
    privateMetadata: JSON.stringify(TaskCoords.parse(form.coords)),
    blocks: [
      ...(form.taskHeading ? [section(md`On task *${inline(form.taskHeading, LIMITS.heading)}*`)] : []),
      input('Issue', FEEDBACK_FIELD.issue.block, {
        type: 'static_select',
        action_id: FEEDBACK_FIELD.issue.action,
        options,
        ...(initial ? { initial_option: initial } : {}),
      }),
      input(
        'Feedback',
        FEEDBACK_FIELD.message.block,
        textInput(FEEDBACK_FIELD.message.action, {
          multiline: true,
          max: LIMITS.minuteText,
          value: form.message,
        }),
      ),
      context(md`The task's assignee gets it in a direct message and can reply.`),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

export interface FeedbackNotice {
  ref: FeedbackRef;
  authorSlackId: string;
  taskHeading?: string;
  issue?: FeedbackIssue;
  message: string;
  /** Answered already: the button changes the reply, and says so. */
  replied?: boolean;
}

/** The DM to the task's assignee, with a Reply button (*Change reply* once they replied). */
export function feedbackDm(n: FeedbackNotice) {
  const task = n.taskHeading ? md`your task *${inline(n.taskHeading, LIMITS.heading)}*` : md`your task`;
  const issue = n.issue ? md` (${ISSUE_LABEL[n.issue]})` : md``;
  const author = mention(n.authorSlackId);
  return message(md`${author} gave feedback on ${task}${issue}`, [
    section(md`:speech_balloon: ${author} gave feedback on ${task}${issue}:`),
    section(quote(n.message)),
    ...(n.replied ? [context(md`:white_check_mark: You replied. *Change reply* replaces your reply.`)] : []),
    actions(
      undefined,
      n.replied
        ? button('Change reply', FEEDBACK_ACTION.replyChange, {
            value: JSON.stringify(FeedbackRef.parse(n.ref)),
          })
        : button('Reply', FEEDBACK_ACTION.replyOpen, { value: JSON.stringify(FeedbackRef.parse(n.ref)) }),
      ...profileButton(n.authorSlackId),
    ),
  ]);
}

export const REPLY_TITLE = 'Reply to feedback';
export const CHANGE_REPLY_TITLE = 'Change your reply';

/**
 * The reply form. With `earlier` (the feedback is answered already) it says, before anything is
 * typed, that the reply replaces that one, and starts from it.
 */
export function replyModal({
  meta,
  problem,
  reply,
  earlier,
}: {
  meta: ReplyMeta;
  problem?: Mrkdwn;
  reply?: string;
  earlier?: string;
}): ModalView {
  return modal({
    callbackId: FEEDBACK_VIEW.reply,
    title: earlier === undefined ? REPLY_TITLE : CHANGE_REPLY_TITLE,
    submit: earlier === undefined ? 'Reply' : 'Replace reply',
    close: 'Cancel',
    privateMetadata: JSON.stringify(ReplyMeta.parse(meta)),
    blocks: [
      ...(earlier === undefined
        ? []
        : [section(md`This replaces the reply already given:`), section(quote(earlier))]),
      input(
        earlier === undefined ? 'Your reply' : 'Your new reply',
        FEEDBACK_FIELD.reply.block,
        textInput(FEEDBACK_FIELD.reply.action, {
          multiline: true,
          max: LIMITS.minuteText,
          value: reply ?? earlier,
        }),
      ),
      context(
        earlier === undefined
          ? md`The feedback's author is told of your reply.`
          : md`The feedback's author is told that your reply changed.`,
      ),
      ...(problem ? [formProblem(problem)] : []),
    ],
  });
}

/** The DM to the feedback's author once the assignee replied, or (`changed`) replaced their reply. */
export function replyDm({
  replierSlackId,
  reply,
  taskHeading,
  changed,
}: {
  replierSlackId: string;
  reply: string;
  taskHeading?: string;
  changed?: boolean;
}) {
  const on = taskHeading ? md` on *${inline(taskHeading, LIMITS.heading)}*` : md``;
  const replier = mention(replierSlackId);
  const did = changed ? md`changed their reply to your feedback${on}` : md`replied to your feedback${on}`;
  return message(md`${replier} ${did}`, [
    section(md`:leftwards_arrow_with_hook: ${replier} ${did}:`),
    section(quote(reply)),
    ...profileActions(replierSlackId),
  ]);
}
