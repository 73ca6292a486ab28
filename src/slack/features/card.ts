/**
 * The feature card, as pure builders: its stage, why it can or cannot advance, its assumptions with
 * their experiments (and an Edit / Experiment / Delete menu each), its tasks by state, and its
 * buttons, each carrying the feature's coordinates and the stage the card showed.
 */
import type { Button, KnownBlock, Overflow, PlainTextOption } from '@slack/types';
import { z } from 'zod';
import {
  actions,
  button,
  context,
  inline,
  joinMd,
  link,
  listSection,
  type Mrkdwn,
  md,
  mention,
  message,
  option,
  plural,
  SLACK_LIMITS,
  section,
} from '../../blockkit/index.js';
import { advanceConfirm } from '../../digest/index.js';
import {
  FEATURE_FOCI,
  FEATURE_STAGES,
  type Feature,
  type FeatureFocus,
  type FeatureLite,
  type FeatureStage,
  TASK_STATES,
  type TaskState,
} from '../../planning/models.js';
import { nextStage, STAGE_NAMES, type StagedFeature, whyNotAdvance } from '../../planning/stages.js';
import { profileButton } from '../kit/people.js';
import { parseCarried } from '../kit/round-trip.js';
import { FEATURE_ACTION, FEATURE_CARD_BLOCK_PREFIX, FEATURE_CARD_EVENT } from './ids.js';

/** Where a feature lives in the service. */
export const FeatureCoords = z.object({
  teamId: z.string().min(1),
  channelId: z.string().min(1),
  featureId: z.string().min(1),
});
export type FeatureCoords = z.infer<typeof FeatureCoords>;

/** The value of a card's buttons: the feature, and the stage the card showed when it was pressed. */
export const FeatureButtonValue = FeatureCoords.extend({ stage: z.enum(FEATURE_STAGES) });
export type FeatureButtonValue = z.infer<typeof FeatureButtonValue>;

/** The value of an assumption's menu options (≤ 150 characters: ids only). */
export const AssumptionMenuValue = z.object({
  op: z.enum(['edit', 'experiment', 'delete']),
  assmId: z.string().min(1),
});
export type AssumptionMenuValue = z.infer<typeof AssumptionMenuValue>;

/** What each focus means, in one line a person understands. */
export const FOCUS_MEANINGS: Record<FeatureFocus, string> = {
  firmitas: 'Firmitas — sturdy: it works reliably and lasts',
  utilitas: 'Utilitas — useful: it does what people need',
  venustas: 'Venustas — delightful: it is a pleasure to use',
};

export function focusOption(focus: FeatureFocus): PlainTextOption {
  return option(FOCUS_MEANINGS[focus], focus);
}
export const FOCUS_OPTIONS = FEATURE_FOCI.map(focusOption);

/** What a card shows: the feature as read, and the Slack users behind its planning accounts. */
export interface FeatureView {
  coords: FeatureCoords;
  feature: Feature;
  /** Planning user id → Slack user id, for the people the app knows. */
  people?: Readonly<Record<string, string>>;
  /** Assumption id → the experiment's participants picked in Slack (planning user ids). */
  participants?: Readonly<Record<string, readonly string[]>>;
  /** The feature's page in the service's web app, when the deployment set PLANNING_WEB_FEATURE_URL. */
  openUrl?: string;
}

/** Who took part in an experiment: those picked in Slack, and those the service recorded as its authors. */
export function participantsOf(view: FeatureView, assm: Feature['assumptions'][number]): string[] {
  return [...new Set([...(view.participants?.[assm.id] ?? []), ...(assm.experiment?.authorUserIds ?? [])])];
}

const STAGE_ICON: Record<FeatureStage, string> = {
  planning: ':pencil2:',
  validation: ':test_tube:',
  execution: ':hammer_and_wrench:',
  'deep context': ':books:',
};

/** `Planning › *:test_tube: Validation* › Execution › Deep context`: every stage, the current one marked. */
export function stagesLine(stage: FeatureStage): Mrkdwn {
  return joinMd(
    FEATURE_STAGES.map((s) =>
      s === stage ? md`*${STAGE_ICON[s]} ${STAGE_NAMES[s]}*` : md`${STAGE_NAMES[s]}`,
    ),
    ' › ',
  );
}

/** One line: can it advance, and if not why (the service's rules). */
export function advanceLine(feature: Pick<Feature, 'stage' | 'assumptions' | 'tasks'>): Mrkdwn {
  const why = whyNotAdvance(feature);
  if (why?.rule === 'read-only') return md`:lock: Read-only: it is in deep context.`;
  if (why) return md`:no_entry: It cannot advance yet: ${why.text}.`;
  const next = nextStage(feature.stage);
  return md`:white_check_mark: Ready to advance to *${next ? STAGE_NAMES[next] : ''}*.`;
}

