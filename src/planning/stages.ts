/**
 * Why a feature cannot move to its next stage, computed from the service's rules (NOTES.md,
 * openapi.json `canAdvance`): planning needs at least one assumption; validation needs every
 * experiment `done`; execution needs every task `done`; deep context is read-only. Pure, so the
 * feature card, the list and the digest can say *why* before anyone presses Advance.
 */
import { FEATURE_STAGES, type FeatureStage } from './models.js';

/** What the rules read of a feature: a Feature and a FeatureLite both fit. */
export interface StagedFeature {
  stage: FeatureStage;
  assumptions: readonly { experiment?: { state?: string } }[];
  tasks: readonly { state?: string }[];
}

/** One reason, as a short phrase that completes "It cannot advance yet: …". */
export type AdvanceBlocker =
  | { rule: 'no-assumption'; text: string }
  | { rule: 'experiments'; count: number; text: string }
  | { rule: 'tasks'; count: number; text: string }
  | { rule: 'read-only'; text: string };

const are = (count: number, one: string, many: string) =>
  count === 1 ? `1 ${one} is not done` : `${count} ${many} are not done`;

/** Why `feature` cannot advance, or `null` when the service's rules let it. */
export function whyNotAdvance(feature: StagedFeature): AdvanceBlocker | null {
  switch (feature.stage) {
    case 'planning':
      return feature.assumptions.length >= 1
        ? null
        : { rule: 'no-assumption', text: 'add at least one assumption' };
    case 'validation': {
      // An assumption without an experiment has one that never started: it is not done either.
      const count = feature.assumptions.filter((a) => a.experiment?.state !== 'done').length;
      return count === 0
        ? null
        : { rule: 'experiments', count, text: are(count, 'experiment', 'experiments') };
    }
    case 'execution': {
      const count = feature.tasks.filter((t) => t.state !== 'done').length;
      return count === 0 ? null : { rule: 'tasks', count, text: are(count, 'task', 'tasks') };
    }
    case 'deep context':
      return { rule: 'read-only', text: 'read-only in deep context' };
  }
}

/** The stage after `stage`; `undefined` for deep context, the last one. */
export function nextStage(stage: FeatureStage): FeatureStage | undefined {
  return FEATURE_STAGES[FEATURE_STAGES.indexOf(stage) + 1];
}

/** How a stage is written for people. */
export const STAGE_NAMES: Record<FeatureStage, string> = {
  planning: 'Planning',
  validation: 'Validation',
  execution: 'Execution',
  'deep context': 'Deep context',
};
