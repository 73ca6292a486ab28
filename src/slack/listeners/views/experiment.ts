/**
 * The experiment of an assumption: state, whether it confirmed the assumption, details and
 * participants. Participants are picked as Slack users and mapped to their planning accounts first
 * (an unknown one stops the form before anything is saved).
 */
import type { ViewOutput } from '@slack/bolt';
import { z } from 'zod';
import { type Mrkdwn, md } from '../../../blockkit/index.js';
import { EXPERIMENT_STATES, LIMITS } from '../../../planning/index.js';
import { AssumptionRef, EXPERIMENT_TITLE, experimentModal } from '../../blocks/feature-forms.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { refreshFeatureCards, refusedOnForm } from '../../flows/feature.js';
import { fieldValue, fieldValues, type StateValues, slackUserId, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const ExperimentSubmission = z.object({
  meta: AssumptionRef,
  state: z.enum(EXPERIMENT_STATES, { error: 'Choose the state of the experiment.' }),
  confirmed: z.boolean(),
  details: z.string().trim().max(LIMITS.details, `At most ${LIMITS.details} characters.`).optional(),
  participants: z.array(slackUserId('Choose people from the list.')).max(50, 'At most 50 participants.'),
});
type ExperimentSubmission = z.infer<typeof ExperimentSubmission>;

function selectedUsers(values: StateValues): string[] {
  const state = values[FIELD.participants.block]?.[FIELD.participants.action];
  return state?.selected_users ?? [];
}

const parse = (values: StateValues, privateMetadata: string) =>
  validateForm(
    ExperimentSubmission,
    {
      meta: parseJson(privateMetadata),
      state: fieldValue(values, FIELD.experimentState),
      confirmed: fieldValues(values, FIELD.confirmed).includes('confirmed'),
      details: fieldValue(values, FIELD.details),
      participants: selectedUsers(values),
    },
    values,
    {
      meta: FIELD.experimentState,
      state: FIELD.experimentState,
      confirmed: FIELD.confirmed,
      details: FIELD.details,
      participants: FIELD.participants,
    },
  );

async function run(svc: Services, data: ExperimentSubmission, args: SubmitArgs) {
  const planning = planningOf(args.context);
  const acting = await planning.acting();
  // Each participant must have a planning account: mapped (or provisioned) before anything changes.
  const accounts: string[] = [];
  for (const participant of data.participants)
    accounts.push((await planning.other(participant)).planningUserId);
  const { coords, assmId } = data.meta;
  // Kept by the app (the service's experiment has no participants); before the change, so a retry redoes both.
  await svc.deps.store.participants.set(planning.workspaceId, assmId, accounts);
  await refusedOnForm(
    acting.planning.assumptions.experiment(coords.teamId, coords.channelId, coords.featureId, assmId, {
      state: data.state,
      confirmed: data.confirmed,
      ...(data.details ? { details: data.details } : {}),
    }),
  );
  await refreshFeatureCards(svc, args.client, acting, coords);
  return { title: EXPERIMENT_TITLE, text: md`:white_check_mark: Experiment saved: *${data.state}*.` };
}

const retry = (data: ExperimentSubmission, problem: Mrkdwn, _view: ViewOutput) =>
  experimentModal({
    meta: data.meta,
    state: data.state,
    confirmed: data.confirmed,
    details: data.details,
    participants: data.participants,
    problem,
  });

export function experimentSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission(svc, args, {
      action: 'experiment',
      title: EXPERIMENT_TITLE,
      working: 'Saving the experiment…',
      parse,
      run: (data) => run(svc, data, args),
      retry,
    });
}