export function factsLine(feature: FeatureLite | Feature): Mrkdwn {
  const parts: Mrkdwn[] = [stagesLine(feature.stage)];
  if (feature.priority !== undefined) parts.push(md`priority *${feature.priority}*`);
  if (feature.focus) parts.push(md`focus _${feature.focus}_`);
  return joinMd(parts, ' · ');
}

const STATE_WORD: Record<TaskState, string> = {
  idle: 'Idle',
  'in progress': 'In progress',
  'in review': 'In review',
  done: 'Done',
};

/** Tasks by state: one line each, with headings when they are known. */
function tasksLines(tasks: Feature['tasks']): Mrkdwn[] {
  return TASK_STATES.flatMap((state) => {
    const these = tasks.filter((t) => t.state === state);
    if (these.length === 0) return [];
    const names = these.map((t) => inline(t.heading ?? t.id, 80));
    return [md`*${STATE_WORD[state]}* (${these.length}): ${joinMd(names, ', ')}`];
  });
}

function experimentWords(assm: Feature['assumptions'][number], view: FeatureView) {
  const people = view.people ?? {};
  const exp = assm.experiment;
  const state = exp?.state ?? 'idle';
  const icon =
    state === 'done'
      ? ':white_check_mark:'
      : state === 'running'
        ? ':hourglass_flowing_sand:'
        : ':white_circle:';
  const verdict = state === 'done' ? (exp?.confirmed ? md` — confirmed` : md` — not confirmed`) : md``;
  const who = participantsOf(view, assm).map((id) => (people[id] ? mention(people[id]) : undefined));
  const known = who.filter((m): m is Mrkdwn => m !== undefined);
  const by = known.length > 0 ? md` · ${joinMd(known, ', ')}` : md``;
  return md`${icon} experiment _${state}_${verdict}${by}`;
}

/** An assumption's menu: edit its heading, run its experiment, delete it (confirmed in a form). */
function assumptionMenu(assmId: string): Overflow {
  const value = (op: AssumptionMenuValue['op']) =>
    JSON.stringify({ op, assmId } satisfies AssumptionMenuValue);
  return {
    type: 'overflow',
    action_id: FEATURE_ACTION.assumptionMenu,
    options: [
      option('Experiment…', value('experiment')),
      option('Edit assumption…', value('edit')),
      option('Delete assumption…', value('delete')),
    ],
  };
}

/** Assumptions shown one per section with their menu; past this many, the rest as one list. */
const ASSUMPTION_SECTIONS = 20;

function assumptionBlocks(view: FeatureView, editable: boolean): KnownBlock[] {
  const { assumptions } = view.feature;
  if (assumptions.length === 0) return [section(md`*Assumptions*: none yet.`)];
  const line = (a: (typeof assumptions)[number]) =>
    md`• ${inline(a.heading ?? a.id, 200)} — ${experimentWords(a, view)}`;
  const shown = assumptions.slice(0, ASSUMPTION_SECTIONS);
  const rest = assumptions.slice(ASSUMPTION_SECTIONS);
  return [
    section(md`*Assumptions* (${assumptions.length})`),
    ...shown.map((a) => section(line(a), editable ? { accessory: assumptionMenu(a.id) } : {})),
    ...listSection(md`More assumptions`, rest.map(line)),
  ];
}

/** People on a card shown one per section with their planning profile; past this many, one line. */
const PEOPLE_SECTIONS = 5;

/**
 * The people the card names (experiments' participants who act as someone in Slack), each with a
 * *Planning profile* button: what they know, what they work on, one press away.
 */
function peopleBlocks(view: FeatureView): KnownBlock[] {
  const people = view.people ?? {};
  const experiments = new Map<string, number>();
  for (const assm of view.feature.assumptions) {
    for (const id of participantsOf(view, assm)) {
      const slackUserId = people[id];
      if (slackUserId) experiments.set(slackUserId, (experiments.get(slackUserId) ?? 0) + 1);
    }
  }
  const named = [...experiments];
  const shown = named.slice(0, PEOPLE_SECTIONS);
  const rest = named.length - shown.length;
  return [
    ...shown.map(([slackUserId, count]) => {
      const [profile] = profileButton(slackUserId);
      return section(
        md`:bust_in_silhouette: ${mention(slackUserId)} · ${plural(count, 'experiment')}`,
        profile ? { accessory: profile } : {},
      );
    }),
    ...(rest > 0
      ? [
          context(
            md`…and ${plural(rest, 'more person', 'more people')}: \`/plan who @someone\` shows anyone's profile.`,
          ),
        ]
      : []),
  ];
}

/** The block id of a card's first section, when the ids fit Slack's 255 characters. */
function cardBlockId(c: FeatureCoords): string | undefined {
  const id = `${FEATURE_CARD_BLOCK_PREFIX}${[c.teamId, c.channelId, c.featureId].join('|')}`;
  return id.length <= SLACK_LIMITS.blockId ? id : undefined;
}

