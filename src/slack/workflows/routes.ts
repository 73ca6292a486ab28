/** The workflows topic's routes: its Workflow Builder steps (each checks the person it acts as). */
import type { TopicRoutes } from '../bolt/routes.js';
import type { Services } from '../kit/services.js';
import { WORKFLOW_STEPS } from './steps.js';

export const workflowRoutes: TopicRoutes<Services> = {
  topic: 'workflows',
  gate: { access: 'member' },
  steps: WORKFLOW_STEPS,
};
