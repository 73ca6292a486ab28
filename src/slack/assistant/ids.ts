/** The assistant topic's wire ids: its shortcut, its button, its form and the form's fields. Never renamed once shipped. */
import { field } from '../kit/ids.js';

export const ASSISTANT_SHORTCUT = {
  /** Tasks proposed from a message's thread (message shortcut). */
  draftTasks: 'draft_tasks',
} as const;

export const ASSISTANT_ACTION = {
  /** Tasks the model proposed in an assistant thread, opened in the Draft tasks form. */
  reviewProposedTasks: 'assistant_review_proposed_tasks',
} as const;

export const ASSISTANT_VIEW = {
  draftTasks: 'draft_tasks',
} as const;

export const DRAFT_FIELD = {
  feature: field('draft_feature'),
  /** The n-th proposed task's heading: `draft_task_<n>`. */
  task: (n: number) => field(`draft_task_${n}`),
} as const;
