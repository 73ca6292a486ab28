/** Binds the buttons and dispatching selects. */
import type { App } from '@slack/bolt';
import { DIGEST_ACTIONS } from '../../../digest/index.js';
import { connectOpenAction } from '../../account/connect.js';
import { disconnectAction } from '../../account/disconnect.js';
import { ACCOUNT_ACTION } from '../../account/ids.js';
import { adminCheckoutAction } from '../../admin/billing.js';
import { adminFormAction, FORM_ACTION_IDS } from '../../admin/forms.js';
import { ADMIN_ACTION, ADMIN_FIELD } from '../../admin/ids.js';
import { adminGoAction, adminSectionAction } from '../../admin/navigate.js';
import { adminOperationAction, OPERATIONS } from '../../admin/operations.js';
import { adminOpenAction } from '../../admin/root.js';
import { adminSearchAction } from '../../admin/section-search.js';
import { type ActionArgs, ackThenRoute } from '../../bolt/router.js';
import { advanceFeatureAction } from '../../digest/advance.js';
import { assumptionMenuAction, featureAddAssumptionAction } from '../../features/assumptions.js';
import { featureDetailsAction } from '../../features/details.js';
import { featureEditAction } from '../../features/feature-form.js';
import { FEATURE_ACTION } from '../../features/ids.js';
import { featurePressAction, pressAdvance, pressDelete } from '../../features/live.js';
import { deepContextReadAction } from '../../features/search.js';
import { feedbackOpenAction } from '../../feedback/give.js';
import { FEEDBACK_ACTION } from '../../feedback/ids.js';
import { replyOpenAction } from '../../feedback/reply.js';
import { HOME_ACTION } from '../../home/ids.js';
import { notifyPrefsAction } from '../../home/preferences.js';
import { ACTION } from '../../kit/ids.js';
import type { Services } from '../../kit/services.js';
import { taskAssignOpenAction } from '../../tasks/assign.js';
import { featureAddTaskAction } from '../../tasks/create.js';
import { minuteDeleteAction, minuteEditOpenAction, taskDetailsOpenAction } from '../../tasks/details.js';
import { taskDiscoveryOpenAction } from '../../tasks/discovery.js';
import { taskEditOpenAction } from '../../tasks/edit.js';
import { TASK_ACTION } from '../../tasks/ids.js';
import { tasksMoreAction } from '../../tasks/list.js';
import { taskDeleteAction, taskStateAction } from '../../tasks/state.js';
import { teamPickedAction } from '../../team-picked.js';

export function registerActions(app: App, svc: Services) {
  const adminGo = adminGoAction(svc);
  const adminForm = adminFormAction(svc);
  const adminOperation = adminOperationAction(svc);
  app.action(
    /.*/,
    ackThenRoute<ActionArgs>((args) => args.action.action_id, {
      [ACTION.connectOpen]: connectOpenAction(svc),
      [TASK_ACTION.feedbackOpen]: feedbackOpenAction(svc),
      [FEEDBACK_ACTION.replyOpen]: replyOpenAction(svc),
      [ACTION.teamPicked]: teamPickedAction(svc),
      // Tasks (issue 12): the live task card, its Details modal and /plan tasks.
      [TASK_ACTION.stateForward]: taskStateAction(svc),
      [TASK_ACTION.stateBack]: taskStateAction(svc),
      [TASK_ACTION.assignOpen]: taskAssignOpenAction(svc),
      [TASK_ACTION.discoveryOpen]: taskDiscoveryOpenAction(svc),
      [TASK_ACTION.detailsOpen]: taskDetailsOpenAction(svc),
      [TASK_ACTION.editOpen]: taskEditOpenAction(svc),
      [TASK_ACTION.delete]: taskDeleteAction(svc),
      [TASK_ACTION.minuteEditOpen]: minuteEditOpenAction(svc),
      [TASK_ACTION.minuteDelete]: minuteDeleteAction(svc),
      [TASK_ACTION.more]: tasksMoreAction(svc),
      [FEATURE_ACTION.advance]: featurePressAction(svc, pressAdvance),
      [FEATURE_ACTION.addAssumption]: featureAddAssumptionAction(svc),
      [FEATURE_ACTION.addTask]: featureAddTaskAction(svc),
      [FEATURE_ACTION.edit]: featureEditAction(svc),
      [FEATURE_ACTION.delete]: featurePressAction(svc, pressDelete),
      [FEATURE_ACTION.details]: featureDetailsAction(svc),
      [FEATURE_ACTION.assumptionMenu]: assumptionMenuAction(svc),
      [FEATURE_ACTION.deepContextRead]: deepContextReadAction(svc),
      // The digest composes this button; the app answers it.
      [DIGEST_ACTIONS.advanceFeature]: advanceFeatureAction(svc),
      // The admin modal (/plan admin, the Home tab's admin button).
      [ADMIN_ACTION.openModal]: adminOpenAction(svc),
      [ADMIN_ACTION.section]: adminSectionAction(svc),
      [ADMIN_ACTION.pagePrevious]: adminGo,
      [ADMIN_ACTION.pageNext]: adminGo,
      [ADMIN_ACTION.open]: adminGo,
      [ADMIN_ACTION.back]: adminGo,
      [ADMIN_FIELD.search.action]: adminSearchAction(svc),
      [ADMIN_ACTION.checkout]: adminCheckoutAction(svc),
      ...Object.fromEntries(FORM_ACTION_IDS.map((id) => [id, adminForm])),
      ...Object.fromEntries(Object.keys(OPERATIONS).map((id) => [id, adminOperation])),
      // Account and the Home tab.
      [ACCOUNT_ACTION.close]: disconnectAction(svc, true),
      [ACCOUNT_ACTION.disconnect]: disconnectAction(svc, false),
      [HOME_ACTION.notifyKinds]: notifyPrefsAction(svc),
      [HOME_ACTION.quietStart]: notifyPrefsAction(svc),
      [HOME_ACTION.quietEnd]: notifyPrefsAction(svc),
    }),
  );
}
