/**
 * The forms of the planning loop: a feature (new or edit), an assumption (add or edit, delete
 * confirmed), its experiment, and a message logged as evidence. Pure builders; what a form carries
 * between steps (private_metadata) is ids only, never user text.
 */
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  context,
  inline,
  input,
  type Mrkdwn,
  md,
  modal,
  option,
  section,
  textInput,
  truncate,
} from '../../blockkit/index.js';
import {
  type Assumption,
  type Channel,
  EXPERIMENT_STATES,
  type ExperimentState,
  FEATURE_FOCI,
  type FeatureFocus,
  LIMITS,
  type Team,
} from '../../planning/models.js';
import { FIELD, VIEW } from '../ids.js';
import { FeatureCoords, focusOption } from './feature.js';
import { teamChannelInputs } from './link.js';
import { formProblem } from './views.js';

// ---------------------------------------------------------------------------------------------
// Feature: new or edit
// ---------------------------------------------------------------------------------------------

export const FEATURE_TITLE = 'New feature';
export const FEATURE_EDIT_TITLE = 'Edit feature';

/** New: where it was asked from (the card goes to a Slack channel linked to its planning channel). Edit: which feature. */
export const FeatureFormMeta = z.union([
  z.object({ mode: z.literal('new'), slackChannel: z.string().optional() }),
  z.object({ mode: z.literal('edit'), coords: FeatureCoords }),
]);
export type FeatureFormMeta = z.infer<typeof FeatureFormMeta>;

export interface FeatureForm {
  meta: FeatureFormMeta;
  /** New only: the teams to pick from, and the chosen team's channels (the link's, by default). */
  teams?: Team[];
  teamId?: string;
  channels?: Channel[];
  channelId?: string;
  heading?: string;
  details?: string;
  priority?: number;
  focus?: FeatureFocus;
  problem?: Mrkdwn;
}

const PRIORITY_OPTIONS: PlainTextOption[] = Array.from({ length: LIMITS.priority.max }, (_, i) => {
  const n = i + 1;
  const hint = n === 1 ? ' (lowest)' : n === LIMITS.priority.max ? ' (highest)' : '';
  return option(`${n}${hint}`, String(n));
});

export function featureModal(form: FeatureForm): ModalView {
  const isNew = form.meta.mode === 'new';
  const priority = PRIORITY_OPTIONS.find((o) => o.value === String(form.priority ?? 5));
  const where: KnownBlock[] = isNew
    ? [
        ...(form.teams?.length === 0
          ? [
              formProblem(
                md`Your organization has no team yet: create one in the Team Planning Service first.`,
              ),
            ]
          : []),
        ...teamChannelInputs({
          teams: form.teams ?? [],
          teamId: form.teamId,
          channels: form.channels,
          channelId: form.channelId,
        }),
      ]
    : [];
  return modal({
    callbackId: VIEW.feature,
    title: isNew ? FEATURE_TITLE : FEATURE_EDIT_TITLE,
    submit: isNew ? 'Create' : 'Save',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      ...where,
      input(
        'Heading',
        FIELD.heading.block,
        textInput(FIELD.heading.action, {
          max: LIMITS.heading,
          placeholder: 'What the feature is, in a line',
          value: form.heading,
        }),
      ),
      input(
        'Details',
        FIELD.details.block,
        textInput(FIELD.details.action, { multiline: true, max: LIMITS.details, value: form.details }),
        { optional: true },
      ),
      input('Priority', FIELD.priority.block, {
        type: 'static_select',
        action_id: FIELD.priority.action,
        options: PRIORITY_OPTIONS,
        ...(priority ? { initial_option: priority } : {}),
      }),
      input(
        'Focus',
        FIELD.focus.block,
        {
          type: 'radio_buttons',
          action_id: FIELD.focus.action,
          options: FEATURE_FOCI.map(focusOption),
          ...(form.focus ? { initial_option: focusOption(form.focus) } : {}),
        },
        { optional: true },
      ),
      ...(isNew
        ? [
            context(
              md`The feature starts in *Planning*; its card is posted in the Slack channel linked to its planning channel.`,
            ),
          ]
        : []),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

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
    callbackId: VIEW.assumption,
    title: form.meta.assmId ? 'Edit assumption' : 'Add assumption',
    submit: form.meta.assmId ? 'Save' : 'Add',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      ...(form.featureHeading ? [section(md`For *${inline(form.featureHeading, 200)}*`)] : []),
      input(
        'Assumption',
        FIELD.heading.block,
        textInput(FIELD.heading.action, {
          max: LIMITS.heading,
          placeholder: 'Electron.js supports Windows 7',
          value: form.heading,
        }),
        { hint: 'A statement that can be proven true or false — not a question or an opinion.' },
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

export const AssumptionRef = z.object({ coords: FeatureCoords, assmId: z.string().min(1) });
export type AssumptionRef = z.infer<typeof AssumptionRef>;

export function assumptionDeleteModal(form: {
  meta: AssumptionRef;
  heading?: string;
  problem?: Mrkdwn;
}): ModalView {
  return modal({
    callbackId: VIEW.assumptionDelete,
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
    callbackId: VIEW.experiment,
    title: EXPERIMENT_TITLE,
    submit: 'Save',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      section(md`Experiment for *${inline(form.heading ?? form.meta.assmId, 200)}*`),
      input('State', FIELD.experimentState.block, {
        type: 'radio_buttons',
        action_id: FIELD.experimentState.action,
        options: EXPERIMENT_STATES.map(stateOption),
        initial_option: stateOption(form.state ?? 'idle'),
      }),
      input(
        'Result',
        FIELD.confirmed.block,
        {
          type: 'checkboxes',
          action_id: FIELD.confirmed.action,
          options: [CONFIRMED],
          ...(form.confirmed ? { initial_options: [CONFIRMED] } : {}),
        },
        { optional: true },
      ),
      input(
        'Details',
        FIELD.details.block,
        textInput(FIELD.details.action, { multiline: true, max: LIMITS.details, value: form.details }),
        { optional: true, hint: `What was tried and what was found (at most ${LIMITS.details} characters).` },
      ),
      input(
        'Participants',
        FIELD.participants.block,
        {
          type: 'multi_users_select',
          action_id: FIELD.participants.action,
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
    FIELD.assumption.block,
    {
      type: 'external_select',
      action_id: FIELD.assumption.action,
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
        input('Feature', FIELD.evidenceFeature.block, {
          type: 'external_select',
          action_id: FIELD.evidenceFeature.action,
          min_query_length: 0,
          placeholder: { type: 'plain_text', text: "Search this channel's features" },
        }),
        assumption,
      ];
  return modal({
    callbackId: VIEW.evidence,
    title: EVIDENCE_TITLE,
    submit: 'Log',
    close: 'Cancel',
    privateMetadata: JSON.stringify(form.meta),
    blocks: [
      ...pick,
      input(
        'What will be kept',
        FIELD.details.block,
        textInput(FIELD.details.action, { multiline: true, max: LIMITS.details, value: form.evidence }),
        {
          hint: `Appended to the experiment's details, which hold ${LIMITS.details} characters in all: if they are nearly full, the text is cut and its link kept.`,
        },
      ),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}
