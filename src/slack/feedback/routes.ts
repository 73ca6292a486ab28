/** The feedback topic's routes: giving feedback on a task (shortcut or card button) and replying. */
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { TASK_ACTION } from '../tasks/index.js';
import { feedbackOpenAction, feedbackSubmission, giveFeedbackShortcut } from './give.js';
import { FEEDBACK_ACTION, FEEDBACK_SHORTCUT, FEEDBACK_VIEW } from './ids.js';
import { replyOpenAction, replySubmission } from './reply.js';

export const feedbackRoutes: TopicRoutes<Services> = {
  topic: 'feedback',
  gate: { access: 'member' },
  shortcuts: {
    [FEEDBACK_SHORTCUT.giveFeedback]: {
      type: 'message',
      name: 'Give feedback',
      description: 'Give feedback on the task of this card',
      run: giveFeedbackShortcut,
    },
  },
  actions: {
    // The task card's Give feedback button (the card belongs to the tasks topic).
    [TASK_ACTION.feedbackOpen]: feedbackOpenAction,
    [FEEDBACK_ACTION.replyOpen]: replyOpenAction,
    [FEEDBACK_ACTION.replyChange]: replyOpenAction,
  },
  views: {
    [FEEDBACK_VIEW.feedback]: feedbackSubmission,
    [FEEDBACK_VIEW.reply]: replySubmission,
  },
};
