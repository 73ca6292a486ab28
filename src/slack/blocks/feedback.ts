/** Feedback on a task: the form, the DM to the assignee with its Reply button, the reply form and notice. */
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { FEEDBACK_ISSUES, type FeedbackIssue, LIMITS } from '../../planning/models.js';
import { ACTION, FIELD, VIEW } from '../ids.js';
import { actions, button, context, input, md, message, modal, option, section, truncate } from './kit.js';
import { TaskCoords } from './task.js';
import { formProblem } from './views.js';

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
  problem?: string;
}

/** The title of every modal of the feedback flow. */
export const FEEDBACK_TITLE = 'Give feedback';

export function feedbackModal(form: FeedbackForm): ModalView {
  const options = FEEDBACK_ISSUES.map((issue) => option(ISSUE_LABEL[issue], issue));
  const initial = options.find((o) => o.value === form.issue);
  return modal({
    callbackId: VIEW.feedback,
    title: FEEDBACK_TITLE,
    submit: 'Send',
    close: 'Cancel',
    privateMetadata: JSON.stringify(TaskCoords.parse(form.coords)),
    blocks: [
      ...(form.taskHeading ? [section(md`On task *${truncate(form.taskHeading, LIMITS.heading)}*`)] : []),
      input('Issue', FIELD.issue.block, {
        type: 'static_select',
        action_id: FIELD.issue.action,
        options,
        ...(initial ? { initial_option: initial } : {}),
      }),
      input('Feedback', FIELD.message.block, {
        type: 'plain_text_input',
        action_id: FIELD.message.action,
        multiline: true,
        max_length: LIMITS.minuteText,
        ...(form.message ? { initial_value: truncate(form.message, LIMITS.minuteText) } : {}),
      }),
      context("The task's assignee gets it in a direct message and can reply."),
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
  const what = n.taskHeading ? md`your task *${truncate(n.taskHeading, LIMITS.heading)}*` : 'your task';
  const head = `:speech_balloon: <@${n.authorSlackId}> gave feedback on ${what}${
    n.issue ? ` (${ISSUE_LABEL[n.issue]})` : ''
  }:`;
  return message(`New feedback on ${n.taskHeading ?? 'your task'}`, [
    section(head),
    section(`>${md`${n.message}`.replace(/\n/g, '\n>')}`),
    actions(
      undefined,
      button('Reply', ACTION.replyOpen, { value: JSON.stringify(FeedbackRef.parse(n.ref)) }),
    ),
  ]);
}

export function replyModal({
  ref,
  problem,
  reply,
}: {
  ref: FeedbackRef;
  problem?: string;
  reply?: string;
}): ModalView {
  return modal({
    callbackId: VIEW.reply,
    title: 'Reply to feedback',
    submit: 'Reply',
    close: 'Cancel',
    privateMetadata: JSON.stringify(FeedbackRef.parse(ref)),
    blocks: [
      input('Your reply', FIELD.reply.block, {
        type: 'plain_text_input',
        action_id: FIELD.reply.action,
        multiline: true,
        max_length: LIMITS.minuteText,
        ...(reply ? { initial_value: truncate(reply, LIMITS.minuteText) } : {}),
      }),
      context("The feedback's author is told of your reply."),
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
  const on = taskHeading ? md` on *${truncate(taskHeading, LIMITS.heading)}*` : '';
  return message('Your feedback got a reply', [
    section(`:leftwards_arrow_with_hook: <@${replierSlackId}> replied to your feedback${on}:`),
    section(`>${md`${reply}`.replace(/\n/g, '\n>')}`),
  ]);
}
