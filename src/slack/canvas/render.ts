/**
 * The plan as canvas markdown (issue 37 item 2) — pure, no I/O: a header with the planning team and
 * when the canvas was last brought up to date in full, then the features grouped by stage in the
 * service's order (planning → validation → execution → deep context), each a section of its own —
 * one `###` heading and the lines under it, so one feature changed is one section replaced
 * (`canvases.sections.lookup` finds it by the reference its line carries). Every piece of user text
 * goes through {@link canvasText}. A plan larger than a canvas should hold is cut, saying how many
 * features are left out, never failed.
 */
import { createHash } from 'node:crypto';
import {
  type ExperimentState,
  FEATURE_STAGES,
  type FeatureFocus,
  type FeatureStage,
  type TaskState,
} from '../../planning/index.js';
import { formatLocal } from '../../time.js';
import { canvasLink, canvasMention, canvasText } from './escape.js';

/** Features a canvas shows at most; past it, "…and N more features". */
export const MAX_CANVAS_FEATURES = 150;
/** Characters a canvas is given at most (Slack takes 1 MiB; a plan page far smaller reads better). */
export const MAX_CANVAS_CHARS = 200_000;

/** A person as the canvas names them: mentioned when connected to Slack, else their planning name. */
export interface CanvasPerson {
  slackUserId?: string;
  name?: string;
}

export interface CanvasTask {
  heading?: string;
  state: TaskState;
  assignee?: CanvasPerson;
}

export interface CanvasFeature {
  id: string;
  heading?: string;
  stage: FeatureStage;
  priority?: number;
  focus?: FeatureFocus;
  /** Each assumption's heading (when it was read) and its experiment's state. */
  assumptions: readonly { heading?: string; state?: ExperimentState }[];
  tasks: readonly CanvasTask[];
  /** The permalink of the feature's card in Slack, when it has one. */
  cardUrl?: string;
  /** Its page in the service's web app, when the deployment declares one. */
  webUrl?: string;
}

export interface CanvasPlan {
  teamName: string;
  channelName: string;
  /** When the canvas is brought up to date; shown in `timeZone` (the link's). */
  at: Date;
  timeZone: string;
  /** In the service's order within a stage (the canvas keeps it). */
  features: readonly CanvasFeature[];
}

/** One feature's section: its markdown and a digest of it (unchanged digest: nothing to edit). */
export interface CanvasSection {
  featureId: string;
  /** Where it stands: its stage and id. Another stage is another place (its stage's heading changes too). */
  place: string;
  markdown: string;
  hash: string;
}

export interface RenderedCanvas {
  title: string;
  markdown: string;
  /** The features shown, in order. */
  sections: CanvasSection[];
  /** Features left out (past {@link MAX_CANVAS_FEATURES} or {@link MAX_CANVAS_CHARS}). */
  leftOut: number;
}

const STAGE_TITLES: Readonly<Record<FeatureStage, string>> = {
  planning: 'Planning',
  validation: 'Validation',
  execution: 'Execution',
  'deep context': 'Deep context',
};

const EXPERIMENT_SAID: Readonly<Record<ExperimentState, string>> = {
  idle: 'experiment not started',
  running: 'experiment running',
  done: 'experiment done',
};

/** The canvas's title: the planning team and channel (plain text, as Slack shows titles). */
export function canvasTitle(teamName: string, channelName: string): string {
  return `${teamName} › ${channelName}: plan`.slice(0, 255);
}

/** The reference a feature's section carries, by which its section is looked up. */
export function sectionRef(featureId: string): string {
  return `ref ${featureId}`;
}

function person(p: CanvasPerson | undefined): string {
  if (!p) return 'unassigned';
  const mention = p.slackUserId ? canvasMention(p.slackUserId) : undefined;
  return mention ?? canvasText(p.name ?? 'someone');
}

/** One feature's section: `### heading`, its facts line, its assumptions and its tasks as a checklist. */
export function featureSection(f: CanvasFeature): string {
  const facts = [
    f.priority === undefined ? 'No priority' : `Priority ${f.priority}`,
    ...(f.focus ? [`focus ${canvasText(f.focus)}`] : []),
    ...(f.cardUrl ? [canvasLink('Card in Slack', f.cardUrl)] : []),
    ...(f.webUrl ? [canvasLink('Open in planning', f.webUrl)] : []),
    canvasText(sectionRef(f.id)),
  ];
  const lines = [`### ${canvasText(f.heading?.trim() || 'Untitled feature')}`, facts.join(' · ')];
  f.assumptions.forEach((a, i) => {
    const name = a.heading?.trim() ? canvasText(a.heading) : `Assumption ${i + 1}`;
    lines.push(`- ${name}: ${EXPERIMENT_SAID[a.state ?? 'idle']}`);
  });
  if (f.assumptions.length === 0) lines.push('- No assumptions yet');
  for (const t of f.tasks) {
    const box = t.state === 'done' ? '[x]' : '[ ]';
    lines.push(
      `- ${box} ${canvasText(t.heading?.trim() || 'Untitled task')} (${t.state}, ${person(t.assignee)})`,
    );
  }
  if (f.tasks.length === 0) lines.push('- No tasks yet');
  return lines.join('\n');
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);

/** The whole canvas. */
export function renderCanvas(plan: CanvasPlan): RenderedCanvas {
  const title = canvasTitle(plan.teamName, plan.channelName);
  const when = formatLocal(plan.at, plan.timeZone);
  const head = [
    `# ${canvasText(plan.teamName)} › ${canvasText(plan.channelName)}`,
    `The plan of this channel, kept current by Team Planning after every change. Brought up to date in full ${canvasText(when)}.`,
  ];
  const byStage = new Map<FeatureStage, CanvasFeature[]>(FEATURE_STAGES.map((s) => [s, []]));
  for (const f of plan.features) byStage.get(f.stage)?.push(f);
  const parts = [...head];
  const sections: CanvasSection[] = [];
  let size = parts.join('\n').length;
  let shown = 0;
  for (const stage of FEATURE_STAGES) {
    const features = byStage.get(stage) ?? [];
    if (features.length === 0) continue;
    const stageHead = `## ${STAGE_TITLES[stage]} (${features.length})`;
    let headed = false;
    for (const f of features) {
      if (shown >= MAX_CANVAS_FEATURES) break;
      const markdown = featureSection(f);
      if (size + markdown.length + stageHead.length + 2 > MAX_CANVAS_CHARS) break;
      if (!headed) {
        parts.push(stageHead);
        size += stageHead.length + 1;
        headed = true;
      }
      parts.push(markdown);
      size += markdown.length + 1;
      sections.push({ featureId: f.id, place: `${f.stage}:${f.id}`, markdown, hash: hashOf(markdown) });
      shown += 1;
    }
  }
  if (plan.features.length === 0) parts.push('No features in this channel yet.');
  const leftOut = plan.features.length - shown;
  if (leftOut > 0) parts.push(`…and ${leftOut} more ${leftOut === 1 ? 'feature' : 'features'}`);
  return { title, markdown: parts.join('\n'), sections, leftOut };
}

/** The line a canvas no longer kept current ends with. */
export const NO_LONGER_KEPT =
  '_This canvas is no longer kept current by Team Planning: the channel was unlinked or the canvas turned off._';
