/** Binds every modal submission to its callback id. */
import type { App } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { VIEW } from '../../ids.js';
import { connectSubmission } from './connect.js';
import { connectAdminSubmission } from './connect-admin.js';
import { createTaskSubmission } from './create-task.js';
import { feedbackSubmission } from './feedback.js';
import { gradeSubmission } from './grade.js';
import { linkSubmission } from './link.js';
import { replySubmission } from './reply.js';

export function registerViews(app: App, svc: Services) {
  app.view(VIEW.connect, connectSubmission(svc));
  app.view(VIEW.connectAdmin, connectAdminSubmission(svc));
  app.view(VIEW.link, linkSubmission(svc));
  app.view(VIEW.createTask, createTaskSubmission(svc));
  app.view(VIEW.feedback, feedbackSubmission(svc));
  app.view(VIEW.reply, replySubmission(svc));
  app.view(VIEW.grade, gradeSubmission(svc));
  // Loading and result modals have no submit button; acknowledge anything that still arrives.
  app.view(VIEW.info, async ({ ack }) => {
    await ack();
  });
}
