/** Binds every modal submission to its callback id. */
import type { App } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { VIEW } from '../../ids.js';
import { route, type SubmitArgs } from '../router.js';
import { adminInvitationSubmission } from './admin-invitation.js';
import { adminLinkPickSubmission } from './admin-link-pick.js';
import { adminNameSubmission } from './admin-name.js';
import { adminPersonSubmission } from './admin-person.js';
import { adminSectionSubmission } from './admin-section.js';
import { adminShareSubmission } from './admin-share.js';
import { assumptionSubmission } from './assumption.js';
import { assumptionDeleteSubmission } from './assumption-delete.js';
import { connectSubmission } from './connect.js';
import { connectAdminSubmission } from './connect-admin.js';
import { createTaskSubmission } from './create-task.js';
import { discoverySubmission } from './discovery.js';
import { evidenceSubmission } from './evidence.js';
import { experimentSubmission } from './experiment.js';
import { featureSubmission } from './feature.js';
import { feedbackSubmission } from './feedback.js';
import { gradeSubmission } from './grade.js';
import { linkSubmission } from './link.js';
import { minuteEditSubmission } from './minute-edit.js';
import { replySubmission } from './reply.js';
import { taskAssignSubmission } from './task-assign.js';
import { taskEditSubmission } from './task-edit.js';

export function registerViews(app: App, svc: Services) {
  app.view(
    { type: 'view_submission' },
    route<SubmitArgs>(
      (args) => args.view.callback_id,
      {
        [VIEW.connect]: connectSubmission(svc),
        [VIEW.connectAdmin]: connectAdminSubmission(svc),
        [VIEW.link]: linkSubmission(svc),
        [VIEW.createTask]: createTaskSubmission(svc),
        [VIEW.feedback]: feedbackSubmission(svc),
        [VIEW.reply]: replySubmission(svc),
        [VIEW.grade]: gradeSubmission(svc),
        [VIEW.adminSection]: adminSectionSubmission(svc),
        [VIEW.adminInvitation]: adminInvitationSubmission(svc),
        [VIEW.adminShare]: adminShareSubmission(svc),
        [VIEW.adminName]: adminNameSubmission(svc),
        [VIEW.adminPerson]: adminPersonSubmission(svc),
        [VIEW.adminLinkPick]: adminLinkPickSubmission(svc),
        // Tasks (issue 12).
        [VIEW.taskAssign]: taskAssignSubmission(svc),
        [VIEW.discovery]: discoverySubmission(svc),
        [VIEW.taskEdit]: taskEditSubmission(svc),
        [VIEW.minuteEdit]: minuteEditSubmission(svc),
        [VIEW.feature]: featureSubmission(svc),
        [VIEW.assumption]: assumptionSubmission(svc),
        [VIEW.assumptionDelete]: assumptionDeleteSubmission(svc),
        [VIEW.experiment]: experimentSubmission(svc),
        [VIEW.evidence]: evidenceSubmission(svc),
        // Loading and result modals (VIEW.info) have no submit button: anything that still arrives is acked.
      },
      async ({ ack }) => ack(),
    ),
  );
}
