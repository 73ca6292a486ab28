/**
 * A question typed in an assistant thread (a `message.im` in a thread the store knows as one):
 * the thread titled with it, a status while the answer is read, then the answer in the thread —
 * read with the person's own account. A failure is told in the thread in one sentence.
 */
import type { WebClient } from '@slack/web-api';
import { cut } from '../../blockkit/index.js';
import { workspaceIdFor } from '../../store/index.js';
import type { EventArgs } from '../bolt/routes.js';
import { type PlanningContext, planningOf } from '../kit/acting.js';
import type { Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { type Surface, showFailure } from '../kit/surfaces.js';
import { knowsReply } from '../people/index.js';
import { canDoReply, draftHowReply, waitingReply } from './answers.js';
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

/** The answer to `intent`, read as the person (nothing is read for a question it does not know). */
async function replyTo(
  svc: Services,
  planning: PlanningContext,
  intent: Intent,
  contextChannelId: string | undefined,
): Promise<Reply> {
  switch (intent.kind) {
    case 'unknown':
      return canDoReply();
    case 'draft':
      return draftHowReply();
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

/**
 * Answers the message when it is in one of the app's assistant threads; false when it is not
 * (a message in the DM itself, or in a thread of an app DM), left to the DM's own answer.
 */
export async function answerInAssistantThread(
  svc: Services,
  args: EventArgs<'message.im'>,
): Promise<boolean> {
  const m = args.event as unknown as DmMessage;
  if (!m.channel || !m.thread_ts || m.thread_ts === m.ts) return false;
  const workspaceId = workspaceIdFor(args.context);
  const thread = await svc.deps.store.assistantThreads.get(workspaceId, m.channel, m.thread_ts);
  if (!thread) return false;
  const client = args.client as WebClient;
  const where = { channel_id: m.channel, thread_ts: m.thread_ts };
  const surface: Surface = {
    show: async (reply: Reply) => {
      await client.chat.postMessage({ channel: where.channel_id, thread_ts: where.thread_ts, ...reply });
    },
  };
  const text = m.text ?? '';
  const planning = planningOf(args.context);
  try {
    await client.assistant.threads.setTitle({
      ...where,
      title: cut(text.trim() || 'Question', TITLE_LENGTH),
    });
    await client.assistant.threads.setStatus({ ...where, status: 'is reading your plan…' });
    const intent = intentOf(text);
    const model = intent.kind === 'unknown' && text.trim() ? modelOf(svc.deps.config) : undefined;
    if (model) {
      // A question none of the answers knows goes to the deployment's model, when it has one.
      const place = { channel: m.channel, threadTs: m.thread_ts, slackUserId: thread.slackUserId };
      const home = planning.home.teamId ? { teamId: planning.home.teamId } : {};
      await answerWithModel(
        svc,
        model,
        client,
        await planning.acting(),
        { ...place, ...home },
        text,
        thread.contextChannelId,
      );
    } else {
      await surface.show(await replyTo(svc, planning, intent, thread.contextChannelId));
    }
  } catch (error) {
    await showFailure(svc.deps, surface, error, {
      action: 'assistant answer',
      workspaceId,
      slackUserId: planning.slackUserId,
    });
    // The status would otherwise stay until Slack's own timeout when even the sentence failed.
    await client.assistant.threads.setStatus({ ...where, status: '' }).catch(() => undefined);
  }
  return true;
}
