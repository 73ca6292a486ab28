/**
 * Log as evidence: a message added to an assumption's experiment — the feature (when not known from
 * the card's thread) and the assumption picked, the message and its permalink appended to the
 * experiment's details within the service's limit.
 */

import type { BlockSuggestion, ViewOutput } from '@slack/bolt';
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import { inline, input, type Mrkdwn, md, modal, option, section, truncate } from '../../blockkit/index.js';
import { NotFoundError } from '../../planning/index.js';
import { type Assumption, LIMITS } from '../../planning/models.js';
import type { MessageShortcutArgs, OptionsArgs, SubmitArgs } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import { madeFromSlack } from '../kit/changes/index.js';
import { choice, type FormOutput, form, read, requiredText } from '../kit/form.js';
import { COMMAND, FIELD } from '../kit/ids.js';
import { detailsInput } from '../kit/inputs.js';
import { formProblem, loadModal, modalRequest, noticeView } from '../kit/modal.js';
import { answerOptions, matches } from '../kit/options.js';
import { parseCarried, parseJson } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { messageShowsNothing, prefillTask } from '../kit/slack-text.js';
import { FormProblem, submission } from '../kit/submission.js';
import { type CardLike, featureCoordsFrom } from './card.js';
import { FEATURE_FIELD, FEATURE_VIEW } from './ids.js';
import { refusedOnForm } from './live.js';

// ---------------------------------------------------------------------------------------------
// Log as evidence
// ---------------------------------------------------------------------------------------------

export const EVIDENCE_TITLE = 'Log as evidence';

/** Where the message is and which planning channel (or feature) it goes to: ids only. */
export const EvidenceMeta = z.object({
  /** The planning channel: the feature card's, or the Slack channel's link. */
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  /** Known when the message is in a feature card's thread. */
  featureId: z.string().min(1).optional(),
});
export type EvidenceMeta = z.infer<typeof EvidenceMeta>;

/** The room an experiment's details have left for evidence (a blank line separates entries). */
export function roomLeft(details: string | undefined): number {
  const used = details ? Array.from(details).length + 2 : 0;
  return Math.max(0, LIMITS.details - used);
}

/**
 * The experiment's details with `evidence` appended, within 2048 characters: when it does not fit,
 * the evidence's text is cut and its last line (the permalink) kept; `undefined` when not even the
 * permalink fits.
 */
export function appendEvidence(details: string | undefined, evidence: string): string | undefined {
  const room = roomLeft(details);
  const lines = evidence.trimEnd().split('\n');
  const last = lines.at(-1) ?? '';
  let kept = evidence.trim();
  if (Array.from(kept).length > room) {
    const linkRoom = room - Array.from(last).length - 2;
    if (linkRoom < 0) return undefined;
    const body = lines.slice(0, -1).join('\n').trim();
    kept = linkRoom > 1 && body ? `${truncate(body, linkRoom)}\n\n${last}` : truncate(last, room);
    if (Array.from(kept).length > room) return undefined;
  }
  return details ? `${details}\n\n${kept}` : kept;
}

/** An assumption as an option of the evidence form: its heading and how much its details can still take. */
export function assumptionOption(assm: Assumption): PlainTextOption {
  const room = roomLeft(assm.experiment?.details);
  return option(`${truncate(assm.heading ?? assm.id, 50)} (${room} chars left)`, assm.id);
}

