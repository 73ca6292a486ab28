/**
 * Tasks of a feature, with their minute: discoveries and feedback are recorded in the task's
 * current iteration, and a task sent back from `in review` (to `in progress` or `idle`) starts the
 * next iteration. Any member works on tasks; editing or deleting someone's discovery or feedback
 * follows the role matrix against its author; any member may reply to feedback. Nothing changes on
 * a feature in deep context (403, checked by the engine from the endpoint table).
 */
import type { AreaHandlers, Ctx } from '../context.js';
import { notFound, raise } from '../errors.js';
import { changedFields, childChanged } from '../events.js';
import { requireWriteOn } from '../rbac.js';
import type { FeatureRec, TaskRec } from '../state.js';
import { discoveryView, feedbackView, page, taskExpandedView, taskView } from '../views.js';
import { rankCandidates } from '../yerkes-dodson.js';
import { featureAt } from './features.js';

type TaskCtx = Ctx<'teamId' | 'channelId' | 'featureId' | 'taskId'>;

/** The task of the path (the engine refused the change already if its feature is read-only). */
function taskAt(ctx: TaskCtx): { feature: FeatureRec; task: TaskRec } {
  const feature = featureAt(ctx);
  return { feature, task: ctx.store.task(feature, ctx.params.taskId) };
}

/** Records a change to the task or its minute. */
const touched = (ctx: Ctx, feature: FeatureRec, task: TaskRec, diff: string[]) =>
  childChanged(ctx, feature, 'tasks', task, diff);

/** A minute entry (discovery or feedback) the caller may edit: theirs, or by the role matrix. */
function ownEntry<E extends { id: string; authorUserId: string }>(
  ctx: TaskCtx,
  entries: E[],
  entryId: string,
  what: string,
): E {
  const entry = entries.find((e) => e.id === entryId) ?? raise(notFound(what));
  const author = ctx.store.account(entry.authorUserId);
  if (author) requireWriteOn(ctx, author, `edit ${what.toLowerCase()} by others`);
  return entry;
}

const remove = <E extends { id: string }>(entries: E[], entry: E) =>
  entries.splice(entries.indexOf(entry), 1);

export const tasks: AreaHandlers<'tasks'> = {
  list: (ctx) => page('tasks', featureAt(ctx).tasks.map(taskView), ctx.query),

  create: (ctx) => {
    const feature = featureAt(ctx);
    const now = ctx.store.now();
    const task: TaskRec = {
      id: ctx.store.nextId(),
      heading: ctx.body.heading,
      details: ctx.body.details,
      state: 'idle',
      notionIds: [],
      iteration: 1,
      discoveries: [],
      feedback: [],
      createdAt: now,
      updatedAt: now,
    };
    feature.tasks.push(task);
    touched(ctx, feature, task, ['created']);
    return taskExpandedView(ctx.store, ctx.org.id, task);
  },

  read: (ctx) => {
    const feature = featureAt(ctx);
    return taskExpandedView(ctx.store, ctx.org.id, ctx.store.task(feature, ctx.params.taskId));
  },

  update: (ctx) => {
    const { feature, task } = taskAt(ctx);
    const patch = { ...ctx.body };
    if (patch.notionIds) {
      patch.notionIds = [...new Set(patch.notionIds.map((id) => ctx.store.notion(ctx.org.id, id).id))];
    }
    const diff = changedFields(task, patch);
    if (task.state === 'in review' && (patch.state === 'in progress' || patch.state === 'idle')) {
      task.iteration += 1;
    }
    Object.assign(task, patch);
    if (diff.length > 0) touched(ctx, feature, task, diff);
    return taskView(task);
  },

  delete: (ctx) => {
    const { feature, task } = taskAt(ctx);
    touched(ctx, feature, task, ['deleted']);
    remove(feature.tasks, task);
    return true;
  },

  assign: (ctx) => {
    const { feature, task } = taskAt(ctx);
    task.assigneeUserId = ctx.store.member(ctx.org.id, ctx.params.userId).id;
    touched(ctx, feature, task, ['assigneeUserId']);
    return taskView(task);
  },

  listCandidates: (ctx) => {
    const feature = featureAt(ctx);
    return { candidates: rankCandidates(ctx.store, feature, ctx.store.task(feature, ctx.params.taskId)) };
  },

  discoveryCreate: (ctx) => {
    const { feature, task } = taskAt(ctx);
    const discovery = {
      id: ctx.store.nextId(),
      iat: ctx.store.now(),
      iteration: task.iteration,
      authorUserId: ctx.actor.id,
      details: ctx.body.details,
    };
    task.discoveries.push(discovery);
    touched(ctx, feature, task, ['discoveries']);
    return discoveryView(discovery);
  },

  discoveryUpdate: (ctx) => {
    const { feature, task } = taskAt(ctx);
    const discovery = ownEntry(ctx, task.discoveries, ctx.params.discoveryId, 'Discovery');
    discovery.details = ctx.body.details;
    touched(ctx, feature, task, ['discoveries']);
    return discoveryView(discovery);
  },

  discoveryDelete: (ctx) => {
    const { feature, task } = taskAt(ctx);
    remove(task.discoveries, ownEntry(ctx, task.discoveries, ctx.params.discoveryId, 'Discovery'));
    touched(ctx, feature, task, ['discoveries']);
    return true;
  },

  feedbackCreate: (ctx) => {
    const { feature, task } = taskAt(ctx);
    const feedback = {
      id: ctx.store.nextId(),
      iat: ctx.store.now(),
      iteration: task.iteration,
      authorUserId: ctx.actor.id,
      issue: ctx.body.issue ?? 'value',
      message: ctx.body.message,
    };
    task.feedback.push(feedback);
    touched(ctx, feature, task, ['feedback']);
    return feedbackView(feedback);
  },

  feedbackUpdate: (ctx) => {
    const { feature, task } = taskAt(ctx);
    const feedback = ownEntry(ctx, task.feedback, ctx.params.feedbackId, 'Feedback');
    Object.assign(feedback, ctx.body);
    touched(ctx, feature, task, ['feedback']);
    return feedbackView(feedback);
  },

  feedbackDelete: (ctx) => {
    const { feature, task } = taskAt(ctx);
    remove(task.feedback, ownEntry(ctx, task.feedback, ctx.params.feedbackId, 'Feedback'));
    touched(ctx, feature, task, ['feedback']);
    return true;
  },

  feedbackReply: (ctx) => {
    const { feature, task } = taskAt(ctx);
    const feedback = task.feedback.find((f) => f.id === ctx.params.feedbackId) ?? raise(notFound('Feedback'));
    feedback.reply = ctx.body.reply;
    touched(ctx, feature, task, ['feedback']);
    return feedbackView(feedback);
  },
};
