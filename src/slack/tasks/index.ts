/**
 * What other topics use of the tasks topic: the card's coordinates and buttons, a task created or a
 * discovery logged (workflow steps), a task read as its card or Details show it (previews, the
 * watch), and how the change funnel reads a task (src/slack/changes.ts).
 */
export {
  type CardLike,
  parseCoords,
  TaskCoords,
  type TaskView,
  taskCoordsFromMessage,
  taskStateButtons,
} from './card.js';
export { type CreatedTask, createTask, type NewTask } from './create.js';
export { readTaskDetails, type TaskDetails } from './details.js';
export { logDiscovery } from './discovery.js';
export { TASK_ACTION } from './ids.js';
export { readTaskView, taskCards, taskOnCard } from './live.js';
