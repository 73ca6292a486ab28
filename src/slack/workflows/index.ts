/** What other modules use of the workflows topic: its routes and its steps' wire ids. */
export { STEP_PARAM, WORKFLOW_STEP } from './ids.js';
export { workflowRoutes } from './routes.js';
