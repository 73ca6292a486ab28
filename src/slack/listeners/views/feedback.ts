/**
 * Feedback submission: tasks.feedbackCreate as the author, then a DM to the task's assignee with a
 * Reply button (best effort once the feedback exists).
 */
import { z } from 'zod';
import { FEEDBACK_ISSUES, LIMITS, type PlanningClient } from '../../../planning/index.js';
import { FEEDBACK_TITLE, feedbackDm, feedbackModal } from '../../blocks/feedback.js';
import { TaskCoords } from '../../blocks/task.js';
import { noticeView } from '../../blocks/views.js';
import { parseJson } from '../../carried.js';
import { directMessage } from '../../context/dm.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { fieldValue, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { handleSubmission, type SubmitArgs } from './submission.js';

export const minuteText = (what: string) =>
  z
    .string({ error: `Write your ${what}.` })
    .trim()
    .min(1, `Write your ${what}.`)
    .max(LIMITS.minuteText, `At most ${LIMITS.minuteText} characters.`);

const FeedbackForm = z.object({
  coords: TaskCoords,
  issue: z.enum(FEEDBACK_ISSUES, { error: 'Choose what the feedback is about.' }),
  message: minuteText('feedback'),
});
type FeedbackForm = z.infer<typeof FeedbackForm>;

/** The task's heading and assignee, when the task can still be read. */
export async function readTask(planning: PlanningClient, c: TaskCoords) {
  return planning.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId);
}

export function feedbackSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<FeedbackForm>(svc, args, {
      action: 'feedback',
      title: FEEDBACK_TITLE,
      working: 'Sending your feedback…',
      parse: (values: StateValues, meta) =>
        validateForm(
          FeedbackForm,
          {
            coords: parseJson(meta),
            issue: fieldValue(values, FIELD.issue),
            message: fieldValue(values, FIELD.message),
          },
          values,
          { coords: FIELD.message, issue: FIELD.issue, message: FIELD.message },
        ),
      retry: (data, problem) =>
        feedbackModal({ coords: data.coords, issue: data.issue, message: data.message, problem }),
      run: async ({ coords, issue, message }) => {
        const planning = planningOf(args.context);
        const { planning: service } = await planning.acting();
        const c = coords;
        const feedback = await service.tasks.feedbackCreate(c.teamId, c.channelId, c.featureId, c.taskId, {
          message,
          issue,
        });
        // The feedback exists now: telling the assignee is best effort and reported, never fatal.
        let told = 'The task has no assignee connected in Slack, so nobody was notified.';
        try {
          const task = await readTask(service, c);
          const assignee = task.assigneeUserId
            ? await svc.deps.store.identities.findByPlanningUser(planning.workspaceId, task.assigneeUserId)
            : undefined;
          if (assignee && assignee.slackUserId !== planning.slackUserId) {
            await directMessage(
              args.client,
              assignee.slackUserId,
              feedbackDm({
                ref: { ...c, feedbackId: feedback.id },
                authorSlackId: planning.slackUserId,
                taskHeading: task.heading,
                issue,
                message,
              }),
            );
            told = `<@${assignee.slackUserId}> was told and can reply.`;
          }
        } catch (error) {
          svc.deps.logger.warn({ action: 'feedback notify', err: error }, 'could not notify the assignee');
          told = 'The assignee could not be notified.';
        }
        return noticeView(FEEDBACK_TITLE, `:white_check_mark: Feedback sent. ${told}`);
      },
    });
}