export function evidenceModal(form: {
  meta: EvidenceMeta;
  /** In a feature card's thread the feature is known: its heading is shown, not asked for. */
  featureHeading?: string;
  evidence: string;
  problem?: Mrkdwn;
}): ModalView {
  const assumption = input(
    'Assumption',
    FEATURE_FIELD.assumption.block,
    {
      type: 'external_select',
      action_id: FEATURE_FIELD.assumption.action,
      min_query_length: 0,
      placeholder: {
        type: 'plain_text',
        text: form.meta.featureId ? 'Search its assumptions' : 'Pick the feature first, then search',
      },
    },
    { hint: 'Each shows how many characters its experiment details can still take.' },
  );
  const pick: KnownBlock[] = form.meta.featureId
    ? [section(md`For the feature *${inline(form.featureHeading ?? form.meta.featureId, 200)}*`), assumption]
    : [
        input('Feature', FEATURE_FIELD.evidenceFeature.block, {
          type: 'external_select',
          action_id: FEATURE_FIELD.evidenceFeature.action,
          min_query_length: 0,
          placeholder: { type: 'plain_text', text: "Search this channel's features" },
        }),
        assumption,
      ];
  return modal({
    callbackId: FEATURE_VIEW.evidence,
    title: EVIDENCE_TITLE,
    submit: 'Log',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      ...pick,
      detailsInput(form.evidence, {
        label: 'What will be kept',
        optional: false,
        hint: `Appended to the experiment's details, which hold ${LIMITS.details} characters in all: if they are nearly full, the text is cut and its link kept.`,
      }),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

export const EvidenceSubmission = form({
  meta: read.metadata(FIELD.details, EvidenceMeta),
  // Known when the message is in a feature card's thread; else picked in the form.
  featureId: read.value(FEATURE_FIELD.evidenceFeature, choice('Choose the feature.'), {
    map: (picked, meta) => (parseJson(meta) as { featureId?: string } | undefined)?.featureId ?? picked,
  }),
  assmId: read.value(FEATURE_FIELD.assumption, choice('Choose the assumption.')),
  evidence: read.value(
    FIELD.details,
    requiredText('There is nothing to log.').max(LIMITS.details, `At most ${LIMITS.details} characters.`),
  ),
});

type EvidenceSubmission = FormOutput<typeof EvidenceSubmission>;

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
  // The experiment's details changed: its card shows them.
  await svc.changes.changed({ ...madeFromSlack(acting, args.client, coords), feature: true });
  return {
    title: EVIDENCE_TITLE,
    text: md`:white_check_mark: Logged as evidence for *${inline(assm.heading ?? assm.id, 200)}* (${feature.heading ?? feature.id}).`,
  };
}

const retry = (data: EvidenceSubmission, problem: Mrkdwn, _view: ViewOutput) =>
  evidenceModal({ meta: data.meta, evidence: data.evidence, problem });

export const evidenceSubmission = submission({
  action: 'evidence',
  title: EVIDENCE_TITLE,
  working: 'Logging the evidence…',
  parse: EvidenceSubmission.parse,
  run,
  retry,
});

export async function logEvidenceShortcut(svc: Services, args: MessageShortcutArgs) {
  const { shortcut, client } = args;
  const planning = planningOf(args.context);
  await loadModal(
    { ...modalRequest(svc, args, shortcut.trigger_id, 'log evidence open'), title: EVIDENCE_TITLE },
    async ({ planning: service }) => {
      const channel = shortcut.channel.id;
      const msg = shortcut.message;
      if (messageShowsNothing(msg)) {
        return noticeView(
          EVIDENCE_TITLE,
          md`This message shows no text, so there is nothing to log as evidence: nothing was changed.`,
        );
      }
      const [link, permalink, parent] = await Promise.all([
        svc.deps.store.links.get(planning.workspaceId, channel),
        client.chat
          .getPermalink({ channel, message_ts: msg.ts })
          .then((r) => r.permalink)
          .catch(() => undefined),
        msg.thread_ts ? svc.deps.store.cards.find(planning.workspaceId, channel, msg.thread_ts) : undefined,
      ]);
      const evidence = prefillTask(msg.text ?? '', permalink).details;
      // The feature: the card itself, or the card whose thread this is (cards live in linked channels).
      const onCard = featureCoordsFrom(msg as CardLike);
      const inThread =
        parent?.kind === 'feature' && link
          ? { teamId: link.teamId, channelId: link.channelId, featureId: parent.entityId }
          : undefined;
      const known = onCard ?? inThread;
      if (known) {
        try {
          const feature = await service.features.read(known.teamId, known.channelId, known.featureId);
          if (feature.stage === 'deep context') {
            return noticeView(
              EVIDENCE_TITLE,
              md`:lock: *${feature.heading ?? feature.id}* is in deep context: it is read-only.`,
            );
          }
          return evidenceModal({ meta: known, featureHeading: feature.heading, evidence });
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error;
        }
      }
      if (!link) {
        return noticeView(
          EVIDENCE_TITLE,
          md`This channel is not linked to a planning channel: use *Log as evidence* in a feature card's thread, or \`${COMMAND} link\` this channel first.`,
        );
      }
      const meta: EvidenceMeta = { teamId: link.teamId, channelId: link.channelId };
      return evidenceModal({ meta, evidence });
    },
  );
}

export async function evidenceFeatureOptions(svc: Services, args: OptionsArgs) {
  const meta = parseCarried(EvidenceMeta, (args.body as BlockSuggestion).view?.private_metadata);
  if (!meta) {
    await args.ack({ options: [] });
    return;
  }
  await answerOptions(svc, args, 'evidence feature options', async ({ planning }, call) => {
    const page = await planning.features.list(meta.teamId, meta.channelId, { pageSize: 500 }, call);
    return page.features
      .filter((f) => f.stage !== 'deep context' && matches(f.heading ?? '', args.body.value))
      .map((f) => option(f.heading ?? f.id, f.id));
  });
}
