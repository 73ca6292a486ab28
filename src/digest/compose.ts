/**
 * The channel digest as Block Kit, built by a pure function from planning data and the previous
 * digest, with the app's one Block Kit layer (src/blockkit): however big the channel, the message
 * stays within Slack's limits — at most 50 blocks with the footer kept, every section at most 3,000
 * characters, the longest lists cut with a count ("…and 37 more") — and every heading is escaped in
 * the blocks and in the notification text alike.
 */
import type { KnownBlock } from '@slack/types';
import { format, parseISO } from 'date-fns';
import {
  button,
  contextWithId,
  header,
  inline,
  joinMd,
  listSection,
  type Mrkdwn,
  md,
  message,
  plural,
  section,
} from '../blockkit/index.js';
import { FEATURE_STAGES, type FeatureLite, type FeatureStage, type Task } from '../planning/models.js';
import { nextStage, STAGE_NAMES } from '../planning/stages.js';
import { type AdvanceButtonValue, advanceConfirm, DIGEST_ACTIONS, DIGEST_BLOCKS } from './ids.js';
import { buildSnapshot, type DigestData, type DigestSnapshot, type PreviousDigest } from './snapshot.js';
import { formatLocal } from './time.js';

/** Features that can advance get their own row with an Advance button, up to this many. */
export const ADVANCE_BUTTONS = 5;
const HEADING_CHARS = 120;

export interface DigestContext {
  /** The channel's local date the digest is for, `YYYY-MM-DD`. */
  localDate: string;
  /** The channel's IANA time zone, for the times the digest shows. */
  timeZone: string;
  previous?: PreviousDigest;
  /** Posted by `/plan digest now` rather than by the schedule. */
  onDemand?: boolean;
}

export interface ComposedDigest {
  /** Notification and fallback text. */
  text: string;
  blocks: KnownBlock[];
  /** True when nothing changed since the previous digest: the message is one line. */
  unchanged: boolean;
  /** To store with the posted digest, for the next one. */
  snapshot: DigestSnapshot;
}

/** Composes the digest of one channel. Pure: same input, same message. */
export function composeDigest(data: DigestData, context: DigestContext): ComposedDigest {
  const snapshot = buildSnapshot(data);
  const { previous } = context;
  const day = format(parseISO(context.localDate), 'EEEE d MMMM');
  const title = context.onDemand ? `Planning digest (on request) · ${day}` : `Daily planning digest · ${day}`;
  const counts = stageCounts(data.features);
  const summary = stageSummary(counts, data.features.length);

  if (previous?.snapshot && previous.snapshot.fingerprint === snapshot.fingerprint) {
    const line = md`${title}: nothing changed since the last digest (${summary}).`;
    return {
      ...message(line, [section(line, { blockId: DIGEST_BLOCKS.unchanged })]),
      unchanged: true,
      snapshot,
    };
  }

  const facts = digestFacts(data, previous);
  const blocks: KnownBlock[] = [
    header(title, DIGEST_BLOCKS.header),
    section(stagesText(counts, data.features.length), { blockId: DIGEST_BLOCKS.stages }),
  ];
  if (previous) {
    blocks.push(
      ...listSection(
        md`New since the last digest`,
        facts.created.map((f) => md`${featureLine(f)} — _${STAGE_NAMES[f.stage]}_`),
        { blockId: DIGEST_BLOCKS.newFeatures },
      ),
      ...listSection(
        md`Advanced since the last digest`,
        facts.advanced.map(
          ({ feature, from }) =>
            md`${featureLine(feature)}: ${STAGE_NAMES[from]} → *${STAGE_NAMES[feature.stage]}*`,
        ),
        { blockId: DIGEST_BLOCKS.advanced },
      ),
    );
  }
  blocks.push(...canAdvanceBlocks(data, facts.canAdvance));
  blocks.push(
    ...listSection(
      md`Tasks in review`,
      facts.inReview.map(({ feature, task }) => taskLine(task, feature)),
      { blockId: DIGEST_BLOCKS.inReview },
    ),
    ...listSection(
      md`Tasks without an assignee`,
      facts.unassigned.map(({ feature, task }) => taskLine(task, feature)),
      { blockId: DIGEST_BLOCKS.unassigned },
    ),
    ...listSection(
      md`Feedback waiting for a reply`,
      data.feedbackWaiting.map(
        (w) =>
          md`• ${clip(w.taskHeading ?? w.taskId)} — ${plural(w.count, 'unanswered item')} _(${clip(w.featureHeading ?? w.featureId)})_`,
      ),
      { blockId: DIGEST_BLOCKS.feedback, total: facts.feedbackTotal },
    ),
    ...listSection(
      md`Experiments running`,
      facts.experiments.map(
        ({ feature, running }) => md`${featureLine(feature)} — ${plural(running, 'experiment')}`,
      ),
      { blockId: DIGEST_BLOCKS.experiments, total: facts.experimentsTotal },
    ),
  );
  const footer = [
    previous
      ? md`Changes since ${formatLocal(previous.postedAt, context.timeZone)}.`
      : md`First digest for this channel.`,
    ...(data.tasksNotRead > 0
      ? [md`Feedback of ${plural(data.tasksNotRead, 'open task')} not checked (too many to read).`]
      : []),
    md`Settings: \`/plan digest\``,
  ];
  blocks.push(contextWithId(DIGEST_BLOCKS.footer, joinMd(footer, ' ')));

  const text = joinMd(
    [
      md`${title}: ${summary}`,
      md`${plural(facts.canAdvance.length, 'feature')} can advance`,
      md`${facts.inReview.length} in review`,
      md`${facts.unassigned.length} unassigned`,
      ...(previous ? [md`${facts.created.length} new, ${facts.advanced.length} advanced`] : []),
    ],
    '; ',
  );
  // However many lists overflow, the footer (how to change the settings) stays.
  return { ...message(text, blocks, 1), unchanged: false, snapshot };
}

