/** Binds the buttons and dispatching selects. */
import type { App } from '@slack/bolt';
import { DIGEST_ACTIONS } from '../../../digest/index.js';
import type { Services } from '../../context/services.js';
import { FORM_ACTION_IDS } from '../../flows/admin/forms.js';
import { OPERATIONS } from '../../flows/admin/operations.js';
import { pressAdvance, pressDelete } from '../../flows/feature.js';
import { ACTION, ADMIN_ACTION, FIELD } from '../../ids.js';
import { type ActionArgs, ackThenRoute } from '../router.js';
import { adminCheckoutAction } from './admin-checkout.js';
import { adminFormAction } from './admin-form.js';
import { adminGoAction, adminSectionAction } from './admin-navigate.js';
import { adminOpenAction } from './admin-open.js';
import { adminOperationAction } from './admin-operation.js';
import { adminSearchAction } from './admin-search.js';
import { advanceFeatureAction } from './advance-feature.js';
import { connectOpenAction } from './connect-open.js';
import { deepContextReadAction } from './deep-context-read.js';
import { disconnectAction } from './disconnect.js';
import {
  assumptionMenuAction,
  featureAddAssumptionAction,
  featureAddTaskAction,
  featureDetailsAction,
  featureEditAction,
} from './feature-forms.js';
import { featurePressAction } from './feature-press.js';
import { feedbackOpenAction } from './feedback-open.js';
import { minuteDeleteAction, minuteEditOpenAction } from './minute-entry.js';
import { notifyPrefsAction } from './notify-prefs.js';
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
  const adminGo = adminGoAction(svc);
  const adminForm = adminFormAction(svc);
  const adminOperation = adminOperationAction(svc);
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
      [ACTION.featureAdvance]: featurePressAction(svc, pressAdvance),
      [ACTION.featureAddAssumption]: featureAddAssumptionAction(svc),
      [ACTION.featureAddTask]: featureAddTaskAction(svc),
      [ACTION.featureEdit]: featureEditAction(svc),
      [ACTION.featureDelete]: featurePressAction(svc, pressDelete),
      [ACTION.featureDetails]: featureDetailsAction(svc),
      [ACTION.assumptionMenu]: assumptionMenuAction(svc),
      [ACTION.deepContextRead]: deepContextReadAction(svc),
      // The digest composes this button; the app answers it.
      [DIGEST_ACTIONS.advanceFeature]: advanceFeatureAction(svc),
      // The admin modal (/plan admin, the Home tab's admin button).
      [ACTION.adminOpen]: adminOpenAction(svc),
      [ADMIN_ACTION.section]: adminSectionAction(svc),
      [ADMIN_ACTION.pagePrevious]: adminGo,
      [ADMIN_ACTION.pageNext]: adminGo,
      [ADMIN_ACTION.open]: adminGo,
      [ADMIN_ACTION.back]: adminGo,
      [FIELD.search.action]: adminSearchAction(svc),
      [ADMIN_ACTION.checkout]: adminCheckoutAction(svc),
      ...Object.fromEntries(FORM_ACTION_IDS.map((id) => [id, adminForm])),
      ...Object.fromEntries(Object.keys(OPERATIONS).map((id) => [id, adminOperation])),
      // Account and the Home tab.
      [ACTION.accountClose]: disconnectAction(svc, true),
      [ACTION.disconnect]: disconnectAction(svc, false),
      [ACTION.notifyKinds]: notifyPrefsAction(svc),
      [ACTION.quietStart]: notifyPrefsAction(svc),
      [ACTION.quietEnd]: notifyPrefsAction(svc),
    }),
  );
}
