/** Edit's submission: heading, details and notions (tasks.update), then every card of the task. */
import { z } from 'zod';
import { md } from '../../../blockkit/index.js';
import { LIMITS } from '../../../planning/index.js';
import { TaskCoords } from '../../blocks/task.js';
import { EDIT_TITLE, taskEditModal } from '../../blocks/task-card.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { refreshTaskCards } from '../../flows/tasks.js';
import { fieldValue, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const EditForm = z.object({
  coords: TaskCoords,
  heading: z
    .string({ error: 'A task needs a heading.' })
    .trim()
    .min(1, 'A task needs a heading.')
    .max(LIMITS.heading, `At most ${LIMITS.heading} characters.`),
  details: z.string().trim().max(LIMITS.details, `At most ${LIMITS.details} characters.`).optional(),
  notions: z.array(z.object({ id: z.string().min(1), value: z.string() })),
});
type EditForm = z.infer<typeof EditForm>;

/** The notions picked in the multi-select, with their labels (to show the form again as it was). */
function pickedNotions(values: StateValues) {
  const state = Object.entries(values).find(([id]) => id === FIELD.taskNotions.block)?.[1];
  const selected = state?.[FIELD.taskNotions.action]?.selected_options ?? [];
  return selected.map((o) => ({ id: o.value, value: o.text.text }));
}

export function taskEditSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<EditForm>(svc, args, {
      action: 'task-edit',
      title: EDIT_TITLE,
      working: 'Saving…',
      parse: (values: StateValues, meta) =>
        validateForm(
          EditForm,
          {
            coords: parseJson(meta),
            heading: fieldValue(values, FIELD.heading),
            details: fieldValue(values, FIELD.details),
            notions: pickedNotions(values),
          },
          values,
          {
            coords: FIELD.heading,
            heading: FIELD.heading,
            details: FIELD.details,
            notions: FIELD.taskNotions,
          },
        ),
      retry: (data, problem) =>
        taskEditModal({
          coords: data.coords,
          heading: data.heading,
          ...(data.details ? { details: data.details } : {}),
          notions: data.notions,
          problem,
        }),
      run: async ({ coords: c, heading, details, notions }) => {
        const acting = await planningOf(args.context).acting();
        await acting.planning.tasks.update(c.teamId, c.channelId, c.featureId, c.taskId, {
          heading,
          ...(details ? { details } : {}),
          notionIds: notions.map((n) => n.id),
        });
        await refreshTaskCards(svc.deps, args.client, acting, c);
        return { text: md`:white_check_mark: Task *${heading}* saved.` };
      },
    });
}
