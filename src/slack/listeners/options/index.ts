/** Binds the searchable (external) selects to their option sources. */
import type { App } from '@slack/bolt';
import type { Services } from '../../context/services.js';
import { FIELD } from '../../ids.js';
import { type OptionsArgs, route } from '../router.js';
import { assumptionOptions } from './assumptions.js';
import { evidenceFeatureOptions } from './evidence-features.js';
import { featureOptions } from './features.js';
import { notionOptions } from './notions.js';
import { taskOptions } from './tasks.js';
import { timeZoneOptions } from './time-zones.js';

export function registerOptions(app: App, svc: Services) {
  app.options(
    /.*/,
    route<OptionsArgs>(
      ({ options }) => ('action_id' in options ? options.action_id : undefined),
      {
        [FIELD.feature.action]: featureOptions(svc),
        [FIELD.notion.action]: notionOptions(svc),
        [FIELD.timeZone.action]: timeZoneOptions(),
        // Tasks (issue 12): the discovery's task, the task's notions.
        [FIELD.discoveryTask.action]: taskOptions(svc),
        [FIELD.taskNotions.action]: notionOptions(svc),
        [FIELD.evidenceFeature.action]: evidenceFeatureOptions(svc),
        [FIELD.assumption.action]: assumptionOptions(svc),
      },
      async ({ ack }) => ack({ options: [] }),
    ),
  );
}