interface FeatureTask {
  feature: FeatureLite;
  task: Task;
}

/** The lists a digest shows, derived from the data and the previous digest. */
export function digestFacts(data: DigestData, previous?: PreviousDigest) {
  const since = previous?.postedAt.getTime();
  const stagesBefore = previous?.snapshot?.stages;
  const created: FeatureLite[] = [];
  const advanced: { feature: FeatureLite; from: FeatureStage }[] = [];
  const canAdvance: FeatureLite[] = [];
  const inReview: FeatureTask[] = [];
  const unassigned: FeatureTask[] = [];
  const experiments: { feature: FeatureLite; running: number }[] = [];
  for (const feature of data.features) {
    const createdAt = feature.createdAt ? Date.parse(feature.createdAt) : Number.NaN;
    if (since !== undefined && createdAt > since) created.push(feature);
    const from = stagesBefore?.[feature.id];
    if (from !== undefined && from !== feature.stage) advanced.push({ feature, from });
    if (feature.canAdvance && feature.stage !== 'deep context') canAdvance.push(feature);
    for (const task of feature.tasks) {
      if (task.state === 'in review') inReview.push({ feature, task });
      if (task.state !== 'done' && !task.assigneeUserId) unassigned.push({ feature, task });
    }
    const running = feature.assumptions.filter((a) => a.experiment?.state === 'running').length;
    if (running > 0) experiments.push({ feature, running });
  }
  return {
    created,
    advanced,
    canAdvance,
    inReview,
    unassigned,
    experiments,
    experimentsTotal: experiments.reduce((sum, e) => sum + e.running, 0),
    feedbackTotal: data.feedbackWaiting.reduce((sum, w) => sum + w.count, 0),
  };
}

export function stageCounts(features: readonly FeatureLite[]): Record<FeatureStage, number> {
  const counts = Object.fromEntries(FEATURE_STAGES.map((s) => [s, 0])) as Record<FeatureStage, number>;
  for (const feature of features) counts[feature.stage] += 1;
  return counts;
}

