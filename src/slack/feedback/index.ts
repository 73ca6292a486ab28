/** What other topics use of the feedback topic: its routes, the Reply button and what it carries. */
export { FeedbackRef } from './blocks.js';
export { FEEDBACK_ACTION } from './ids.js';
export { feedbackRoutes } from './routes.js';
