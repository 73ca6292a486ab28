/** What other topics use of the tasks topic: its routes, the card's coordinates and buttons, live cards. */
export {
  type CardLike,
  liveTaskCard,
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
export { readTaskView, taskCards, taskOnCard, taskRef } from './live.js';
export { taskRoutes } from './routes.js';
