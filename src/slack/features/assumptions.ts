/**
 * A feature's assumptions: added or edited (the card's Add assumption, its menu's Edit), deleted (the
 * form is the confirmation), and the assumption select of the evidence form.
 */

import type { BlockAction, BlockSuggestion, ViewOutput } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { inline, type Mrkdwn, md, modal, section } from '../../blockkit/index.js';
import { type ActionArgs, actionValue, type OptionsArgs, type SubmitArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { type FormOutput, form, headingText, NO_CHOICE, read, type StateValues } from '../kit/form.js';
import { FIELD } from '../kit/ids.js';
import { headingInput } from '../kit/inputs.js';
import { formProblem, loadModal } from '../kit/modal.js';
import { answerOptions, matches } from '../kit/options.js';
import { parseCarried } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import {
  AssumptionMenuValue,
  AssumptionRef,
  type CardLike,
  FeatureCoords,
  featureCoordsFrom,
  parseFeatureButton,
} from './card.js';
import { assumptionOption, EvidenceMeta, EvidenceSubmission } from './evidence.js';
import { openExperimentForm } from './experiments.js';
import { FEATURE_VIEW } from './ids.js';
import { gone, type Req, readOnly, refusedOnForm, request, stale } from './live.js';

// ---------------------------------------------------------------------------------------------
// Assumption: add, edit, delete
// ---------------------------------------------------------------------------------------------

export const ASSUMPTION_TITLE = 'Assumption';

export const AssumptionFormMeta = z.object({ coords: FeatureCoords, assmId: z.string().min(1).optional() });

export type AssumptionFormMeta = z.infer<typeof AssumptionFormMeta>;

export function assumptionModal(form: {
  meta: AssumptionFormMeta;
  featureHeading?: string;
  heading?: string;
  problem?: Mrkdwn;
}): ModalView {
  return modal({
    callbackId: FEATURE_VIEW.assumption,
    title: form.meta.assmId ? 'Edit assumption' : 'Add assumption',
    submit: form.meta.assmId ? 'Save' : 'Add',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      ...(form.featureHeading ? [section(md`For *${inline(form.featureHeading, 200)}*`)] : []),
      headingInput(form.heading, {
        label: 'Assumption',
        placeholder: 'Electron.js supports Windows 7',
        hint: 'A statement that can be proven true or false — not a question or an opinion.',
      }),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

export function assumptionDeleteModal(form: {
  meta: AssumptionRef;
  heading?: string;
  problem?: Mrkdwn;
}): ModalView {
  return modal({
    callbackId: FEATURE_VIEW.assumptionDelete,
    title: 'Delete assumption',
    submit: 'Delete',
    close: 'Keep it',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      section(
        md`Delete the assumption *${inline(form.heading ?? form.meta.assmId, 200)}* and its experiment? This cannot be undone.`,
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

/** Add assumption (no `assmId`) or edit one. */
export function openAssumptionForm(req: Req, coords: FeatureCoords, assmId?: string) {
  const title = ASSUMPTION_TITLE;
  return loadModal({ ...req, title }, async ({ planning }) => {
    const feature = await planning.features.read(coords.teamId, coords.channelId, coords.featureId);
    if (feature.stage === 'deep context') return readOnly(title, feature);
    const assm = assmId ? feature.assumptions.find((a) => a.id === assmId) : undefined;
    if (assmId && !assm) return gone(title);
    return assumptionModal({
      meta: { coords, ...(assmId ? { assmId } : {}) },
      featureHeading: feature.heading,
      heading: assm?.heading,
    });
  });
}

export function openAssumptionDelete(req: Req, coords: FeatureCoords, assmId: string) {
  const title = 'Delete assumption';
  return loadModal({ ...req, title }, async ({ planning }) => {
    const feature = await planning.features.read(coords.teamId, coords.channelId, coords.featureId);
    if (feature.stage === 'deep context') return readOnly(title, feature);
    const assm = feature.assumptions.find((a) => a.id === assmId);
    if (!assm) return gone(title);
    return assumptionDeleteModal({ meta: { coords, assmId }, heading: assm.heading });
  });
}

export async function featureAddAssumptionAction(svc: Services, args: ActionArgs) {
  const value = parseFeatureButton(actionValue(args.action));
  if (!value) return stale(args);
  await openAssumptionForm(request(svc, args, 'add assumption open'), value);
}

/** An assumption's menu on a card: the feature comes from the card it is on. */
export async function assumptionMenuAction(svc: Services, args: ActionArgs) {
  const body = args.body as BlockAction;
  const chosen = parseCarried(AssumptionMenuValue, actionValue(args.action));
  const coords = featureCoordsFrom((body.message ?? body.view) as CardLike | undefined);
  if (!chosen || !coords) return stale(args);
  const req = request(svc, args, `assumption ${chosen.op} open`);
  if (chosen.op === 'edit') await openAssumptionForm(req, coords, chosen.assmId);
  else if (chosen.op === 'delete') await openAssumptionDelete(req, coords, chosen.assmId);
  else await openExperimentForm(svc, req, coords, chosen.assmId);
}

const AssumptionSubmission = form({
  meta: read.metadata(FIELD.heading, AssumptionFormMeta),
  heading: read.value(FIELD.heading, headingText('Write the assumption.')),
});

type AssumptionSubmission = FormOutput<typeof AssumptionSubmission>;

async function run(svc: Services, data: AssumptionSubmission, args: SubmitArgs) {
  const acting = await planningOf(args.context).acting();
  const { coords, assmId } = data.meta;
  const { teamId, channelId, featureId } = coords;
  const { assumptions } = acting.planning;
  const saved = await refusedOnForm(
    assmId
      ? assumptions.update(teamId, channelId, featureId, assmId, { heading: data.heading })
      : assumptions.create(teamId, channelId, featureId, { heading: data.heading }),
  );
  await svc.changes.changed({
    ...madeFromSlack(acting, args.client, coords),
    feature: true,
    ...(assmId ? {} : { changes: [{ kind: 'assumptionAdded', assumptionId: saved.id }] }),
  });
  return {
    title: ASSUMPTION_TITLE,
    text: assmId
      ? md`:white_check_mark: Assumption saved: *${data.heading}*`
      : md`:white_check_mark: Assumption added: *${data.heading}*`,
  };
}

const retry = (data: AssumptionSubmission, problem: Mrkdwn, _view: ViewOutput) =>
  assumptionModal({ meta: data.meta, heading: data.heading, problem });

export const assumptionSubmission = submission({
  action: 'assumption',
  title: ASSUMPTION_TITLE,
  working: 'Saving the assumption…',
  parse: AssumptionSubmission.parse,
  run,
  retry,
});

const DeleteSubmission = form({ meta: read.metadata(FIELD.heading, AssumptionRef) });

type DeleteSubmission = FormOutput<typeof DeleteSubmission>;

const TITLE = 'Delete assumption';

async function runDelete(svc: Services, data: DeleteSubmission, args: SubmitArgs) {
  const acting = await planningOf(args.context).acting();
  const { coords, assmId } = data.meta;
  await refusedOnForm(
    acting.planning.assumptions.delete(coords.teamId, coords.channelId, coords.featureId, assmId),
  );
  await svc.changes.changed({
    ...madeFromSlack(acting, args.client, coords),
    changes: [{ kind: 'assumptionRemoved', assumptionId: assmId }],
  });
  return { title: TITLE, text: md`:wastebasket: The assumption was deleted.` };
}

const retryDelete = (data: DeleteSubmission, problem: Mrkdwn, _view: ViewOutput) =>
  assumptionDeleteModal({ meta: data.meta, problem });

export const assumptionDeleteSubmission = submission({
  action: 'assumption-delete',
  title: TITLE,
  working: 'Deleting the assumption…',
  parse: DeleteSubmission.parse,
  run: runDelete,
  retry: retryDelete,
});

export async function assumptionOptions(svc: Services, args: OptionsArgs) {
  const view = (args.body as BlockSuggestion).view;
  const meta = parseCarried(EvidenceMeta, view?.private_metadata);
  // The evidence form's own reading: the card's feature, else the one picked so far.
  const featureId =
    meta &&
    EvidenceSubmission.input((view?.state?.values ?? {}) as StateValues, view?.private_metadata).featureId;
  if (!meta || !featureId || featureId === NO_CHOICE) {
    await args.ack({ options: [] });
    return;
  }
  await answerOptions(svc, args, 'assumption options', async ({ planning }, call) => {
    const page = await planning.assumptions.list(
      meta.teamId,
      meta.channelId,
      featureId,
      { pageSize: 500 },
      call,
    );
    return page.assumptions.filter((a) => matches(a.heading ?? '', args.body.value)).map(assumptionOption);
  });
}
