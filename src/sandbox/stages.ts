/**
 * Feature stages: planning → validation → execution → deep context, and when a feature may move
 * on (NOTES.md, openapi.json `canAdvance`): planning needs at least one assumption; validation
 * needs every experiment `done`; execution needs every task `done`; deep context is the end.
 */
import { FEATURE_STAGES, type FeatureStage } from '../planning/models.js';
import { notAllowed } from './errors.js';
import type { FeatureRec } from './state.js';

/** Why the feature cannot advance, or `null` when it can. */
export function advanceBlocker(feature: FeatureRec): string | null {
  switch (feature.stage) {
    case 'planning':
      return feature.assumptions.length >= 1 ? null : 'You must add at least 1 Assumption';
    case 'validation':
      return feature.assumptions.every((assm) => assm.experiment.state === 'done')
        ? null
        : 'You must mark all Assumption experiments as done';
    case 'execution':
      return feature.tasks.every((task) => task.state === 'done') ? null : 'You must mark all Tasks as done';
    case 'deep context':
      return 'Features in deep context are read-only';
  }
}

export const canAdvance = (feature: FeatureRec): boolean => advanceBlocker(feature) === null;

export function nextStage(stage: FeatureStage): FeatureStage {
  return FEATURE_STAGES[FEATURE_STAGES.indexOf(stage) + 1] ?? stage;
}

/** 403 for any change to a feature in deep context (and to its tasks and assumptions). */
export function requireEditable(feature: FeatureRec): void {
  if (feature.stage === 'deep context') throw notAllowed('Features in deep context are read-only');
}
