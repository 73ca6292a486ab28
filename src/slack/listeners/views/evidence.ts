/**
 * Log as evidence: the message (with its permalink) appended to an assumption's experiment details,
 * within the contract's 2048 characters — cut with its link kept when the details are nearly full.
 */
import type { ViewOutput } from '@slack/bolt';
import { z } from 'zod';
import { inline, type Mrkdwn, md } from '../../../blockkit/index.js';
import { LIMITS } from '../../../planning/index.js';
import { appendEvidence, EVIDENCE_TITLE, EvidenceMeta, evidenceModal } from '../../blocks/feature-forms.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { FormProblem, handleSubmission } from '../../context/submission.js';
import { refreshFeatureCards, refusedOnForm } from '../../flows/feature.js';
import { choice, fieldValue, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { parseJson } from '../../round-trip.js';
import type { SubmitArgs } from '../router.js';

const EvidenceSubmission = z.object({
  meta: EvidenceMeta,
  featureId: choice('Choose the feature.'),
  assmId: choice('Choose the assumption.'),
  evidence: z
    .string({ error: 'There is nothing to log.' })
    .trim()
    .min(1, 'There is nothing to log.')
    .max(LIMITS.details, `At most ${LIMITS.details} characters.`),
});
type EvidenceSubmission = z.infer<typeof EvidenceSubmission>;

function parse(values: StateValues, privateMetadata: string) {
  const meta = parseJson(privateMetadata) as { featureId?: string } | undefined;
  return validateForm(
    EvidenceSubmission,
    {
      meta,
      featureId: meta?.featureId ?? fieldValue(values, FIELD.evidenceFeature),
      assmId: fieldValue(values, FIELD.assumption),
      evidence: fieldValue(values, FIELD.details),
    },
    values,
    {
      meta: FIELD.details,
      featureId: FIELD.evidenceFeature,
      assmId: FIELD.assumption,
      evidence: FIELD.details,
    },
  );
}

async function run(svc: Services, data: EvidenceSubmission, args: SubmitArgs) {
  const acting = await planningOf(args.context).acting();
  const coords = { teamId: data.meta.teamId, channelId: data.meta.channelId, featureId: data.featureId };
  const { teamId, channelId, featureId } = coords;
  const feature = await acting.planning.features.read(teamId, channelId, featureId);
  const assm = feature.assumptions.find((a) => a.id === data.assmId);
  if (!assm) throw new FormProblem(md`That assumption no longer exists: choose another one.`);
  const details = appendEvidence(assm.experiment?.details, data.evidence);
  if (details === undefined) {
    throw new FormProblem(
      md`This experiment's details are full (${LIMITS.details} characters): shorten them in its Experiment form first.`,
    );
  }
  await refusedOnForm(
    acting.planning.assumptions.experiment(teamId, channelId, featureId, assm.id, { details }),
  );
  await refreshFeatureCards(svc, args.client, acting, coords);
  return {
    title: EVIDENCE_TITLE,
    text: md`:white_check_mark: Logged as evidence for *${inline(assm.heading ?? assm.id, 200)}* (${feature.heading ?? feature.id}).`,
  };
}

const retry = (data: EvidenceSubmission, problem: Mrkdwn, _view: ViewOutput) =>
  evidenceModal({ meta: data.meta, evidence: data.evidence, problem });

export function evidenceSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission(svc, args, {
      action: 'evidence',
      title: EVIDENCE_TITLE,
      working: 'Logging the evidence…',
      parse,
      run: (data) => run(svc, data, args),
      retry,
    });
}