/** Who looks at the buttons, when the surface is private to one person (a list, a modal). */
export interface FeatureButtonsOptions {
  /** A Details button (lists, where the full card is one press away). */
  details?: boolean;
  /**
   * Whether the one person who sees them may delete a feature in deep context (the service lets only
   * owners and admins). Absent on a shared card, which everyone sees: Delete stays, and a press by
   * someone else is told why in one private sentence.
   */
  deletesDeepContext?: boolean;
}

/**
 * The card's buttons. Nothing is offered that can only be refused: Advance only when the service's
 * rules let the feature advance (otherwise the card says why, and there is no confirmation to
 * answer before a known "no"); in deep context a feature is read-only and only Delete remains —
 * on a private surface only for whoever may use it.
 */
export function featureButtons(
  coords: FeatureCoords,
  feature: Pick<Feature, 'stage' | 'heading' | 'id'> & StagedFeature,
  options: FeatureButtonsOptions = {},
): Button[] {
  const value = JSON.stringify({ ...coords, stage: feature.stage } satisfies FeatureButtonValue);
  const heading = feature.heading ?? feature.id;
  const next = nextStage(feature.stage);
  const del = button('Delete', FEATURE_ACTION.delete, {
    value,
    style: 'danger',
    confirm: {
      title: 'Delete this feature?',
      text: md`*${inline(heading, 150)}* will be deleted with its assumptions and tasks. This cannot be undone.`,
      confirm: 'Delete',
      style: 'danger',
    },
  });
  const details = options.details ? [button('Details', FEATURE_ACTION.details, { value })] : [];
  if (!next) return [...details, ...(options.deletesDeepContext === false ? [] : [del])];
  const advance = whyNotAdvance(feature)
    ? []
    : [
        button('Advance', FEATURE_ACTION.advance, {
          value,
          style: 'primary',
          confirm: advanceConfirm(heading, next),
        }),
      ];
  return [
    ...advance,
    button('Add assumption', FEATURE_ACTION.addAssumption, { value }),
    button('Add task', FEATURE_ACTION.addTask, { value }),
    button('Edit', FEATURE_ACTION.edit, { value }),
    ...details,
    del,
  ];
}

/** The card's blocks (also the Details modal's). */
export function featureBlocks(view: FeatureView, options: FeatureButtonsOptions = {}): KnownBlock[] {
  const { feature, coords } = view;
  const heading = inline(feature.heading ?? feature.id, 200);
  const editable = feature.stage !== 'deep context';
  const tasks = tasksLines(feature.tasks);
  return [
    section(md`:bulb: *${heading}*`, { blockId: cardBlockId(coords) }),
    context(factsLine(feature), ...(view.openUrl ? [link(view.openUrl, 'Open in Team Planning')] : [])),
    ...(feature.details ? [section(inline(feature.details, 600))] : []),
    ...assumptionBlocks(view, editable),
    ...peopleBlocks(view),
    section(
      tasks.length > 0 ? md`*Tasks* (${feature.tasks.length})\n${joinMd(tasks)}` : md`*Tasks*: none yet.`,
    ),
    context(advanceLine(feature)),
    actions(undefined, ...featureButtons(coords, feature, options)),
  ];
}

/** The card as a message: blocks, notification text, and metadata naming the feature. */
export function featureCard(view: FeatureView) {
  const { feature } = view;
  const body = message(
    md`Feature: ${inline(feature.heading ?? feature.id, 200)} (${STAGE_NAMES[feature.stage]})`,
    featureBlocks(view),
  );
  return { ...body, metadata: { event_type: FEATURE_CARD_EVENT, event_payload: view.coords } };
}

/** What a card shows that a press depends on: its stage. */
export const featureShown = (feature: Pick<Feature, 'stage'>) => ({ stage: feature.stage });

/** A message or view as Slack hands it to an action or a shortcut. */
export interface CardLike {
  metadata?: { event_type?: string; event_payload?: unknown };
  blocks?: unknown[];
}

/** The feature a card (message or Details modal) is about, or `undefined`. */
export function featureCoordsFrom(msg: CardLike | undefined): FeatureCoords | undefined {
  if (!msg) return undefined;
  if (msg.metadata?.event_type === FEATURE_CARD_EVENT) {
    const parsed = FeatureCoords.safeParse(msg.metadata.event_payload);
    if (parsed.success) return parsed.data;
  }
  for (const block of msg.blocks ?? []) {
    const b = block as { block_id?: string };
    if (b.block_id?.startsWith(FEATURE_CARD_BLOCK_PREFIX)) {
      const [teamId, channelId, featureId] = b.block_id.slice(FEATURE_CARD_BLOCK_PREFIX.length).split('|');
      const parsed = FeatureCoords.safeParse({ teamId, channelId, featureId });
      if (parsed.success) return parsed.data;
    }
  }
  return undefined;
}

export const parseFeatureButton = (value: string | undefined) => parseCarried(FeatureButtonValue, value);

export const AssumptionRef = z.object({ coords: FeatureCoords, assmId: z.string().min(1) });

export type AssumptionRef = z.infer<typeof AssumptionRef>;
