/**
 * Account events (GET /account/events). Planning changes reach the members of the feature's
 * channel plus the people involved (actor, feature author, task assignee). Evaluations reach the
 * graded person without naming the grader; the grader's own list names only whom they graded.
 * `diff` lists what changed: field names, or `created` / `deleted`.
 */
import type { EventType } from '../planning/models.js';
import type { Ctx } from './context.js';
import type { EventRec, FeatureRec } from './state.js';

const EVALUATION_TYPES: readonly EventType[] = ['self-evaluation', 'peer evaluation'];

/** Records a feature, assumption or task change. */
export function planningEvent(
  ctx: Ctx,
  feature: FeatureRec,
  type: 'features' | 'assumptions' | 'tasks',
  diff: string[],
  ids: { assmId?: string; taskId?: string } = {},
): void {
  const { store } = ctx;
  const channel = store.channel(store.team(feature.orgId, feature.teamId), feature.channelId);
  const assignee = ids.taskId ? feature.tasks.find((t) => t.id === ids.taskId)?.assigneeUserId : undefined;
  const recipients = new Set([...channel.userIds, ctx.actor.id, feature.authorUserId]);
  if (assignee) recipients.add(assignee);
  store.emit({
    orgId: feature.orgId,
    type,
    recipients: [...recipients],
    teamId: feature.teamId,
    channelId: feature.channelId,
    featureId: feature.id,
    stage: feature.stage,
    diff,
    ...ids,
  });
}

/** Stamps a changed assumption or task and its feature, and records the event. */
export function childChanged(
  ctx: Ctx,
  feature: FeatureRec,
  type: 'assumptions' | 'tasks',
  child: { id: string; updatedAt: number },
  diff: string[],
): void {
  child.updatedAt = ctx.store.now();
  feature.updatedAt = child.updatedAt;
  planningEvent(ctx, feature, type, diff, type === 'tasks' ? { taskId: child.id } : { assmId: child.id });
}

/** Names of the fields a payload actually changes on a record. */
export function changedFields<T extends object>(record: T, patch: Partial<T>): string[] {
  return Object.entries(patch)
    .filter(
      ([key, value]) =>
        value !== undefined && JSON.stringify(record[key as keyof T]) !== JSON.stringify(value),
    )
    .map(([key]) => key);
}

/**
 * `aggregate=1`: consecutive evaluation events on the same notion (same type, same peer) fold
 * into the newest one, so a burst of grades reads as one line.
 */
export function aggregateEvaluations(newestFirst: readonly EventRec[]): EventRec[] {
  const folded: EventRec[] = [];
  for (const event of newestFirst) {
    const previous = folded.at(-1);
    const sameRun =
      previous !== undefined &&
      EVALUATION_TYPES.includes(event.type) &&
      previous.type === event.type &&
      previous.notionId === event.notionId &&
      previous.peerUserId === event.peerUserId;
    if (!sameRun) folded.push(event);
  }
  return folded;
}
