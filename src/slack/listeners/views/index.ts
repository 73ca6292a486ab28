/** Binds every modal submission to its callback id. */
import type { App } from '@slack/bolt';
import { connectAdminSubmission, connectSubmission } from '../../account/connect.js';
import { ACCOUNT_VIEW } from '../../account/ids.js';
import { ADMIN_VIEW } from '../../admin/ids.js';
import { adminSectionSubmission } from '../../admin/section-search.js';
import {
  adminInvitationSubmission,
  adminLinkPickSubmission,
  adminNameSubmission,
  adminPersonSubmission,
  adminShareSubmission,
} from '../../admin/submissions.js';
import { route, type SubmitArgs } from '../../bolt/router.js';
import { assumptionDeleteSubmission, assumptionSubmission } from '../../features/assumptions.js';
import { evidenceSubmission } from '../../features/evidence.js';
import { experimentSubmission } from '../../features/experiments.js';
import { featureSubmission } from '../../features/feature-form.js';
import { FEATURE_VIEW } from '../../features/ids.js';
import { feedbackSubmission } from '../../feedback/give.js';
import { FEEDBACK_VIEW } from '../../feedback/ids.js';
import { replySubmission } from '../../feedback/reply.js';
import { GRADE_VIEW } from '../../grades/ids.js';
import { gradeSubmission } from '../../grades/peer-grade.js';
import type { Services } from '../../kit/services.js';
import { LINK_VIEW } from '../../link/ids.js';
import { linkSubmission } from '../../link/link-form.js';
import { taskAssignSubmission } from '../../tasks/assign.js';
import { createTaskSubmission } from '../../tasks/create.js';
import { minuteEditSubmission } from '../../tasks/details.js';
import { discoverySubmission } from '../../tasks/discovery.js';
import { taskEditSubmission } from '../../tasks/edit.js';
import { TASK_VIEW } from '../../tasks/ids.js';

export function registerViews(app: App, svc: Services) {
  app.view(
    { type: 'view_submission' },
    route<SubmitArgs>(
      (args) => args.view.callback_id,
      {
        [ACCOUNT_VIEW.connect]: connectSubmission(svc),
        [ACCOUNT_VIEW.connectAdmin]: connectAdminSubmission(svc),
        [LINK_VIEW.link]: linkSubmission(svc),
        [TASK_VIEW.create]: createTaskSubmission(svc),
        [FEEDBACK_VIEW.feedback]: feedbackSubmission(svc),
        [FEEDBACK_VIEW.reply]: replySubmission(svc),
        [GRADE_VIEW.grade]: gradeSubmission(svc),
        [ADMIN_VIEW.section]: adminSectionSubmission(svc),
        [ADMIN_VIEW.invitation]: adminInvitationSubmission(svc),
        [ADMIN_VIEW.share]: adminShareSubmission(svc),
        [ADMIN_VIEW.name]: adminNameSubmission(svc),
        [ADMIN_VIEW.person]: adminPersonSubmission(svc),
        [ADMIN_VIEW.linkPick]: adminLinkPickSubmission(svc),
        // Tasks (issue 12).
        [TASK_VIEW.assign]: taskAssignSubmission(svc),
        [TASK_VIEW.discovery]: discoverySubmission(svc),
        [TASK_VIEW.edit]: taskEditSubmission(svc),
        [TASK_VIEW.minuteEdit]: minuteEditSubmission(svc),
        [FEATURE_VIEW.feature]: featureSubmission(svc),
        [FEATURE_VIEW.assumption]: assumptionSubmission(svc),
        [FEATURE_VIEW.assumptionDelete]: assumptionDeleteSubmission(svc),
        [FEATURE_VIEW.experiment]: experimentSubmission(svc),
        [FEATURE_VIEW.evidence]: evidenceSubmission(svc),
        // Loading and result modals (VIEW.info) have no submit button: anything that still arrives is acked.
      },
      async ({ ack }) => ack(),
    ),
  );
}
