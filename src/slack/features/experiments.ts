/**
 * The experiment of an assumption: state, whether it confirmed the assumption, details and
 * participants (picked as Slack users, each mapped to their planning account; stored by the app
 * once the service took the experiment).
 */

import type { ViewOutput } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { inline, input, type Mrkdwn, md, modal, option, section } from '../../blockkit/index.js';
import { EXPERIMENT_STATES, type ExperimentState, LIMITS } from '../../planning/models.js';
import type { SubmitArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { detailsText, type FormOutput, form, read, slackUserId } from '../kit/form.js';
import { FIELD } from '../kit/ids.js';
import { detailsInput } from '../kit/inputs.js';
import { formProblem, loadModal } from '../kit/modal.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import type { FeatureCoords } from './card.js';
import { AssumptionRef } from './card.js';
import { FEATURE_FIELD, FEATURE_VIEW } from './ids.js';
import { gone, type Req, readFeatureView, readOnly, refusedOnForm } from './live.js';

// ---------------------------------------------------------------------------------------------
// Experiment
// ---------------------------------------------------------------------------------------------

export const EXPERIMENT_TITLE = 'Experiment';

const STATE_MEANINGS: Record<ExperimentState, string> = {
  idle: 'Idle — not started',
  running: 'Running',
  done: 'Done — it answered the assumption',
};

const stateOption = (state: ExperimentState) => option(STATE_MEANINGS[state], state);

const CONFIRMED = option('The experiment confirms the assumption', 'confirmed');

export function experimentModal(form: {
  meta: AssumptionRef;
  heading?: string;
  state?: ExperimentState;
  confirmed?: boolean;
  details?: string;
  /** Slack users shown as participants. */
  participants?: string[];
  problem?: Mrkdwn;
}): ModalView {
  return modal({
    callbackId: FEATURE_VIEW.experiment,
    title: EXPERIMENT_TITLE,
    submit: 'Save',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      section(md`Experiment for *${inline(form.heading ?? form.meta.assmId, 200)}*`),
      input('State', FEATURE_FIELD.experimentState.block, {
        type: 'radio_buttons',
        action_id: FEATURE_FIELD.experimentState.action,
        options: EXPERIMENT_STATES.map(stateOption),
        initial_option: stateOption(form.state ?? 'idle'),
      }),
      input(
        'Result',
        FEATURE_FIELD.confirmed.block,
        {
          type: 'checkboxes',
          action_id: FEATURE_FIELD.confirmed.action,
          options: [CONFIRMED],
          ...(form.confirmed ? { initial_options: [CONFIRMED] } : {}),
        },
        { optional: true },
      ),
      detailsInput(form.details, {
        hint: `What was tried and what was found (at most ${LIMITS.details} characters).`,
      }),
      input(
        'Participants',
        FEATURE_FIELD.participants.block,
        {
          type: 'multi_users_select',
          action_id: FEATURE_FIELD.participants.action,
          ...(form.participants?.length ? { initial_users: form.participants } : {}),
        },
        {
          optional: true,
          hint: 'Each one must be connected to the planning service (or be set up automatically).',
        },
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

/** The experiment form, with its participants shown as the Slack users the app knows. */
export function openExperimentForm(svc: Services, req: Req, coords: FeatureCoords, assmId: string) {
  const title = EXPERIMENT_TITLE;
  return loadModal({ ...req, title }, async (acting) => {
    const view = await readFeatureView(svc, acting, coords);
    if (view.feature.stage === 'deep context') return readOnly(title, view.feature);
    const assm = view.feature.assumptions.find((a) => a.id === assmId);
    if (!assm) return gone(title);
    const picked = view.participants?.[assm.id];
    const participants = (picked?.length ? picked : (assm.experiment?.authorUserIds ?? []))
      .map((id) => view.people?.[id])
      .filter((id): id is string => id !== undefined);
    return experimentModal({
      meta: { coords, assmId },
      heading: assm.heading,
      state: assm.experiment?.state,
      confirmed: assm.experiment?.confirmed,
      details: assm.experiment?.details,
      participants,
    });
  });
}

const ExperimentSubmission = form({
  meta: read.metadata(FEATURE_FIELD.experimentState, AssumptionRef),
  state: read.value(
    FEATURE_FIELD.experimentState,
    z.enum(EXPERIMENT_STATES, { error: 'Choose the state of the experiment.' }),
  ),
  confirmed: read.checked(FEATURE_FIELD.confirmed, 'confirmed'),
  details: read.value(FIELD.details, detailsText()),
  participants: read.users(
    FEATURE_FIELD.participants,
    z.array(slackUserId('Choose people from the list.')).max(50, 'At most 50 participants.'),
  ),
});

type ExperimentSubmission = FormOutput<typeof ExperimentSubmission>;

async function run(svc: Services, data: ExperimentSubmission, args: SubmitArgs) {
  const planning = planningOf(args.context);
  const acting = await planning.acting();
  const { coords, assmId } = data.meta;
  // Each participant is checked before anything changes; an account is made only for a change the
  // service accepts — it alone knows (another organization's assumption, a feature that reached deep
  // context while the form was open) — and closed when it refuses (kit/identity.ts).
  const named = await planning.named(data.participants);
  const participants = await refusedOnForm(
    named.apply(async (people) => {
      await acting.planning.assumptions.experiment(
        coords.teamId,
        coords.channelId,
        coords.featureId,
        assmId,
        {
          state: data.state,
          confirmed: data.confirmed,
          ...(data.details ? { details: data.details } : {}),
        },
      );
      return people;
    }),
  );
  // Kept by the app (the service's experiment has no participants), and only once the service took
  // the experiment: a refused form leaves the participants stored before it. Should the store fail
  // here, the form comes back with that failure, and sending it again writes both again.
  await svc.deps.store.participants.set(
    planning.workspaceId,
    assmId,
    participants.map((p) => p.planningUserId),
  );
  await svc.changes.changed({
    ...madeFromSlack(acting, args.client, coords),
    changes: [{ kind: 'experiment', assumptionId: assmId, to: data.state }],
  });
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

export const experimentSubmission = submission({
  action: 'experiment',
  title: EXPERIMENT_TITLE,
  working: 'Saving the experiment…',
  parse: ExperimentSubmission.parse,
  run,
  retry,
});
