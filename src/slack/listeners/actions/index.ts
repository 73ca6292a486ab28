/** Binds the buttons and dispatching selects. */
import type { App } from '@slack/bolt';
import { DIGEST_ACTIONS } from '../../../digest/index.js';
import type { Services } from '../../context/services.js';
import { ACTION } from '../../ids.js';
import { type ActionArgs, ackThenRoute } from '../router.js';
import { advanceFeatureAction } from './advance-feature.js';
import { connectOpenAction } from './connect-open.js';
import { feedbackOpenAction } from './feedback-open.js';
import { minuteDeleteAction, minuteEditOpenAction } from './minute-entry.js';
import { replyOpenAction } from './reply-open.js';
import { taskDeleteAction } from './task-delete.js';
import {
  taskAssignOpenAction,
  taskDetailsOpenAction,
  taskDiscoveryOpenAction,
  taskEditOpenAction,
} from './task-open.js';
import { taskStateAction } from './task-state.js';
import { tasksMoreAction } from './tasks-more.js';
import { teamPickedAction } from './team-picked.js';

export function registerActions(app: App, svc: Services) {
  app.action(
    /.*/,
    ackThenRoute<ActionArgs>((args) => args.action.action_id, {
      [ACTION.connectOpen]: connectOpenAction(svc),
      [ACTION.feedbackOpen]: feedbackOpenAction(svc),
      [ACTION.replyOpen]: replyOpenAction(svc),
      [ACTION.teamPicked]: teamPickedAction(svc),
      // Tasks (issue 12): the live task card, its Details modal and /plan tasks.
      [ACTION.taskStateForward]: taskStateAction(svc),
      [ACTION.taskStateBack]: taskStateAction(svc),
      [ACTION.taskAssignOpen]: taskAssignOpenAction(svc),
      [ACTION.taskDiscoveryOpen]: taskDiscoveryOpenAction(svc),
      [ACTION.taskDetailsOpen]: taskDetailsOpenAction(svc),
      [ACTION.taskEditOpen]: taskEditOpenAction(svc),
      [ACTION.taskDelete]: taskDeleteAction(svc),
      [ACTION.minuteEditOpen]: minuteEditOpenAction(svc),
      [ACTION.minuteDelete]: minuteDeleteAction(svc),
      [ACTION.tasksMore]: tasksMoreAction(svc),
      // The digest composes this button; the app answers it.
      [DIGEST_ACTIONS.advanceFeature]: advanceFeatureAction(svc),
    }),
  );
}
