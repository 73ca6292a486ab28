/**
 * The assistant's answers about the plan of the channel its person is looking at (the thread's
 * context channel, through that channel's link): what changed this week, and why a feature cannot
 * advance. Read with the person's own account; the buttons are the feature card's own.
 */
import type { KnownBlock } from '@slack/types';
import { subDays } from 'date-fns';
import {
  actions,
  channelMention,
  context,
  inline,
  joinMd,
  type Mrkdwn,
  md,
  message,
  section,
} from '../../blockkit/index.js';
import { type FeatureLite, type PlanningClient, TASK_STATES } from '../../planning/index.js';
import { nextStage, STAGE_NAMES, whyNotAdvance } from '../../planning/stages.js';
import type { ChannelLink } from '../../store/index.js';
import { FEATURE_ACTION, featureButtons } from '../features/index.js';
import type { Acting } from '../kit/identity.js';
import { COMMAND } from '../kit/ids.js';
import type { Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';

/** Features shown in one answer before "…and N more". */
const SHOWN_FEATURES = 10;
const SHOWN_TASKS = 8;
/** Headings offered when a typed name matches none or several. */
const OFFERED = 5;

/** The context channel's link, or the sentence saying why there is none. */
export async function contextLink(
  svc: Services,
  acting: Acting,
  contextChannelId: string | undefined,
): Promise<{ link: ChannelLink } | { reply: Reply }> {
  if (!contextChannelId) {
    const text = md`Open me from a channel linked to a planning channel (or move to one): I answer about the plan of the channel you are looking at.`;
    return { reply: message(text, [section(text)]) };
  }
  const link = await svc.deps.store.links.get(acting.workspaceId, contextChannelId);
  if (link) return { link };
  const text = md`${channelMention(contextChannelId)} is not linked to a planning channel, so it has no plan to read: a workspace admin can run \`${COMMAND} link\` there.`;
  return { reply: message(text, [section(text)]) };
}

async function featuresOf(client: PlanningClient, link: ChannelLink): Promise<FeatureLite[]> {
  const all: FeatureLite[] = [];
  for await (const f of client.features.list(link.teamId, link.channelId, { pageSize: 500 })) all.push(f);
  return all;
}

/** An ISO time in epoch ms (0 when absent or unreadable: never "this week"). */
const msOf = (iso: string | undefined) => (iso ? Date.parse(iso) || 0 : 0);

/**
 * The features changed since `since` (epoch ms), newest first: the service stamps a feature when it
 * or anything in it (a task, an assumption) changes — tasks carry no time of their own. Pure.
 */
export function changedSince(features: readonly FeatureLite[], since: number): FeatureLite[] {
  return features
    .filter((f) => msOf(f.updatedAt) >= since)
    .sort((a, b) => msOf(b.updatedAt) - msOf(a.updatedAt));
}

/** A feature's tasks counted by state: "2 idle · 1 in review". */
function taskStates(tasks: FeatureLite['tasks']): Mrkdwn {
  if (tasks.length === 0) return md`no task`;
  return joinMd(
    TASK_STATES.flatMap((state) => {
      const n = tasks.filter((t) => t.state === state).length;
      return n ? [md`${String(n)} ${state}`] : [];
    }),
    ' · ',
  );
}

/** *What changed in this channel's plan this week?* — per feature: its stage, its tasks changed. */
export async function changesReply(svc: Services, acting: Acting, contextChannelId?: string): Promise<Reply> {
  const found = await contextLink(svc, acting, contextChannelId);
  if ('reply' in found) return found.reply;
  const features = await featuresOf(acting.planning, found.link);
  const changes = changedSince(features, subDays(Date.now(), 7).getTime());
  const where = channelMention(found.link.slackChannelId);
  if (changes.length === 0) {
    const none = md`Nothing changed in ${where}'s plan in the last 7 days.`;
    return message(none, [section(none)]);
  }
  const intro = md`In the last 7 days, ${String(changes.length)} feature${changes.length === 1 ? '' : 's'} changed in ${where}'s plan:`;
  const blocks: KnownBlock[] = [section(intro)];
  for (const f of changes.slice(0, SHOWN_FEATURES)) {
    const lines: Mrkdwn[] = [
      md`:bulb: *${inline(f.heading ?? 'Untitled feature', 150)}* — ${STAGE_NAMES[f.stage]} · tasks: ${taskStates(f.tasks)}`,
      ...f.tasks
        .filter((t) => t.state !== 'done')
        .slice(0, SHOWN_TASKS)
        .map((t) => md`• ${inline(t.heading ?? 'Untitled task', 120)} — _${t.state}_`),
    ];
    blocks.push(section(joinMd(lines)));
  }
  if (changes.length > SHOWN_FEATURES) {
    blocks.push(
      context(md`…and ${String(changes.length - SHOWN_FEATURES)} more — \`${COMMAND} features\` lists them.`),
    );
  }
  return message(intro, blocks);
}

/**
 * The feature `name` names among `features`, as the pickers match a heading: the one whose heading
 * is it (case and spacing aside), else the only one containing it; otherwise the candidates.
 */
export function featureNamed(
  features: readonly FeatureLite[],
  name: string,
): { feature: FeatureLite } | { candidates: FeatureLite[] } {
  const norm = (s: string | undefined) => (s ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
  const wanted = norm(name);
  const exact = features.filter((f) => norm(f.heading) === wanted);
  if (exact.length === 1) return { feature: exact[0]! };
  const containing = features.filter((f) => norm(f.heading).includes(wanted));
  if (exact.length === 0 && containing.length === 1) return { feature: containing[0]! };
  if (containing.length > 0) return { candidates: containing };
  // None: the headings sharing a word with the name, then any.
  const words = wanted.split(' ').filter((w) => w.length > 2);
  const sharing = features.filter((f) => words.some((w) => norm(f.heading).includes(w)));
  return { candidates: sharing };
}

/** *Why can't «feature» advance?* — the stage gate in words, with what would unblock it. */
export async function blockedReply(
  svc: Services,
  acting: Acting,
  name: string,
  contextChannelId?: string,
): Promise<Reply> {
  const found = await contextLink(svc, acting, contextChannelId);
  if ('reply' in found) return found.reply;
  const { link } = found;
  const features = await featuresOf(acting.planning, link);
  const match = featureNamed(features, name);
  if ('candidates' in match) {
    const where = channelMention(link.slackChannelId);
    const offered = match.candidates
      .slice(0, OFFERED)
      .map((f) => md`• ${inline(f.heading ?? 'Untitled feature', 150)}`);
    const text =
      offered.length === 0
        ? md`No feature of ${where}'s plan is named “${inline(name, 100)}”.`
        : md`“${inline(name, 100)}” could be several features of ${where}'s plan — ask again with one of these:`;
    return message(text, [section(text), ...(offered.length ? [section(joinMd(offered))] : [])]);
  }
  const f = match.feature;
  const heading = inline(f.heading ?? 'Untitled feature', 150);
  const why = whyNotAdvance(f);
  const next = nextStage(f.stage);
  const lines: Mrkdwn[] = [];
  let text: Mrkdwn;
  if (!why) {
    text = md`*${heading}* can advance: it is in ${STAGE_NAMES[f.stage]}, and nothing holds it back from ${next ? STAGE_NAMES[next] : ''}.`;
  } else if (why.rule === 'read-only') {
    text = md`*${heading}* is in deep context, the last stage: it is read-only and advances no further.`;
  } else if (why.rule === 'no-assumption') {
    text = md`*${heading}* cannot leave ${STAGE_NAMES[f.stage]}: it has no assumption yet. Add one (what must be true for it to work) and it can advance.`;
  } else if (why.rule === 'experiments') {
    text = md`*${heading}* cannot leave ${STAGE_NAMES[f.stage]}: ${why.text}. Each assumption's experiment must be done — finish or close them on its card.`;
  } else {
    text = md`*${heading}* cannot leave ${STAGE_NAMES[f.stage]}: ${why.text}. Every task must be done first:`;
    const open = f.tasks.filter((t) => t.state !== 'done');
    lines.push(
      ...open
        .slice(0, SHOWN_TASKS)
        .map((t) => md`• ${inline(t.heading ?? 'Untitled task', 120)} — _${t.state}_`),
    );
    if (open.length > SHOWN_TASKS) lines.push(md`…and ${String(open.length - SHOWN_TASKS)} more`);
  }
  // The card's own buttons that move it on: Advance (only when it can), Add assumption, Add task.
  const moving = new Set<string>([
    FEATURE_ACTION.advance,
    FEATURE_ACTION.addAssumption,
    FEATURE_ACTION.addTask,
  ]);
  const buttons = featureButtons(
    { teamId: link.teamId, channelId: link.channelId, featureId: f.id },
    f,
  ).filter((b) => b.action_id !== undefined && moving.has(b.action_id));
  return message(text, [
    section(text),
    ...(lines.length ? [section(joinMd(lines))] : []),
    ...(buttons.length ? [actions(undefined, ...buttons)] : []),
  ]);
}
