/**
 * The channel digest as Block Kit, built by a pure function from planning data and the previous
 * digest. However big the channel, the message stays within Slack's limits: at most
 * {@link MAX_BLOCKS} blocks, every text at most {@link MAX_SECTION_CHARS} characters, the longest
 * lists cut with a count ("…and 37 more").
 */
import type { types as slack } from '@slack/bolt';
import { format, parseISO } from 'date-fns';
import { FEATURE_STAGES, type FeatureLite, type FeatureStage, type Task } from '../planning/models.js';
import { DIGEST_ACTIONS, DIGEST_BLOCKS } from './ids.js';
import { buildSnapshot, type DigestData, type DigestSnapshot, type PreviousDigest } from './model.js';
import { formatLocal } from './time.js';

export const MAX_BLOCKS = 50;
export const MAX_SECTION_CHARS = 3000;
/** Features that can advance get their own row with an Advance button, up to this many. */
export const ADVANCE_BUTTONS = 5;
const HEADING_CHARS = 120;

const STAGE_LABELS: Record<FeatureStage, string> = {
  planning: 'Planning',
  validation: 'Validation',
  execution: 'Execution',
  'deep context': 'Deep context',
};

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
  blocks: slack.KnownBlock[];
  /** True when nothing changed since the previous digest: the message is one line. */
  unchanged: boolean;
  /** To store with the posted digest, for the next one. */
  snapshot: DigestSnapshot;
}

/** The value of an Advance button: which feature to advance. */
export interface AdvanceButtonValue {
  teamId: string;
  channelId: string;
  featureId: string;
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
    const line = `${title}: nothing changed since the last digest (${summary}).`;
    return { text: line, blocks: [section(DIGEST_BLOCKS.unchanged, line)], unchanged: true, snapshot };
  }

  const facts = digestFacts(data, previous);
  const blocks: slack.KnownBlock[] = [
    {
      type: 'header',
      block_id: DIGEST_BLOCKS.header,
      text: { type: 'plain_text', text: title, emoji: true },
    },
    section(DIGEST_BLOCKS.stages, stagesText(counts, data.features.length)),
  ];
  if (previous) {
    blocks.push(
      ...listSection(
        DIGEST_BLOCKS.newFeatures,
        'New since the last digest',
        facts.created.map((f) => `${featureLine(f)} — _${STAGE_LABELS[f.stage]}_`),
      ),
      ...listSection(
        DIGEST_BLOCKS.advanced,
        'Advanced since the last digest',
        facts.advanced.map(
          ({ feature, from }) =>
            `${featureLine(feature)}: ${STAGE_LABELS[from]} → *${STAGE_LABELS[feature.stage]}*`,
        ),
      ),
    );
  }
  blocks.push(...canAdvanceBlocks(data, facts.canAdvance));
  blocks.push(
    ...listSection(
      DIGEST_BLOCKS.inReview,
      'Tasks in review',
      facts.inReview.map(({ feature, task }) => taskLine(task, feature)),
    ),
    ...listSection(
      DIGEST_BLOCKS.unassigned,
      'Tasks without an assignee',
      facts.unassigned.map(({ feature, task }) => taskLine(task, feature)),
    ),
    ...listSection(
      DIGEST_BLOCKS.feedback,
      'Feedback waiting for a reply',
      data.feedbackWaiting.map(
        (w) =>
          `• ${clip(w.taskHeading ?? w.taskId)} — ${plural(w.count, 'unanswered item')} _(${clip(w.featureHeading ?? w.featureId)})_`,
      ),
      facts.feedbackTotal,
    ),
    ...listSection(
      DIGEST_BLOCKS.experiments,
      'Experiments running',
      facts.experiments.map(
        ({ feature, running }) => `${featureLine(feature)} — ${plural(running, 'experiment')}`,
      ),
      facts.experimentsTotal,
    ),
  );
  const footer = [
    previous
      ? `Changes since ${formatLocal(previous.postedAt, context.timeZone)}.`
      : 'First digest for this channel.',
    data.tasksNotRead > 0
      ? `Feedback of ${plural(data.tasksNotRead, 'open task')} not checked (too many to read).`
      : '',
    'Settings: `/plan digest`',
  ]
    .filter(Boolean)
    .join(' ');
  blocks.push({
    type: 'context',
    block_id: DIGEST_BLOCKS.footer,
    elements: [{ type: 'mrkdwn', text: clipText(footer) }],
  });

  const text = [
    `${title}: ${summary}`,
    `${plural(facts.canAdvance.length, 'feature')} can advance`,
    `${facts.inReview.length} in review`,
    `${facts.unassigned.length} unassigned`,
    previous ? `${facts.created.length} new, ${facts.advanced.length} advanced` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return { text: clipText(text), blocks: blocks.slice(0, MAX_BLOCKS), unchanged: false, snapshot };
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
  return `${plural(total, 'feature')} — ${FEATURE_STAGES.map((s) => `${counts[s]} ${STAGE_LABELS[s].toLowerCase()}`).join(', ')}`;
}

