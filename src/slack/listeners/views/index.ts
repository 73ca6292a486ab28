/** Binds every modal submission to its callback id. */
import type { App } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { VIEW } from '../../ids.js';
import { route, type SubmitArgs } from '../router.js';
import { assumptionSubmission } from './assumption.js';
import { assumptionDeleteSubmission } from './assumption-delete.js';
import { connectSubmission } from './connect.js';
import { connectAdminSubmission } from './connect-admin.js';
import { createTaskSubmission } from './create-task.js';
import { evidenceSubmission } from './evidence.js';
import { experimentSubmission } from './experiment.js';
import { featureSubmission } from './feature.js';
import { feedbackSubmission } from './feedback.js';
import { gradeSubmission } from './grade.js';
import { linkSubmission } from './link.js';
import { replySubmission } from './reply.js';

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
