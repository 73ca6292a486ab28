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
}

/** The DM to the task's assignee, with a Reply button. */
export function feedbackDm(n: FeedbackNotice) {
  const task = n.taskHeading ? md`your task *${inline(n.taskHeading, LIMITS.heading)}*` : md`your task`;
  const issue = n.issue ? md` (${ISSUE_LABEL[n.issue]})` : md``;
  const author = mention(n.authorSlackId);
  return message(md`${author} gave feedback on ${task}${issue}`, [
    section(md`:speech_balloon: ${author} gave feedback on ${task}${issue}:`),
    section(quote(n.message)),
    actions(
      undefined,
      button('Reply', FEEDBACK_ACTION.replyOpen, { value: JSON.stringify(FeedbackRef.parse(n.ref)) }),
      ...profileButton(n.authorSlackId),
    ),
  ]);
}

export function replyModal({
  ref,
  problem,
  reply,
}: {
  ref: FeedbackRef;
  problem?: Mrkdwn;
  reply?: string;
}): ModalView {
  return modal({
    callbackId: FEEDBACK_VIEW.reply,
    title: 'Reply to feedback',
    submit: 'Reply',
    close: 'Cancel',
    privateMetadata: JSON.stringify(FeedbackRef.parse(ref)),
    blocks: [
      input(
        'Your reply',
        FEEDBACK_FIELD.reply.block,
        textInput(FEEDBACK_FIELD.reply.action, { multiline: true, max: LIMITS.minuteText, value: reply }),
      ),
      context(md`The feedback's author is told of your reply.`),
      ...(problem ? [formProblem(problem)] : []),
    ],
  });
}

/** The DM to the feedback's author once the assignee replied. */
export function replyDm({
  replierSlackId,
  reply,
  taskHeading,
}: {
  replierSlackId: string;
  reply: string;
  taskHeading?: string;
}) {
  const on = taskHeading ? md` on *${inline(taskHeading, LIMITS.heading)}*` : md``;
  const replier = mention(replierSlackId);
  return message(md`${replier} replied to your feedback${on}`, [
    section(md`:leftwards_arrow_with_hook: ${replier} replied to your feedback${on}:`),
    section(quote(reply)),
    ...profileActions(replierSlackId),
  ]);
}
