/**
 * Tasks the assistant's model proposes (its `propose_tasks` tool). Proposing creates nothing: the
 * headings are cleaned and capped, carried in a *Review and create tasks* button under the answer,
 * and its press opens the Draft tasks form (draft.ts) prefilled with them — the same confirm step as
 * the message shortcut, so only *Create tasks* creates them, once, as the person who presses.
 */
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import {
  actions,
  button,
  channelMention,
  context,
  inline,
  type Mrkdwn,
  md,
  message,
  packSections,
  plural,
  SLACK_LIMITS,
  truncate,
} from '../../blockkit/index.js';
import { LIMITS } from '../../planning/models.js';
import { type ActionArgs, actionValue } from '../bolt/routes.js';
import { planningOf } from '../kit/acting.js';
import type { Reply } from '../kit/messages.js';
import { notice } from '../kit/messages.js';
import { loadModal, modalRequest } from '../kit/modal.js';
import { parseCarried, toWire, wireValue } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { privateSurface } from '../kit/surfaces.js';
import { DRAFT_TITLE, draftFormFor } from './draft.js';
import { ASSISTANT_ACTION } from './ids.js';

/** Tasks the model may propose in one answer: a list a person can review at a glance. */
export const MAX_MODEL_PROPOSALS = 10;

/** What the model proposed, cleaned: its headings, the feature it named, and what was left out. */
export interface Proposal {
  headings: string[];
  feature?: string;
  /** Headings dropped: over the cap, or not fitting in the button. */
  leftOut: number;
}

/** One line of the model's text as a heading: on one line, trimmed, cut to the service's limit. */
const headingOf = (v: unknown) =>
  typeof v === 'string' ? truncate(v.replace(/\s+/g, ' ').trim(), LIMITS.heading) : '';

/**
 * Headings as a proposal: non-empty, each once (case aside), at most {@link MAX_MODEL_PROPOSALS}
 * (the rest counted as left out); undefined when none is left. Pure.
 */
export function proposalFrom(raw: readonly unknown[], feature?: unknown): Proposal | undefined {
  const seen = new Set<string>();
  const headings: string[] = [];
  for (const heading of raw.map(headingOf)) {
    if (!heading || seen.has(heading.toLowerCase())) continue;
    seen.add(heading.toLowerCase());
    headings.push(heading);
  }
  if (headings.length === 0) return undefined;
  const named = headingOf(feature);
  return {
    headings: headings.slice(0, MAX_MODEL_PROPOSALS),
    ...(named ? { feature: named } : {}),
    leftOut: Math.max(0, headings.length - MAX_MODEL_PROPOSALS),
  };
}

/** The model's arguments as a proposal (they come unchecked). Pure. */
export function modelProposal(args: unknown): Proposal | undefined {
  const given = (args ?? {}) as { headings?: unknown; feature?: unknown };
  return proposalFrom(Array.isArray(given.headings) ? given.headings : [], given.feature);
}

/**
 * The button's value: the channel whose plan they go to, the headings, the feature named, and the
 * thread they were drafted from (its cards are posted there; none: new messages in the channel).
 * Short keys on the wire; `t` came after the others, so a value without it is still read.
 */
export const ProposedTasks = wireValue(
  z.object({
    c: z.string().regex(/^[CGD][A-Z0-9]+$/),
    h: z.array(z.string().min(1).max(LIMITS.heading)).min(1).max(MAX_MODEL_PROPOSALS),
    f: z.string().min(1).max(LIMITS.heading).optional(),
    t: z
      .string()
      .regex(/^\d+\.\d+$/)
      .optional(),
  }),
  (w) => ({
    contextChannelId: w.c,
    headings: w.h,
    ...(w.f ? { feature: w.f } : {}),
    ...(w.t ? { threadTs: w.t } : {}),
  }),
  (v: { contextChannelId: string; headings: string[]; feature?: string; threadTs?: string }) => ({
    c: v.contextChannelId,
    h: v.headings,
    ...(v.feature ? { f: v.feature } : {}),
    ...(v.threadTs ? { t: v.threadTs } : {}),
  }),
);

/**
 * The button's value for `proposal` in `contextChannelId`: the last headings are left out (and
 * counted) until it fits Slack's limit. Pure.
 */
export function proposedValue(
  contextChannelId: string,
  proposal: Proposal,
  threadTs?: string,
): { value: string; kept: Proposal } {
  const headings = [...proposal.headings];
  const feature = proposal.feature ? { feature: proposal.feature } : {};
  const thread = threadTs ? { threadTs } : {};
  const wire = () => toWire(ProposedTasks, { contextChannelId, headings, ...feature, ...thread });
  let value = wire();
  while (value.length > SLACK_LIMITS.buttonValue && headings.length > 1) {
    headings.pop();
    value = wire();
  }
  const leftOut = proposal.leftOut + proposal.headings.length - headings.length;
  return { value, kept: { headings, ...feature, leftOut } };
}

/**
 * What is proposed, and the button to review it: under the model's answer, or the drafted tasks of a
 * thread (`threadTs`, where their cards go) or of the channel's recent messages.
 */
export function proposedReply(contextChannelId: string, proposal: Proposal, threadTs?: string): Reply {
  const { value, kept } = proposedValue(contextChannelId, proposal, threadTs);
  const intro = md`Proposed tasks for the plan of ${channelMention(contextChannelId)}${kept.feature ? md` (feature “${inline(kept.feature, 100)}”)` : md``} — nothing is created until you review them and press *Create tasks*:`;
  const lines: Mrkdwn[] = kept.headings.map((h) => md`• ${inline(h, LIMITS.heading)}`);
  const blocks: KnownBlock[] = [
    ...packSections([intro, ...lines]),
    ...(kept.leftOut
      ? [context(md`${plural(kept.leftOut, 'more proposal')} left out: add any you want in the form.`)]
      : []),
    actions(
      undefined,
      button('Review and create tasks', ASSISTANT_ACTION.reviewProposedTasks, { value, style: 'primary' }),
    ),
  ];
  return message(intro, blocks);
}

/** The button's press: the Draft tasks form, prefilled, for the channel's plan; its cards go there (in the thread drafted from). */
export async function reviewProposedTasksAction(svc: Services, args: ActionArgs) {
  const proposed = parseCarried(ProposedTasks, actionValue(args.action));
  if (!proposed) {
    await privateSurface(args, planningOf(args.context).slackUserId).show(
      notice(md`This button is out of date: ask the assistant again.`),
    );
    return;
  }
  await loadModal(
    { ...modalRequest(svc, args, args.body.trigger_id, 'proposed tasks open'), title: DRAFT_TITLE },
    (acting) =>
      draftFormFor(
        svc,
        acting,
        {
          channel: proposed.contextChannelId,
          ...(proposed.threadTs ? { threadTs: proposed.threadTs } : {}),
        },
        {
          headings: async () => proposed.headings,
          none: md`Nothing was proposed: ask the assistant again.`,
          intro: md`Proposed by the assistant. Edit them, or empty a line to leave it out: nothing is created until you press *Create tasks*. Their cards are posted in ${proposed.threadTs ? md`the thread they were drafted from, in ` : md``}${channelMention(proposed.contextChannelId)}.`,
          ...(proposed.feature ? { featureHeading: proposed.feature } : {}),
        },
      ),
  );
}
