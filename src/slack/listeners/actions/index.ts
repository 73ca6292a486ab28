/** Binds the buttons and dispatching selects. */
import type { App } from '@slack/bolt';
import { DIGEST_ACTIONS } from '../../../digest/index.js';
import type { Services } from '../../context/services.js';
import { ACTION } from '../../ids.js';
import { type ActionArgs, ackThenRoute } from '../router.js';
import { advanceFeatureAction } from './advance-feature.js';
import { connectOpenAction } from './connect-open.js';
import { deepContextReadAction } from './deep-context-read.js';
import { featureAdvanceAction } from './feature-advance.js';
import { featureDeleteAction } from './feature-delete.js';
import {
  assumptionMenuAction,
  featureAddAssumptionAction,
  featureAddTaskAction,
  featureDetailsAction,
  featureEditAction,
} from './feature-forms.js';
import { feedbackOpenAction } from './feedback-open.js';
import { replyOpenAction } from './reply-open.js';
import { teamPickedAction } from './team-picked.js';

export function registerActions(app: App, svc: Services) {
  app.action(
    /.*/,
    ackThenRoute<ActionArgs>((args) => args.action.action_id, {
      [ACTION.connectOpen]: connectOpenAction(svc),
      [ACTION.feedbackOpen]: feedbackOpenAction(svc),
      [ACTION.replyOpen]: replyOpenAction(svc),
      [ACTION.teamPicked]: teamPickedAction(svc),
      [ACTION.featureAdvance]: featureAdvanceAction(svc),
      [ACTION.featureAddAssumption]: featureAddAssumptionAction(svc),
      [ACTION.featureAddTask]: featureAddTaskAction(svc),
      [ACTION.featureEdit]: featureEditAction(svc),
      [ACTION.featureDelete]: featureDeleteAction(svc),
      [ACTION.featureDetails]: featureDetailsAction(svc),
      [ACTION.assumptionMenu]: assumptionMenuAction(svc),
      [ACTION.deepContextRead]: deepContextReadAction(svc),
      // The digest composes this button; the app answers it.
      [DIGEST_ACTIONS.advanceFeature]: advanceFeatureAction(svc),
    }),
  );
}
