/**
 * Edit a task: its heading, details and notions (`tasks.update`), then every card of the task.
 */

import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { input, type Mrkdwn, md, modal, option, SLACK_LIMITS } from '../../blockkit/index.js';
import type { ActionArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { detailsText, type FormOutput, form, headingText, read } from '../kit/form.js';
import { FIELD } from '../kit/ids.js';
import { detailsInput, headingInput } from '../kit/inputs.js';
import { formProblem } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import { TaskCoords } from './card.js';
import { TASK_FIELD, TASK_VIEW } from './ids.js';
import { openTaskModal } from './live.js';

// ---------------------------------------------------------------------------------------------
// Edit
// ---------------------------------------------------------------------------------------------

export const EDIT_TITLE = 'Edit task';

export function taskEditModal(form: {
  coords: TaskCoords;
  heading: string;
  details?: string;
  notions: readonly { id: string; value?: string }[];
  problem?: Mrkdwn;
}): ModalView {
  const initial = form.notions.slice(0, SLACK_LIMITS.options).map((n) => option(n.value ?? n.id, n.id));
  return modal({
    callbackId: TASK_VIEW.edit,
    title: EDIT_TITLE,
    submit: 'Save',
    close: 'Cancel',
    privateMetadata: JSON.stringify(TaskCoords.parse(form.coords)),
    blocks: [
      headingInput(form.heading),
      detailsInput(form.details),
      input(
        'Notions',
        TASK_FIELD.notions.block,
        {
          type: 'multi_external_select',
          action_id: TASK_FIELD.notions.action,
          min_query_length: 0,
          ...(initial.length > 0 ? { initial_options: initial } : {}),
        },
        { optional: true, hint: 'What the task needs to know; candidates are ranked on them.' },
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

export const taskEditOpenAction = (svc: Services, args: ActionArgs) =>
  openTaskModal(svc, args, 'task edit open', EDIT_TITLE, async ({ planning }, c) => {
    const task = await planning.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId);
    return taskEditModal({
      coords: c,
      heading: task.heading ?? '',
      ...(task.details ? { details: task.details } : {}),
      notions: task.notions,
    });
  });

const EditForm = form({
  coords: read.metadata(FIELD.heading, TaskCoords),
  heading: read.value(FIELD.heading, headingText('A task needs a heading.')),
  details: read.value(FIELD.details, detailsText()),
  // The notions picked, with their names (to show the form again as it was).
  notions: read.options(TASK_FIELD.notions, z.array(z.object({ id: z.string().min(1), value: z.string() })), {
    map: (picked) => picked.map((o) => ({ id: o.value, value: o.label })),
  }),
});

type EditForm = FormOutput<typeof EditForm>;

export const taskEditSubmission = submission<EditForm>({
  action: 'task-edit',
  title: EDIT_TITLE,
  working: 'Saving…',
  parse: EditForm.parse,
  retry: (data, problem) =>
    taskEditModal({
      coords: data.coords,
      heading: data.heading,
      ...(data.details ? { details: data.details } : {}),
      notions: data.notions,
      problem,
    }),
  run: async (svc, { coords: c, heading, details, notions }, args) => {
    const acting = await planningOf(args.context).acting();
    await acting.planning.tasks.update(c.teamId, c.channelId, c.featureId, c.taskId, {
      heading,
      ...(details ? { details } : {}),
      notionIds: notions.map((n) => n.id),
    });
    // Its details and notions change its card too, beyond its heading.
    await svc.changes.changed({
      ...madeFromSlack(acting, args.client, c),
      tasks: [c.taskId],
      changes: [{ kind: 'taskHeading', taskId: c.taskId, to: heading }],
    });
    return { text: md`:white_check_mark: Task *${heading}* saved.` };
  },
});
