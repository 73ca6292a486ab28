/**
 * A free-form question answered by the deployment's model (ASSISTANT_MODEL_URL…), when it provides
 * one. The model is given the question and tools — each one of the no-model answers, read with the
 * asking person's own account — and nothing else: no token, no Slack id of anyone else, no other
 * person's data beyond what the person's own account reads through those tools. It cannot write to
 * the service or post anywhere: the app posts its answer, streamed into the thread where Slack
 * allows (`chat.startStream` / `appendStream` / `stopStream`), else as one message updated at the
 * end. It may propose tasks (`propose_tasks`), which creates nothing: the app shows them under the
 * answer with a button to the Draft tasks form, where the person reviews and creates them (proposed.ts). Bounded in time, tool calls and tokens (src/model/); its failure or refusal is one sentence.
 */
import type { KnownBlock } from '@slack/types';
import { md } from '../../blockkit/index.js';
import type { Config } from '../../config.js';
import {
  createModelClient,
  DEFAULT_MODEL_LIMITS,
  type ModelClient,
  type ModelTool,
} from '../../model/client.js';
import { LIMITS } from '../../planning/models.js';
import type { Acting } from '../kit/identity.js';
import type { Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { knowsReply } from '../people/index.js';
import { waitingReply } from './answers.js';
import { blockedReply, changesReply, contextLink } from './plan-answers.js';
import { MAX_MODEL_PROPOSALS, modelProposal, type Proposal, proposedReply } from './proposed.js';

/** One model client per configuration (the process's). */
const clients = new WeakMap<object, ModelClient>();

/** The deployment's model, or undefined when it provides none. */
export function modelOf(
  config: Pick<
    Config,
    'ASSISTANT_MODEL_URL' | 'ASSISTANT_MODEL' | 'ASSISTANT_MODEL_KEY' | 'ASSISTANT_MODEL_TIMEOUT_MS'
  >,
) {
  if (!config.ASSISTANT_MODEL_URL || !config.ASSISTANT_MODEL) return undefined;
  let client = clients.get(config);
  if (!client) {
    client = createModelClient(
      {
        url: config.ASSISTANT_MODEL_URL,
        model: config.ASSISTANT_MODEL,
        ...(config.ASSISTANT_MODEL_KEY ? { key: config.ASSISTANT_MODEL_KEY } : {}),
      },
      { ...DEFAULT_MODEL_LIMITS, timeoutMs: config.ASSISTANT_MODEL_TIMEOUT_MS },
    );
    clients.set(config, client);
  }
  return client;
}

const SYSTEM = [
  'You are the Team Planning assistant in Slack. Answer the question about the team plan using only what the tools return;',
  'if they do not hold the answer, say so in one sentence. Be brief and use Slack mrkdwn.',
  "You cannot create, change or post anything. To suggest tasks for the looked-at channel's plan, call propose_tasks:",
  'they are shown to the person, who reviews them and creates them or not.',
].join(' ');

/** A reply's words, as a tool gives them to the model (its blocks' text). */
export function replyText(reply: Reply): string {
  const blocks = (reply.blocks ?? []) as KnownBlock[];
  const texts = blocks.flatMap((b): string[] => {
    if (b.type === 'section' || b.type === 'header') return b.text ? [b.text.text] : [];
    if (b.type === 'context') return b.elements.flatMap((e) => ('text' in e ? [e.text] : []));
    return [];
  });
  return texts.length ? texts.join('\n') : (reply.text ?? '');
}

/**
 * The tools: the no-model answers, read as `acting`, about the channel the person looks at; and
 * proposing tasks there, which only hands them to `propose` (the last proposal is the one shown).
 */
function toolsFor(
  svc: Services,
  acting: Acting,
  contextChannelId: string | undefined,
  propose: (proposal: Proposal) => void,
): ModelTool[] {
  const guarded = (read: (args: Record<string, unknown>) => Promise<Reply>) => async (args: unknown) => {
    try {
      return replyText(await read((args ?? {}) as Record<string, unknown>));
    } catch (error) {
      svc.deps.logger.warn(
        { action: 'assistant tool', workspaceId: acting.workspaceId, err: error },
        'a tool could not read',
      );
      return 'This could not be read right now.';
    }
  };
  const name = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : '');
  return [
    {
      name: 'whats_waiting_for_me',
      description:
        "The person's open tasks by state, feedback to answer, teammates they could grade (done tasks lately, with their notions), and features they authored that can advance.",
      parameters: { type: 'object', properties: {} },
      run: guarded(() => waitingReply(svc, acting)),
    },
    {
      name: 'what_changed_this_week',
      description:
        "The features of the looked-at channel's plan changed in the last 7 days, with their stages and tasks.",
      parameters: { type: 'object', properties: {} },
      run: guarded(() => changesReply(svc, acting, contextChannelId)),
    },
    {
      name: 'why_cannot_feature_advance',
      description:
        "Why a feature of the looked-at channel's plan cannot advance to its next stage, and what would unblock it.",
      parameters: {
        type: 'object',
        properties: { feature: { type: 'string', description: "The feature's heading" } },
        required: ['feature'],
      },
      run: guarded((a) => blockedReply(svc, acting, name(a.feature), contextChannelId)),
    },
    {
      name: 'who_knows',
      description: "The looked-at channel's team ranked on a notion (a skill), by their grades.",
      parameters: { type: 'object', properties: { notion: { type: 'string' } }, required: ['notion'] },
      run: guarded(async (a) => {
        const found = await contextLink(svc, acting, contextChannelId);
        if ('reply' in found) return found.reply;
        return knowsReply(svc, acting, found.link.slackChannelId, { name: name(a.notion) });
      }),
    },
    {
      name: 'propose_tasks',
      description: `Proposes tasks for the looked-at channel's plan (at most ${MAX_MODEL_PROPOSALS}). Creates nothing: they are shown to the person, who reviews, edits and creates them or not.`,
      parameters: {
        type: 'object',
        properties: {
          headings: {
            type: 'array',
            items: { type: 'string', maxLength: LIMITS.heading },
            maxItems: MAX_MODEL_PROPOSALS,
            description: "Each proposed task's heading",
          },
          feature: { type: 'string', description: 'The heading of the feature they belong to, if known' },
        },
        required: ['headings'],
      },
      run: async (args) => {
        const proposal = modelProposal(args);
        if (!proposal) return 'Nothing was proposed: give at least one non-empty task heading.';
        try {
          const found = await contextLink(svc, acting, contextChannelId);
          if ('reply' in found) return replyText(found.reply);
        } catch (error) {
          svc.deps.logger.warn(
            { action: 'assistant tool', workspaceId: acting.workspaceId, err: error },
            'a tool could not read',
          );
          return 'This could not be read right now.';
        }
        propose(proposal);
        const leftOut = proposal.leftOut
          ? ` (${proposal.leftOut} more left out: at most ${MAX_MODEL_PROPOSALS})`
          : '';
        return `Shown to the person for confirmation: ${proposal.headings.length} task(s)${leftOut}. Nothing is created unless they review them and press Create tasks.`;
      },
    },
  ];
}

