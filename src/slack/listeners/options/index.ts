/** Binds the searchable (external) selects to their option sources. */
import type { App } from '@slack/bolt';
import { type OptionsArgs, route } from '../../bolt/router.js';
import { assumptionOptions } from '../../features/assumptions.js';
import { evidenceFeatureOptions } from '../../features/evidence.js';
import { FEATURE_FIELD } from '../../features/ids.js';
import { featureOptions } from '../../features/list.js';
import { GRADE_FIELD } from '../../grades/ids.js';
import { notionOptions } from '../../grades/notions.js';
import type { Services } from '../../kit/services.js';
import { LINK_FIELD } from '../../link/ids.js';
import { timeZoneOptions } from '../../link/time-zones.js';
import { taskOptions } from '../../tasks/discovery.js';
import { TASK_FIELD } from '../../tasks/ids.js';

export function registerOptions(app: App, svc: Services) {
  app.options(
    /.*/,
    route<OptionsArgs>(
      ({ options }) => ('action_id' in options ? options.action_id : undefined),
      {
        [FEATURE_FIELD.feature.action]: featureOptions(svc),
        [GRADE_FIELD.notion.action]: notionOptions(svc),
        [LINK_FIELD.timeZone.action]: timeZoneOptions(),
        // Tasks (issue 12): the discovery's task, the task's notions.
        [TASK_FIELD.discoveryTask.action]: taskOptions(svc),
        [TASK_FIELD.notions.action]: notionOptions(svc),
        [FEATURE_FIELD.evidenceFeature.action]: evidenceFeatureOptions(svc),
        [FEATURE_FIELD.assumption.action]: assumptionOptions(svc),
      },
      async ({ ack }) => ack({ options: [] }),
    ),
  );
}
