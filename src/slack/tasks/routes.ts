/**
 * The tasks topic's routes: the live task card, its forms, `/plan tasks`, two message shortcuts, and
 * replies in task card threads recorded as discoveries (`message` events, thread-replies.ts).
 */
import type { TopicRoutes } from '../bolt/routes.js';
import { FEATURE_ACTION } from '../features/index.js';
import { notionOptions } from '../grades/index.js';
import { ACTION } from '../kit/ids.js';
import type { Services } from '../kit/services.js';
import { assignWhoPicked, taskAssignOpenAction, taskAssignSubmission } from './assign.js';
import {
  createTaskShortcut,
  createTaskSubmission,
  createTaskTeamPicked,
  featureAddTaskAction,
  featureOptions,
} from './create.js';
import {
  minuteDeleteAction,
  minuteEditOpenAction,
  minuteEditSubmission,
  taskDetailsOpenAction,
} from './details.js';
import {
  discoverySubmission,
  logDiscoveryShortcut,
  taskDiscoveryOpenAction,
  taskOptions,
} from './discovery.js';
import { taskEditOpenAction, taskEditSubmission } from './edit.js';
import { TASK_ACTION, TASK_FIELD, TASK_SHORTCUT, TASK_VIEW } from './ids.js';
import { tasksMoreAction, tasksSubcommand } from './list.js';
import {
  taskDeleteAction,
  taskDeleteAskAction,
  taskDeleteConfirmSubmission,
  taskStateAction,
} from './state.js';
import { threadMessage } from './thread-replies.js';

export const taskRoutes: TopicRoutes<Services> = {
  topic: 'tasks',
  gate: { access: 'member' },
  subcommands: [tasksSubcommand],
  shortcuts: {
    [TASK_SHORTCUT.createTask]: {
      type: 'message',
      name: 'Create task',
      description: 'Turn this message into a planning task',
      run: createTaskShortcut,
    },
    [TASK_SHORTCUT.logDiscovery]: {
      type: 'message',
      name: 'Log discovery',
      description: 'Log this message as a discovery of a task',
      run: logDiscoveryShortcut,
    },
  },
  actions: {
    [TASK_ACTION.stateForward]: taskStateAction,
    [TASK_ACTION.stateBack]: taskStateAction,
    [TASK_ACTION.assignOpen]: taskAssignOpenAction,
    [TASK_ACTION.discoveryOpen]: taskDiscoveryOpenAction,
    [TASK_ACTION.detailsOpen]: taskDetailsOpenAction,
    [TASK_ACTION.editOpen]: taskEditOpenAction,
    [TASK_ACTION.delete]: taskDeleteAction,
    [TASK_ACTION.deleteAsk]: taskDeleteAskAction,
    [TASK_ACTION.minuteEditOpen]: minuteEditOpenAction,
    [TASK_ACTION.minuteDelete]: minuteDeleteAction,
    [TASK_ACTION.more]: tasksMoreAction,
    // A feature card's Add task opens this topic's create-task form for that feature.
    [FEATURE_ACTION.addTask]: featureAddTaskAction,
    [ACTION.teamPicked]: { inView: TASK_VIEW.create, run: createTaskTeamPicked },
    // The Assign form's choice dispatches: "someone else" shows the people picker.
    [TASK_FIELD.candidate.action]: { inView: TASK_VIEW.assign, run: assignWhoPicked },
  },
  views: {
    [TASK_VIEW.create]: createTaskSubmission,
    [TASK_VIEW.assign]: taskAssignSubmission,
    [TASK_VIEW.discovery]: discoverySubmission,
    [TASK_VIEW.edit]: taskEditSubmission,
    [TASK_VIEW.minuteEdit]: minuteEditSubmission,
    [TASK_VIEW.deleteConfirm]: taskDeleteConfirmSubmission,
  },
  options: {
    [TASK_FIELD.feature.action]: featureOptions,
    [TASK_FIELD.discoveryTask.action]: taskOptions,
    [TASK_FIELD.notions.action]: notionOptions,
  },
  // Replies in task card threads become discoveries where the link says so; each checks its author.
  events: { message: threadMessage },
};
