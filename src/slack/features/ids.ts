/** The features topic's wire ids: its shortcuts, forms, the feature card's buttons and markers. */
import { field } from '../kit/ids.js';

export const FEATURE_SHORTCUT = {
  /** A new feature from anywhere (global shortcut). */
  newFeature: 'new_feature',
  /** A message as evidence for an experiment (message shortcut). */
  logEvidence: 'log_evidence',
} as const;

/** New/edit feature, add/edit assumption, delete assumption, experiment, evidence. */
export const FEATURE_VIEW = {
  feature: 'feature',
  assumption: 'assumption',
  assumptionDelete: 'assumption_delete',
  experiment: 'experiment',
  evidence: 'evidence',
} as const;

/** The feature card's buttons, the assumption menu, and deep-context results. */
export const FEATURE_ACTION = {
  advance: 'feature_advance',
  addAssumption: 'feature_add_assumption',
  /** Add task (the tasks topic answers it: the create-task form for this feature). */
  addTask: 'feature_add_task',
  edit: 'feature_edit',
  delete: 'feature_delete',
  details: 'feature_details',
  /** The overflow menu of an assumption on a feature card: edit, experiment, delete. */
  assumptionMenu: 'assumption_menu',
  deepContextRead: 'deep_context_read',
  deepContextDelete: 'deep_context_delete',
} as const;

export const FEATURE_FIELD = {
  priority: field('priority'),
  focus: field('focus'),
  assumption: field('assumption'),
  experimentState: field('experiment_state'),
  confirmed: field('confirmed'),
  participants: field('participants'),
  /** The feature select of the evidence form (its options are any stage but deep context). */
  evidenceFeature: field('evidence_feature'),
} as const;

/** Metadata event type carried by feature cards (with the feature's coordinates). */
export const FEATURE_CARD_EVENT = 'planning_feature';
/** Block id prefix of a feature card's first section: `feature|<team>|<channel>|<feature>`. */
export const FEATURE_CARD_BLOCK_PREFIX = 'feature|';
/**
 * Block id prefix of a `/plan features` list's rows: `feature_list|<stage filter or empty>|<row>`, so
 * that a press in the list redraws the same list.
 */
export const FEATURE_LIST_BLOCK_PREFIX = 'feature_list|';
