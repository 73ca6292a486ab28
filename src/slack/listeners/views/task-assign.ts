/**
 * The Assign… picker's submission: a candidate, "Assign to me" or any workspace member (set up in
 * the service when needed) becomes the assignee (tasks.assign, once per view); every card of the
 * task is updated and the new assignee, when someone else assigned them, gets a DM.
 */
import { z } from 'zod';
import { md, mention } from '../../../blockkit/index.js';
import { TaskCoords } from '../../blocks/task.js';
import { ASSIGN_ME, ASSIGN_TITLE, assignModal } from '../../blocks/task-card.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { FormProblem, handleSubmission } from '../../context/submission.js';
import { notifyTaskChange, refreshTaskCards } from '../../flows/tasks.js';
import { fieldValue, type StateValues, slackUserId, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const PICK_ONE = 'Pick a candidate, yourself, or someone in the workspace.';

const AssignForm = z
  .object({
    coords: TaskCoords,
    candidate: z.string().min(1).optional(),
    member: slackUserId(PICK_ONE).optional(),
  })
  .refine((f) => (f.candidate === undefined) !== (f.member === undefined), {
    message: `${PICK_ONE} (Only one.)`,
    path: ['candidate'],
  });
type AssignForm = z.infer<typeof AssignForm>;

export function taskAssignSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<AssignForm>(svc, args, {
      action: 'task-assign',
      title: ASSIGN_TITLE,
      working: 'Assigning…',
      parse: (values: StateValues, meta) =>
        validateForm(
          AssignForm,
          {
            coords: parseJson(meta),
            candidate: fieldValue(values, FIELD.candidate),
            member: fieldValue(values, FIELD.assignee),
          },
          values,
          { coords: FIELD.candidate, candidate: FIELD.candidate, member: FIELD.assignee },
        ),
      // The candidates are read again when the picker is reopened: the form says why it failed.
      retry: (data, problem) =>
        assignModal({ coords: data.coords, heading: 'this task', candidates: [], problem }),
      run: async ({ coords: c, candidate, member }) => {
        const planning = planningOf(args.context);
        const acting = await planning.acting();
        let assignee: string;
        if (member) assignee = (await planning.other(member)).planningUserId;
        else if (candidate === ASSIGN_ME) assignee = acting.identity.planningUserId;
        else if (candidate) assignee = candidate;
        else throw new FormProblem(md`${PICK_ONE}`);
        await acting.planning.tasks.assign(c.teamId, c.channelId, c.featureId, c.taskId, assignee);
        // Assigned: from here, cards and DMs are best effort.
        const after = await refreshTaskCards(svc.deps, args.client, acting, c);
        if (after) {
          await notifyTaskChange(svc.deps, args.client, planning.workspaceId, planning.slackUserId, after, {
            kind: 'assigned',
          });
        }
        const who = after?.assigneeSlackId ? mention(after.assigneeSlackId) : md`them`;
        const heading = after?.heading ?? 'the task';
        return { text: md`:white_check_mark: *${heading}* is assigned to ${who}.` };
      },
    });
}
