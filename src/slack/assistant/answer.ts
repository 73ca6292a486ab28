/**
 * A question typed in an assistant thread (a message in a thread the store knows as one, given by
 * Bolt's `Assistant` class): the thread titled with it, a status while the answer is read, then the
 * answer in the thread — read with the person's own account. A failure is told in the thread in one
 * sentence.
 */
import type { WebClient } from '@slack/web-api';
import { cut } from '../../blockkit/index.js';
import { workspaceIdFor } from '../../store/index.js';
import type { AssistantMessageArgs } from '../bolt/routes.js';
import { type PlanningContext, planningOf } from '../kit/acting.js';
import type { Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { type Surface, showFailure } from '../kit/surfaces.js';
import { knowsReply } from '../people/index.js';
import { canDoReply, waitingReply } from './answers.js';
import { draftReply } from './draft-answer.js';
import { type Intent, intentOf } from './intents.js';
import { answerWithModel, modelOf } from './model.js';
import { blockedReply, changesReply, contextLink } from './plan-answers.js';

/** The fields read of a message in the app's DM. */
interface DmMessage {
  channel?: string;
  user?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
}

/**
 * The answer to `intent`, read as the person (nothing is read for a question it does not know);
 * `reader` is the app's Slack client, for the messages a draft is made from.
 */
async function replyTo(
  svc: Services,
  planning: PlanningContext,
  reader: WebClient,
  intent: Intent,
  contextChannelId: string | undefined,
): Promise<Reply> {
  switch (intent.kind) {
    case 'unknown':
      return canDoReply();
    case 'draft':
      return draftReply(svc, await planning.acting(), reader, intent.link, contextChannelId);
    case 'waiting':
      return waitingReply(svc, await planning.acting());
    case 'changes':
      return changesReply(svc, await planning.acting(), contextChannelId);
    case 'blocked':
      return blockedReply(svc, await planning.acting(), intent.feature, contextChannelId);
    case 'knows': {
      const acting = await planning.acting();
      const found = await contextLink(svc, acting, contextChannelId);
      // As `/plan who knows` in the channel looked at: its link's team is ranked.
      if ('reply' in found) return found.reply;
      return knowsReply(svc, acting, found.link.slackChannelId, { name: intent.notion });
    }
  }
}

/** A thread title's length: Slack shows it in the assistant's history list. */
const TITLE_LENGTH = 60;

/** The DM thread a message is a reply in, when it is one. */
function threadReply(args: AssistantMessageArgs): { channel: string; threadTs: string } | undefined {
  const m = args.event as unknown as DmMessage;
  if (!m.channel || !m.thread_ts || m.thread_ts === m.ts) return undefined;
  return { channel: m.channel, threadTs: m.thread_ts };
}

/**
 * Whether the message is in one of the app's assistant threads (one the store keeps); not a
 * message in a thread of an app DM, which keeps the DM's own answer.
 */
export async function ownsAssistantThread(svc: Services, args: AssistantMessageArgs): Promise<boolean> {
  const where = threadReply(args);
  if (!where) return false;
  const workspaceId = workspaceIdFor(args.context);
  return (
    (await svc.deps.store.assistantThreads.get(workspaceId, where.channel, where.threadTs)) !== undefined
  );
}

/**
 * A question in one of the app's assistant threads: titled, a status while it is read, then the
 * answer in the thread — through the `Assistant` class's utilities (`setTitle`, `setStatus`,
 * `say`, `sayStream` for a model's answer), the looked-at channel from its thread context store.
 */
export async function answerInAssistantThread(svc: Services, args: AssistantMessageArgs): Promise<void> {
  const m = args.event as unknown as DmMessage;
  if (!threadReply(args)) return;
  const workspaceId = workspaceIdFor(args.context);
  const surface: Surface = {
    show: async (reply: Reply) => {
      await args.say(reply);
    },
  };
  const text = m.text ?? '';
  const planning = planningOf(args.context);
  try {
    await args.setTitle(cut(text.trim() || 'Question', TITLE_LENGTH));
    await args.setStatus('is reading your plan…');
    const contextChannelId = (await args.getThreadContext()).channel_id;
    const intent = intentOf(text);
    const model = intent.kind === 'unknown' && text.trim() ? modelOf(svc.deps.config) : undefined;
    if (model) {
      // A question none of the answers knows goes to the deployment's model, when it has one.
      await answerWithModel(
        svc,
        model,
        {
          say: (body) => args.say(body),
          stream: () => args.sayStream({ buffer_size: 1 }),
          update: (message) => args.client.chat.update(message),
        },
        await planning.acting(),
        text,
        contextChannelId,
      );
    } else {
      await surface.show(await replyTo(svc, planning, args.client, intent, contextChannelId));
    }
  } catch (error) {
    await showFailure(svc.deps, surface, error, {
      action: 'assistant answer',
      workspaceId,
      slackUserId: planning.slackUserId,
    });
    // The status would otherwise stay until Slack's own timeout when even the sentence failed.
    await args.setStatus('').catch(() => undefined);
  }
}