function stagesText(counts: Record<FeatureStage, number>, total: number): string {
  if (total === 0) return '*Features by stage*\nNo features in this channel yet.';
  const rows = FEATURE_STAGES.map((s) => `• ${STAGE_LABELS[s]}: *${counts[s]}*`);
  return `*Features by stage* (${total})\n${rows.join('\n')}`;
}

/** Up to {@link ADVANCE_BUTTONS} rows with an Advance button, the rest as one cut list. */
function canAdvanceBlocks(data: DigestData, features: FeatureLite[]): slack.KnownBlock[] {
  if (features.length === 0) return [];
  const withButtons = features.slice(0, ADVANCE_BUTTONS);
  const blocks: slack.KnownBlock[] = [
    section(DIGEST_BLOCKS.canAdvance, `*Can advance* (${features.length})`),
  ];
  withButtons.forEach((feature, index) => {
    const value: AdvanceButtonValue = {
      teamId: data.teamId,
      channelId: data.channelId,
      featureId: feature.id,
    };
    blocks.push({
      ...section(
        `${DIGEST_BLOCKS.canAdvance}_${index}`,
        `${featureLine(feature)} — _${STAGE_LABELS[feature.stage]}_`,
      ),
      accessory: {
        type: 'button',
        action_id: DIGEST_ACTIONS.advanceFeature,
        text: { type: 'plain_text', text: 'Advance' },
        value: JSON.stringify(value),
      },
    });
  });
  const rest = features.slice(ADVANCE_BUTTONS);
  if (rest.length > 0) {
    blocks.push(
      ...listSection(
        `${DIGEST_BLOCKS.canAdvance}_more`,
        'Also ready to advance',
        rest.map((f) => `${featureLine(f)} — _${STAGE_LABELS[f.stage]}_`),
      ),
    );
  }
  return blocks;
}

/**
 * One section listing `lines` under a bold title with their count; lines that do not fit in the
 * section are summarised as "…and N more". No block at all for an empty list.
 *
 * @param total the number shown after the title when it is not the number of lines (e.g. items).
 */
export function listSection(
  blockId: string,
  title: string,
  lines: readonly string[],
  total = lines.length,
): slack.KnownBlock[] {
  if (lines.length === 0) return [];
  let text = `*${title}* (${total})`;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const remaining = lines.length - i - 1;
    // Keep room for the "…and N more" tail in case a later line does not fit.
    const tailRoom = remaining > 0 ? moreLine(remaining + 1).length : 0;
    if (text.length + 1 + line.length + tailRoom > MAX_SECTION_CHARS) {
      text += moreLine(lines.length - i);
      break;
    }
    text += `\n${line}`;
  }
  return [section(blockId, text)];
}

function moreLine(count: number): string {
  return `\n…and ${count} more`;
}

function section(blockId: string, text: string): slack.SectionBlock {
  return { type: 'section', block_id: blockId, text: { type: 'mrkdwn', text: clipText(text) } };
}

function featureLine(feature: FeatureLite): string {
  return `• ${clip(feature.heading ?? feature.id)}`;
}

function taskLine(task: Task, feature: FeatureLite): string {
  return `• ${clip(task.heading ?? task.id)} _(${clip(feature.heading ?? feature.id)})_`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Escapes Slack's control characters and cuts long headings, so one heading cannot eat a section. */
export function clip(text: string, max = HEADING_CHARS): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const cut = oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
  return cut.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function clipText(text: string): string {
  return text.length > MAX_SECTION_CHARS ? `${text.slice(0, MAX_SECTION_CHARS - 1)}…` : text;
}
