/**
 * What the watch keeps of a feature between passes, and what changed between two looks — pure
 * functions, no I/O. The watch pass (src/watch/) reads a linked channel's features, compares each
 * with what it saw last time (`FeatureSeen`, kept in the store per link), and hands the changes to
 * the Slack side (src/slack/watch/), which updates cards, posts activity in card threads and DMs
 * the people concerned.
 *
 * Every change has a note (`noteOf`): the same text Slack writes in the store (`store.slackNotes`)
 * when it makes or shows that change itself — a task moved from its card, a feature advanced from
 * Slack. A change whose note was written since the watch last looked came from Slack: it was
 * announced there already and is not echoed.
 */
import { z } from 'zod';
import {
  EXPERIMENT_STATES,
  type ExperimentState,
  FEATURE_STAGES,
  type FeatureLite,
  type FeatureStage,
  TASK_STATES,
  type TaskState,
} from '../planning/index.js';

/** What the watch keeps of one feature: only what cards, activity lines and DMs show. */
export const FeatureSeen = z.object({
  id: z.string(),
  /** The service's `updatedAt`: equal on the next look means nothing changed. */
  updatedAt: z.string().optional(),
  heading: z.string().optional(),
  stage: z.enum(FEATURE_STAGES),
  authorUserId: z.string().optional(),
  assumptions: z.array(z.object({ id: z.string(), state: z.enum(EXPERIMENT_STATES).optional() })),
  tasks: z.array(
    z.object({
      id: z.string(),
      heading: z.string().optional(),
      state: z.enum(TASK_STATES),
      assigneeUserId: z.string().optional(),
    }),
  ),
});
export type FeatureSeen = z.infer<typeof FeatureSeen>;

/** One change of a feature, as an activity line or a DM tells it. */
export type FeatureChange =
  | { kind: 'stage'; from: FeatureStage; to: FeatureStage }
  | { kind: 'heading'; from?: string; to?: string }
  | { kind: 'assumptionAdded'; assumptionId: string }
  | { kind: 'assumptionRemoved'; assumptionId: string }
  | { kind: 'experiment'; assumptionId: string; from?: ExperimentState; to?: ExperimentState }
  | { kind: 'taskAdded'; taskId: string; heading?: string }
  | { kind: 'taskRemoved'; taskId: string; heading?: string }
  | { kind: 'taskState'; taskId: string; heading?: string; from: TaskState; to: TaskState }
  | { kind: 'taskAssignee'; taskId: string; heading?: string; from?: string; to?: string }
  | { kind: 'taskHeading'; taskId: string; from?: string; to?: string };

/**
 * One feature compared with the last look. `before` absent: first seen (a baseline, no changes
 * announced); `after` absent: gone from the channel (deleted or moved away).
 */
export interface FeatureDelta {
  featureId: string;
  before?: FeatureSeen;
  after?: FeatureSeen;
  /** The feature as the service listed it now (absent when gone). */
  feature?: FeatureLite;
  /** When `before` was seen (epoch ms): discoveries and notes since then are new. */
  seenAt?: number;
  changes: FeatureChange[];
}

/** The compact record of a listed feature. */
export function seenOf(feature: FeatureLite): FeatureSeen {
  return {
    id: feature.id,
    ...(feature.updatedAt ? { updatedAt: feature.updatedAt } : {}),
    ...(feature.heading ? { heading: feature.heading } : {}),
    stage: feature.stage,
    ...(feature.authorUserId ? { authorUserId: feature.authorUserId } : {}),
    assumptions: feature.assumptions.map((a) => ({
      id: a.id,
      ...(a.experiment ? { state: a.experiment.state } : {}),
    })),
    tasks: feature.tasks.map((t) => ({
      id: t.id,
      ...(t.heading ? { heading: t.heading } : {}),
      state: t.state,
      ...(t.assigneeUserId ? { assigneeUserId: t.assigneeUserId } : {}),
    })),
  };
}

/** Whether the feature may have changed since `before`: the service's stamp moved, or one side has none. */
export function mayHaveChanged(before: FeatureSeen, after: FeatureSeen): boolean {
  return !before.updatedAt || !after.updatedAt || before.updatedAt !== after.updatedAt;
}

/** What changed from `before` to `after`, in the order a reader expects: the feature, then its parts. */
export function changesBetween(before: FeatureSeen, after: FeatureSeen): FeatureChange[] {
  const changes: FeatureChange[] = [];
  if (before.stage !== after.stage) changes.push({ kind: 'stage', from: before.stage, to: after.stage });
  if (before.heading !== after.heading)
    changes.push({ kind: 'heading', from: before.heading, to: after.heading });

  const assumptionsBefore = new Map(before.assumptions.map((a) => [a.id, a]));
  for (const a of after.assumptions) {
    const old = assumptionsBefore.get(a.id);
    if (!old) changes.push({ kind: 'assumptionAdded', assumptionId: a.id });
    else if (old.state !== a.state)
      changes.push({ kind: 'experiment', assumptionId: a.id, from: old.state, to: a.state });
    assumptionsBefore.delete(a.id);
  }
  for (const id of assumptionsBefore.keys()) changes.push({ kind: 'assumptionRemoved', assumptionId: id });

  const tasksBefore = new Map(before.tasks.map((t) => [t.id, t]));
  for (const t of after.tasks) {
    const old = tasksBefore.get(t.id);
    tasksBefore.delete(t.id);
    if (!old) {
      changes.push({ kind: 'taskAdded', taskId: t.id, heading: t.heading });
      continue;
    }
    if (old.heading !== t.heading)
      changes.push({ kind: 'taskHeading', taskId: t.id, from: old.heading, to: t.heading });
    if (old.state !== t.state)
      changes.push({ kind: 'taskState', taskId: t.id, heading: t.heading, from: old.state, to: t.state });
    if (old.assigneeUserId !== t.assigneeUserId)
      changes.push({
        kind: 'taskAssignee',
        taskId: t.id,
        heading: t.heading,
        from: old.assigneeUserId,
        to: t.assigneeUserId,
      });
  }
  for (const t of tasksBefore.values())
    changes.push({ kind: 'taskRemoved', taskId: t.id, heading: t.heading });
  return changes;
}

/**
 * The note Slack writes when it makes (or shows) this change itself, and the watch looks for before
 * announcing it. It names the entity and the value reached, not the value left: whoever made it,
 * the same change has the same note.
 */
export function noteOf(featureId: string, change: FeatureChange): string {
  switch (change.kind) {
    case 'stage':
      return `feature:${featureId}:stage:${change.to}`;
    case 'heading':
      return `feature:${featureId}:heading`;
    case 'assumptionAdded':
    case 'assumptionRemoved':
      return `assumption:${change.assumptionId}:${change.kind === 'assumptionAdded' ? 'added' : 'removed'}`;
    case 'experiment':
      return `assumption:${change.assumptionId}:experiment:${change.to ?? 'none'}`;
    case 'taskAdded':
    case 'taskRemoved':
      return `task:${change.taskId}:${change.kind === 'taskAdded' ? 'added' : 'removed'}`;
    case 'taskState':
      return `task:${change.taskId}:state:${change.to}`;
    case 'taskAssignee':
      return `task:${change.taskId}:assignee:${change.to ?? 'none'}`;
    case 'taskHeading':
      return `task:${change.taskId}:heading`;
  }
}

/** The note of a discovery or a feedback entry shown in (or recorded from) a card's thread. */
export const minuteNote = (entryId: string): string => `minute:${entryId}`;