/**
 * Where the answer goes: the assistant thread, through Bolt's `Assistant` utilities — a message
 * (`say`), or a stream started on its first piece (`sayStream`, for the thread's person).
 */
export interface AnswerPlace {
  say(body: { text: string; blocks?: KnownBlock[] }): Promise<{ ts?: string; channel?: string }>;
  stream(): Streamer;
  /** The message said when streaming is not offered, replaced once the answer is whole. */
  update(message: { channel: string; ts: string; text: string }): Promise<unknown>;
}

/** A stream of one reply, as Bolt's `sayStream` gives it (web-api's ChatStreamer). */
export interface Streamer {
  readonly ts: string | undefined;
  append(args: { markdown_text: string }): Promise<unknown>;
  stop(): Promise<unknown>;
}

/** Pieces buffered before an append (fewer calls to Slack for a fast model). */
const APPEND_AT = 80;

const FAILED: Record<string, string> = {
  timeout:
    'The model took too long to answer, so I stopped it: try again, or ask me one of the questions I answer myself (“What can you do?”).',
  unavailable:
    'The model could not be reached just now: try again in a minute, or ask me one of the questions I answer myself (“What can you do?”).',
  'too-many-tool-calls': 'The model needed more reads than I allow for one answer: ask a narrower question.',
  empty: 'The model gave no answer: ask in other words, or ask me “What can you do?”.',
};

/** Asks the model and posts its answer in the thread; every ending is told in the thread. */
export async function answerWithModel(
  svc: Services,
  model: ModelClient,
  place: AnswerPlace,
  acting: Acting,
  question: string,
  contextChannelId: string | undefined,
): Promise<void> {
  let stream: Streamer | undefined;
  let fallback: { channel: string; ts: string } | undefined;
  let shown = '';
  let pending = '';
  const flush = async () => {
    if (!pending) return;
    // The model's words are shown as written, never as Slack markup: `<!channel>` pings nobody.
    const piece = md`${pending}`.text;
    pending = '';
    shown += piece;
    if (fallback) return;
    if (!stream) {
      // The first piece starts the stream (the streamer sends each append at once: it is given
      // pieces already gathered here).
      const started = place.stream();
      try {
        await started.append({ markdown_text: piece });
        stream = started;
        return;
      } catch (error) {
        if (started.ts) throw error;
        // Streaming is not offered here: one message, updated once the answer is whole.
        const posted = await place.say({ text: shown });
        if (posted.ts && posted.channel) fallback = { channel: posted.channel, ts: posted.ts };
        return;
      }
    }
    await stream.append({ markdown_text: piece });
  };
  const say = (text: string) => place.say({ text });
  let proposed: Proposal | undefined;

  const outcome = await model.answer({
    system: SYSTEM,
    question,
    tools: toolsFor(svc, acting, contextChannelId, (p) => {
      proposed = p;
    }),
    onText: async (piece) => {
      pending += piece;
      // The first piece starts the reply at once; the next ones are sent a few at a time.
      if (!stream || pending.length >= APPEND_AT) await flush();
    },
  });
  await flush();
  if (stream) await stream.stop();
  if (fallback) await place.update({ ...fallback, text: shown });
  if (outcome.kind === 'refused') await say('The model declined to answer that question.');
  else if (outcome.kind === 'failed' && !(outcome.reason === 'empty' && proposed))
    await say(FAILED[outcome.reason]!);
  // Proposed tasks are offered whatever else the answer said (a refusal withdraws them); the tool
  // checked the looked-at channel is linked.
  if (proposed && outcome.kind !== 'refused' && contextChannelId) {
    await place.say(proposedReply(contextChannelId, proposed));
  }
}
