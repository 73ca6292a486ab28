/** The features topic's routes: feature cards and their forms, `/plan feature(s)`, search, two shortcuts. */
import type { TopicRoutes } from '../bolt/routes.js';
import { ACTION } from '../kit/ids.js';
import type { Services } from '../kit/services.js';
import {
  assumptionDeleteSubmission,
  assumptionMenuAction,
  assumptionOptions,
  assumptionSubmission,
  featureAddAssumptionAction,
} from './assumptions.js';
import { featureDetailsAction } from './details.js';
import { evidenceFeatureOptions, evidenceSubmission, logEvidenceShortcut } from './evidence.js';
import { experimentSubmission } from './experiments.js';
import {
  featureEditAction,
  featureSubcommand,
  featureSubmission,
  featureTeamPicked,
  newFeatureShortcut,
} from './feature-form.js';
import { FEATURE_ACTION, FEATURE_FIELD, FEATURE_SHORTCUT, FEATURE_VIEW } from './ids.js';
import { featuresSubcommand } from './list.js';
import { advanceAction, deleteAction } from './pressed.js';
import { deepContextReadAction, searchSubcommand } from './search.js';

export const featureRoutes: TopicRoutes<Services> = {
  topic: 'features',
  gate: { access: 'member' },
  subcommands: [featureSubcommand, featuresSubcommand, searchSubcommand],
  shortcuts: {
    [FEATURE_SHORTCUT.logEvidence]: {
      type: 'message',
      name: 'Log as evidence',
      description: "Add this message to an assumption's experiment",
      run: logEvidenceShortcut,
    },
    [FEATURE_SHORTCUT.newFeature]: {
      type: 'global',
      name: 'New feature',
      description: 'Plan a new feature in a planning channel',
      run: newFeatureShortcut,
    },
  },
  actions: {
    [FEATURE_ACTION.advance]: advanceAction,
    [FEATURE_ACTION.delete]: deleteAction,
    [FEATURE_ACTION.addAssumption]: featureAddAssumptionAction,
    [FEATURE_ACTION.edit]: featureEditAction,
    [FEATURE_ACTION.details]: featureDetailsAction,
    [FEATURE_ACTION.assumptionMenu]: assumptionMenuAction,
    [FEATURE_ACTION.deepContextRead]: deepContextReadAction,
    [ACTION.teamPicked]: { inView: FEATURE_VIEW.feature, run: featureTeamPicked },
  },
  views: {
    [FEATURE_VIEW.feature]: featureSubmission,
    [FEATURE_VIEW.assumption]: assumptionSubmission,
    [FEATURE_VIEW.assumptionDelete]: assumptionDeleteSubmission,
    [FEATURE_VIEW.experiment]: experimentSubmission,
    [FEATURE_VIEW.evidence]: evidenceSubmission,
  },
  options: {
    [FEATURE_FIELD.evidenceFeature.action]: evidenceFeatureOptions,
    [FEATURE_FIELD.assumption.action]: assumptionOptions,
  },
};
