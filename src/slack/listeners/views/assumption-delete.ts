/** Delete an assumption (its form is the confirmation); the feature's cards show it after. */
import type { ViewOutput } from '@slack/bolt';
import { z } from 'zod';
import { type Mrkdwn, md } from '../../../blockkit/index.js';
import { AssumptionRef, assumptionDeleteModal } from '../../blocks/feature-forms.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { refreshFeatureCards, refusedOnForm } from '../../flows/feature.js';
import { type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const DeleteSubmission = z.object({ meta: AssumptionRef });
type DeleteSubmission = z.infer<typeof DeleteSubmission>;

const TITLE = 'Delete assumption';

const parse = (values: StateValues, privateMetadata: string) =>
  validateForm(DeleteSubmission, { meta: parseJson(privateMetadata) }, values, { meta: FIELD.heading });

async function run(svc: Services, data: DeleteSubmission, args: SubmitArgs) {
  const acting = await planningOf(args.context).acting();
  const { coords, assmId } = data.meta;
  await refusedOnForm(
    acting.planning.assumptions.delete(coords.teamId, coords.channelId, coords.featureId, assmId),
  );
  await refreshFeatureCards(svc, args.client, acting, coords);
  return { title: TITLE, text: md`:wastebasket: The assumption was deleted.` };
}

const retry = (data: DeleteSubmission, problem: Mrkdwn, _view: ViewOutput) =>
  assumptionDeleteModal({ meta: data.meta, problem });

export function assumptionDeleteSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission(svc, args, {
      action: 'assumption-delete',
      title: TITLE,
      working: 'Deleting the assumption…',
      parse,
      run: (data) => run(svc, data, args),
      retry,
    });
}
