/** The feedback topic's wire ids: the shortcut, the feedback and reply forms, the DM's Reply button. */
import { field } from '../kit/ids.js';

export const FEEDBACK_SHORTCUT = { giveFeedback: 'give_feedback' } as const;

export const FEEDBACK_VIEW = { feedback: 'feedback', reply: 'reply' } as const;

export const FEEDBACK_ACTION = {
  /** Reply, in the assignee's DM about a feedback (and on the Home tab). */
  replyOpen: 'reply_open',
  /** Change reply, in the same DM once the assignee replied: the reply form, saying it replaces. */
  replyChange: 'reply_change_open',
} as const;

export const FEEDBACK_FIELD = {
  issue: field('issue'),
  message: field('message'),
  reply: field('reply'),
} as const;
