/**
 * Feedback submission: tasks.feedbackCreate as the author, then a DM to the task's assignee with a
 * Reply button (best effort once the feedback exists).
 */
import { z } from 'zod';
import { type Mrkdwn, md } from '../../../blockkit/index.js';
import { FEEDBACK_ISSUES } from '../../../planning/index.js';
import { FEEDBACK_TITLE, feedbackDm, feedbackModal } from '../../blocks/feedback.js';
import { TaskCoords } from '../../blocks/task.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { refreshTaskCards } from '../../flows/tasks.js';
import { fieldValue, minuteText, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { notify, toldText } from '../../notify.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const FeedbackForm = z.object({
  coords: TaskCoords,
  issue: z.enum(FEEDBACK_ISSUES, { error: 'Choose what the feedback is about.' }),
  message: minuteText('feedback'),
});
type FeedbackForm = z.infer<typeof FeedbackForm>;

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
      run: async ({ coords: c, issue, message }) => {
        const planning = planningOf(args.context);
        const acting = await planning.acting();
        const { planning: service } = acting;
        const feedback = await service.tasks.feedbackCreate(c.teamId, c.channelId, c.featureId, c.taskId, {
          message,
          issue,
        });
        // The feedback exists now: the task's cards count it, and telling the assignee is best
        // effort and reported, never fatal.
        await refreshTaskCards(svc.deps, args.client, acting, c);
        let told: Mrkdwn = md`The task has no assignee connected in Slack, so nobody was notified.`;
        try {
          const task = await service.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId);
          const assignee = task.assigneeUserId
            ? await svc.deps.store.identities.findByPlanningUser(planning.workspaceId, task.assigneeUserId)
            : undefined;
          if (assignee && assignee.slackUserId !== planning.slackUserId) {
            const outcome = await notify(
              svc.deps,
              args.client,
              { workspaceId: planning.workspaceId, slackUserId: assignee.slackUserId },
              'feedback',
              feedbackDm({
                ref: { ...c, feedbackId: feedback.id },
                authorSlackId: planning.slackUserId,
                taskHeading: task.heading,
                issue,
                message,
              }),
            );
            told = toldText(assignee.slackUserId, outcome, md`was told and can reply`);
          }
        } catch (error) {
          svc.deps.logger.warn({ action: 'feedback notify', err: error }, 'could not notify the assignee');
          told = md`The assignee could not be notified.`;
        }
        return { text: md`:white_check_mark: Feedback sent. ${told}` };
      },
    });
}