function stageSummary(counts: Record<FeatureStage, number>, total: number): string {
  return `${plural(total, 'feature')} — ${FEATURE_STAGES.map((s) => `${counts[s]} ${STAGE_NAMES[s].toLowerCase()}`).join(', ')}`;
}

function stagesText(counts: Record<FeatureStage, number>, total: number): Mrkdwn {
  if (total === 0) return md`*Features by stage*\nNo features in this channel yet.`;
  const rows = FEATURE_STAGES.map((s) => md`• ${STAGE_NAMES[s]}: *${counts[s]}*`);
  return md`*Features by stage* (${total})\n${joinMd(rows)}`;
}

/** Up to {@link ADVANCE_BUTTONS} rows with an Advance button, the rest as one cut list. */
function canAdvanceBlocks(data: DigestData, features: FeatureLite[]): KnownBlock[] {
  if (features.length === 0) return [];
  const blocks: KnownBlock[] = [
    section(md`*Can advance* (${features.length})`, { blockId: DIGEST_BLOCKS.canAdvance }),
  ];
  features.slice(0, ADVANCE_BUTTONS).forEach((feature, index) => {
    blocks.push(advanceRow(data, feature, `${DIGEST_BLOCKS.canAdvance}_${index}`));
  });
  const rest = features.slice(ADVANCE_BUTTONS);
  blocks.push(
    ...listSection(
      md`Also ready to advance`,
      rest.map((f) => md`${featureLine(f)} — _${STAGE_NAMES[f.stage]}_`),
      { blockId: `${DIGEST_BLOCKS.canAdvance}_more` },
    ),
  );
  return blocks;
}

/** What a "Can advance" row shows of a feature. */
type RowFeature = Pick<FeatureLite, 'id' | 'heading' | 'stage' | 'canAdvance'>;

/** One "Can advance" row: the feature, its stage, and an Advance button for that stage. */
function advanceRow(place: { teamId: string; channelId: string }, feature: RowFeature, blockId: string) {
  const value: AdvanceButtonValue = {
    teamId: place.teamId,
    channelId: place.channelId,
    featureId: feature.id,
    stage: feature.stage,
  };
  const next = nextStage(feature.stage);
  return section(md`${featureLine(feature)} — _${STAGE_NAMES[feature.stage]}_`, {
    blockId,
    accessory: button('Advance', DIGEST_ACTIONS.advanceFeature, {
      value: JSON.stringify(value),
      ...(next ? { confirm: advanceConfirm(feature.heading ?? feature.id, next) } : {}),
    }),
  });
}

/**
 * A posted digest's blocks with the "Can advance" row `blockId` showing its feature as it is now —
 * after an Advance pressed there, or a press the row was out of date for: still an Advance button
 * when the feature can advance from where it is, else the stage it is in (no button), or that it is
 * gone. The digest is the app's own message, so its line is made true rather than explained away.
 */
export function digestWithRowNow(
  blocks: readonly KnownBlock[],
  blockId: string,
  place: { teamId: string; channelId: string },
  feature: RowFeature | undefined,
): KnownBlock[] {
  const row = (): KnownBlock => {
    if (!feature) return section(md`• :wastebasket: _A feature listed here no longer exists._`, { blockId });
    if (feature.canAdvance && nextStage(feature.stage)) return advanceRow(place, feature, blockId);
    return section(md`${featureLine(feature)} — now in _${STAGE_NAMES[feature.stage]}_`, { blockId });
  };
  return blocks.map((b) => (b.block_id === blockId ? row() : b));
}

function featureLine(feature: Pick<FeatureLite, 'id' | 'heading'>): Mrkdwn {
  return md`• ${clip(feature.heading ?? feature.id)}`;
}

function taskLine(task: Task, feature: FeatureLite): Mrkdwn {
  return md`• ${clip(task.heading ?? task.id)} _(${clip(feature.heading ?? feature.id)})_`;
}

/** A heading on one line, cut so that one heading cannot eat a section, and escaped. */
const clip = (text: string): Mrkdwn => inline(text, HEADING_CHARS);
