/**
 * The task card's buttons that open a form: Assign… (the service's candidates, ranked by fit), Log
 * discovery, Details (the task's minutes) and Edit. Each opens a loading modal at once and fills it
 * with what the acting user's own client reads.
 */

import type { ModalView } from '@slack/types';
import { md } from '../../../blockkit/index.js';
import type { TaskCoords } from '../../blocks/task.js';
import { parseCoords } from '../../blocks/task.js';
import {
  ASSIGN_TITLE,
  assignModal,
  DETAILS_TITLE,
  DISCOVERY_TITLE,
  discoveryModal,
  EDIT_TITLE,
  taskDetailsModal,
  taskEditModal,
} from '../../blocks/task-card.js';
import { noticeView } from '../../blocks/views.js';
import type { Acting } from '../../context/identity.js';
import { loadModal, modalRequest, openModal } from '../../context/modal.js';
import type { Services } from '../../context/services.js';
import { readTaskDetails } from '../../flows/tasks.js';
import { type ActionArgs, actionValue } from '../router.js';

const STALE = md`This button no longer points at a task. Use \`/plan tasks\` to find it.`;

function opener(
  svc: Services,
  action: string,
  title: string,
  build: (acting: Acting, coords: TaskCoords) => Promise<ModalView>,
) {
  return async (args: ActionArgs) => {
    const req = modalRequest(svc, args, args.body.trigger_id, action);
    const coords = parseCoords(actionValue(args.action) ?? '');
    if (!coords) {
      await openModal(req, noticeView(title, STALE));
      return;
    }
    await loadModal({ ...req, title }, (acting) => build(acting, coords));
  };
}

export const taskAssignOpenAction = (svc: Services) =>
  opener(svc, 'task assign open', ASSIGN_TITLE, async ({ planning }, c) => {
    const [task, { candidates }] = await Promise.all([
      planning.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId),
      planning.tasks.listCandidates(c.teamId, c.channelId, c.featureId, c.taskId),
    ]);
    return assignModal({ coords: c, heading: task.heading ?? 'this task', candidates });
  });

export const taskDiscoveryOpenAction = (svc: Services) =>
  opener(svc, 'task discovery open', DISCOVERY_TITLE, async ({ planning }, c) => {
    const task = await planning.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId);
    return discoveryModal({ meta: { c }, heading: task.heading, text: '' });
  });

export const taskDetailsOpenAction = (svc: Services) =>
  opener(svc, 'task details open', DETAILS_TITLE, async (acting, c) =>
    taskDetailsModal((await readTaskDetails(svc.deps, acting, c)).details),
  );

export const taskEditOpenAction = (svc: Services) =>
  opener(svc, 'task edit open', EDIT_TITLE, async ({ planning }, c) => {
    const task = await planning.tasks.read(c.teamId, c.channelId, c.featureId, c.taskId);
    return taskEditModal({
      coords: c,
      heading: task.heading ?? '',
      ...(task.details ? { details: task.details } : {}),
      notions: task.notions,
    });
  });
