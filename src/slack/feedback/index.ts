/** What other topics use of the feedback topic (the Home tab): the Reply button and what it carries. */
export { FeedbackRef } from './blocks.js';
export { FEEDBACK_ACTION } from './ids.js';
