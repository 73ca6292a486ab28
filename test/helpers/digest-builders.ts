/** Small builders of planning data for the digest tests (parsed through the real models). */
import type { DigestData, FeedbackWaiting } from '../../src/digest/snapshot.js';
import { FeatureLite, type FeatureStage, type TaskState } from '../../src/planning/models.js';

export interface FeatureSpec {
  id: string;
  heading?: string;
  stage?: FeatureStage;
  canAdvance?: boolean;
  createdAt?: string;
  tasks?: { id: string; heading?: string; state?: TaskState; assigneeUserId?: string }[];
  experiments?: ('idle' | 'running' | 'done')[];
}

export function feature(spec: FeatureSpec): FeatureLite {
  return FeatureLite.parse({
    id: spec.id,
    teamId: 'team-1',
    channelId: 'chan-1',
    heading: spec.heading ?? `Feature ${spec.id}`,
    stage: spec.stage ?? 'planning',
    canAdvance: spec.canAdvance ?? false,
    createdAt: spec.createdAt ?? '2026-01-01T00:00:00.000Z',
    tasks: spec.tasks ?? [],
    assumptions: (spec.experiments ?? []).map((state, i) => ({
      id: `${spec.id}-a${i}`,
      experiment: { state },
    })),
  });
}

export function data(
  features: FeatureLite[],
  feedbackWaiting: FeedbackWaiting[] = [],
  tasksNotRead = 0,
): DigestData {
  return { teamId: 'team-1', channelId: 'chan-1', features, feedbackWaiting, tasksNotRead };
}
