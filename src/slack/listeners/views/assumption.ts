/** Add or edit an assumption of a feature; the feature's cards show it after. */
import type { ViewOutput } from '@slack/bolt';
import { z } from 'zod';
import { type Mrkdwn, md } from '../../../blockkit/index.js';
import { LIMITS } from '../../../planning/index.js';
import { ASSUMPTION_TITLE, AssumptionFormMeta, assumptionModal } from '../../blocks/feature-forms.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { refreshFeatureCards, refusedOnForm } from '../../flows/feature.js';
import { fieldValue, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const AssumptionSubmission = z.object({
  meta: AssumptionFormMeta,
  heading: z
    .string({ error: 'Write the assumption.' })
    .trim()
    .min(1, 'Write the assumption.')
    .max(LIMITS.heading, `At most ${LIMITS.heading} characters.`),
});
type AssumptionSubmission = z.infer<typeof AssumptionSubmission>;

const parse = (values: StateValues, privateMetadata: string) =>
  validateForm(
    AssumptionSubmission,
    { meta: parseJson(privateMetadata), heading: fieldValue(values, FIELD.heading) },
    values,
    { meta: FIELD.heading, heading: FIELD.heading },
  );

async function run(svc: Services, data: AssumptionSubmission, args: SubmitArgs) {
  const acting = await planningOf(args.context).acting();
  const { coords, assmId } = data.meta;
  const { teamId, channelId, featureId } = coords;
  const { assumptions } = acting.planning;
  await refusedOnForm(
    assmId
      ? assumptions.update(teamId, channelId, featureId, assmId, { heading: data.heading })
      : assumptions.create(teamId, channelId, featureId, { heading: data.heading }),
  );
  await refreshFeatureCards(svc, args.client, acting, coords);
  return {
    title: ASSUMPTION_TITLE,
    text: assmId
      ? md`:white_check_mark: Assumption saved: *${data.heading}*`
      : md`:white_check_mark: Assumption added: *${data.heading}*`,
  };
}

const retry = (data: AssumptionSubmission, problem: Mrkdwn, _view: ViewOutput) =>
  assumptionModal({ meta: data.meta, heading: data.heading, problem });

export function assumptionSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission(svc, args, {
      action: 'assumption',
      title: ASSUMPTION_TITLE,
      working: 'Saving the assumption…',
      parse,
      run: (data) => run(svc, data, args),
      retry,
    });
}
