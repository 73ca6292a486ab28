/** Create-task submission: tasks.create (+ tasks.assign), then the task card in the message's thread. */
import type { ViewOutput } from '@slack/bolt';
import { z } from 'zod';
import { joinMd, type Mrkdwn, md, mention } from '../../../blockkit/index.js';
import { LIMITS } from '../../../planning/index.js';
import { createTaskModal, TASK_TITLE, TaskModalMeta } from '../../blocks/task.js';
import { liveTaskCard } from '../../blocks/task-card.js';
import { postCard } from '../../cards/index.js';
import { explainFailure } from '../../context/failures.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { refreshFeatureCards } from '../../flows/feature.js';
import {
  channelChoices,
  fieldLabel,
  fieldValue,
  type StateValues,
  slackUserId,
  teamChoices,
  validateForm,
} from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const TaskSubmission = z.object({
  meta: TaskModalMeta,
  teamId: z.string({ error: 'Choose a planning team.' }).min(1),
  channelId: z.string({ error: 'Choose a planning channel.' }).min(1),
  featureId: z.string({ error: 'Choose a feature.' }).min(1),
  featureHeading: z.string().optional(),
  heading: z
    .string({ error: 'A task needs a heading.' })
    .trim()
    .min(1, 'A task needs a heading.')
    .max(LIMITS.heading, `At most ${LIMITS.heading} characters.`),
  details: z.string().trim().max(LIMITS.details, `At most ${LIMITS.details} characters.`).optional(),
  assignee: slackUserId('Choose an assignee.').optional(),
});
type TaskSubmission = z.infer<typeof TaskSubmission>;

function parse(values: StateValues, privateMetadata: string) {
  const meta = parseJson(privateMetadata);
  const link = (meta as TaskModalMeta | undefined)?.link;
  return validateForm(
    TaskSubmission,
    {
      meta,
      teamId: link?.teamId ?? fieldValue(values, FIELD.team),
      channelId: link?.channelId ?? fieldValue(values, FIELD.channel),
      featureId: fieldValue(values, FIELD.feature),
      featureHeading: fieldLabel(values, FIELD.feature),
      heading: fieldValue(values, FIELD.heading),
      details: fieldValue(values, FIELD.details),
      assignee: fieldValue(values, FIELD.assignee),
    },
    values,
    {
      meta: FIELD.heading,
      teamId: FIELD.team,
      channelId: FIELD.channel,
      featureId: FIELD.feature,
      heading: FIELD.heading,
      details: FIELD.details,
      assignee: FIELD.assignee,
    },
  );
}

async function run(svc: Services, data: TaskSubmission, args: SubmitArgs) {
  const { client, context, body } = args;
  const planning = planningOf(context);
  const acting = await planning.acting();
  const { planning: service } = acting;
  // The assignee is resolved first: an unknown one must not leave a task behind.
  const assignee = data.assignee ? await planning.other(data.assignee) : undefined;
  const task = await service.tasks.create(data.teamId, data.channelId, data.featureId, {
    heading: data.heading,
    ...(data.details ? { details: data.details } : {}),
  });
  const coords = {
    teamId: data.teamId,
    channelId: data.channelId,
    featureId: data.featureId,
    taskId: task.id,
  };

  // From here the task exists: later failures are reported, never turned into "nothing was saved".
  const notes: Mrkdwn[] = [];
  let assigned = false;
  if (assignee) {
    try {
      await service.tasks.assign(
        data.teamId,
        data.channelId,
        data.featureId,
        task.id,
        assignee.planningUserId,
      );
      assigned = true;
    } catch (error) {
      const why = await explainFailure(svc.deps, error, {
        action: 'tasks.assign',
        workspaceId: planning.workspaceId,
      });
      const reason = 'text' in why ? why.text : md`their connection failed.`;
      notes.push(md`It could not be assigned to ${mention(assignee.slackUserId)}: ${reason}`);
    }
  }
  let cardTs: string | undefined;
  try {
    cardTs = await postCard(
      svc.deps,
      client,
      { workspaceId: planning.workspaceId, kind: 'task', entityId: task.id },
      { channel: data.meta.channel, threadTs: data.meta.threadTs },
      liveTaskCard({
        coords,
        heading: task.heading ?? data.heading,
        featureHeading: data.featureHeading,
        state: task.state,
        ...(assigned && assignee
          ? { assigneeSlackId: assignee.slackUserId, assigneeUserId: assignee.planningUserId }
          : {}),
        authorSlackId: body.user.id,
        minutes: { discoveries: 0, answered: 0, waiting: 0 },
      }),
    );
  } catch (error) {
    svc.deps.logger.warn({ action: 'create-task card', err: error }, 'could not post the task card');
    notes.push(md`Its card could not be posted in the thread (is the app in that channel?).`);
  }
  // Who created it and from which thread: the service does not record it (Delete is the author's).
  try {
    await svc.deps.store.taskOrigins.record({
      workspaceId: planning.workspaceId,
      ...coords,
      authorSlackId: body.user.id,
      slackChannelId: data.meta.channel,
      // From a message: its thread. From a feature card's Add task: the card's own thread (none when
      // the card could not be posted; the author is still remembered).
      threadTs: data.meta.threadTs ?? cardTs ?? '',
    });
  } catch (error) {
    svc.deps.logger.warn({ action: 'create-task origin', err: error }, 'could not record the task origin');
  }
  // The feature's cards list its tasks by state: they show the new one.
  await refreshFeatureCards(svc, client, acting, {
    teamId: data.teamId,
    channelId: data.channelId,
    featureId: data.featureId,
  });
  return {
    text: joinMd([
      md`:white_check_mark: Task *${data.heading}* created.`,
      ...notes.map((n) => md`:warning: ${n}`),
    ]),
  };
}

/** The form again, as submitted: the selects keep the options they had (read back from the view). */
function retry(data: TaskSubmission, problem: Mrkdwn, view: ViewOutput) {
  return createTaskModal({
    meta: data.meta,
    ...(data.meta.link
      ? {}
      : {
          teams: teamChoices(view.blocks),
          teamId: data.teamId,
          channels: channelChoices(view.blocks),
          channelId: data.channelId,
        }),
    heading: data.heading,
    details: data.details ?? '',
    feature: { id: data.featureId, heading: data.featureHeading },
    assignee: data.assignee,
    problem,
  });
}

export function createTaskSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission(svc, args, {
      action: 'create-task',
      title: TASK_TITLE,
      working: 'Creating the task…',
      parse,
      run: (data) => run(svc, data, args),
      retry,
    });
}
