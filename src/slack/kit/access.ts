/**
 * The app's gates, as the router (bolt/router.ts) enforces them for every request of a route:
 * - `admin`: Slack says the person is a workspace admin or owner now — a modal opened before a
 *   demotion, or a crafted request with an admin form's callback id, is refused;
 * - `member`: the person acts with a planning account of their own here: they have connected
 *   (a pasted token counts, whoever they are in Slack), or they are a full member of the
 *   workspace, who can get one. Guests, people from other organizations, bots and deactivated
 *   users are refused before any form opens, with the sentence provisioning would give them.
 * A refusal is told where the person is: privately on the command's response_url, in the modal
 * they submitted, by DM for a button in a modal, a global shortcut or a message in the app's DM,
 * or as the select's only option.
 */
import { cut, type Mrkdwn, md, option } from '../../blockkit/index.js';
import { ONCE_TTL, workspaceIdFor } from '../../store/index.js';
import type { GatedRequest, RoutePolicy } from '../bolt/router.js';
import type { Gate } from '../bolt/routes.js';
import { type PlanningContext, planningOf } from './acting.js';
import { notAMemberSentence } from './failures.js';
import { NO_CHOICE } from './form.js';
import { HELP_ENTRY, helpMessage } from './help.js';
import type { NotAMember } from './membership.js';
import { notice } from './messages.js';
import { noticeView } from './modal.js';
import type { Services } from './services.js';
import { isWorkspaceAdmin, type SlackUser } from './slack-user.js';
import { privateSurface, respondSurface, showFailure } from './surfaces.js';

/** What a refused person is told, in one sentence, and why in the log (never who). */
export interface Refusal {
  text: Mrkdwn;
  why: string;
  reason?: NotAMember;
}

/** Slack's answer about the person; a failed read refuses an admin route. */
async function slackUser(planning: PlanningContext): Promise<SlackUser | undefined | 'unknown'> {
  try {
    return await planning.slackUser();
  } catch {
    return 'unknown';
  }
}

async function checkAdmin(gate: Gate, request: GatedRequest): Promise<Refusal | undefined> {
  const user = await slackUser(planningOf(request.args.context));
  if (user === 'unknown') {
    return {
      text: md`I could not check with Slack that you are a workspace admin; nothing was done — try again in a minute.`,
      why: 'Slack did not say whether they are a workspace admin',
    };
  }
  if (isWorkspaceAdmin(user)) return undefined;
  return { text: md`Only workspace admins can ${gate.doing ?? 'do this'}.`, why: 'not a workspace admin' };
}

/**
 * The `member` gate for a person: undefined when they may act (a request's sender, someone pasting
 * a link to preview), else why not. A full member of this workspace acts (connected, or they can
 * get an account); anyone else is refused, whatever they connected.
 */
export async function memberRefusal(planning: PlanningContext): Promise<Refusal | undefined> {
  const reason = await planning.notAFullMember();
  if (reason === 'unknown') {
    // Slack did not answer. Someone not connected goes on: provisioning asks again and explains a
    // failure. A connection is not used without Slack's word.
    if (!(await planning.stored())) return undefined;
    return {
      text: md`I could not check with Slack that you are a member of this workspace; nothing was done — try again in a minute.`,
      why: 'Slack did not say whether they are a full member',
    };
  }
  return reason ? { text: notAMemberSentence(reason), why: 'not a full member', reason } : undefined;
}

/** Why someone may not be acted for without asking: not connected, not a full member, or Slack did not say. */
export type NotConnectedMember = 'not connected' | 'unknown' | NotAMember;

/**
 * Why the app may not act as this person in work they did not start from a form or a button (a
 * Workflow Builder step naming them, their reply in a card's thread), or undefined: only a full
 * member of this workspace who connected a planning account of their own. Never provisions one
 * (they never asked for it), and a guest's own connection does not make them a member.
 */
export async function connectedMemberRefusal(
  planning: PlanningContext,
): Promise<NotConnectedMember | undefined> {
  if (!(await planning.stored())) return 'not connected';
  return planning.notAFullMember();
}

/** The thread an event came from: a message's thread, or an assistant thread's own. */
function eventThread(event: unknown): { channel: string; threadTs: string } | undefined {
  const e = event as {
    channel?: unknown;
    thread_ts?: unknown;
    assistant_thread?: { channel_id?: unknown; thread_ts?: unknown };
  };
  const channel = e.assistant_thread?.channel_id ?? e.channel;
  const threadTs = e.assistant_thread?.thread_ts ?? e.thread_ts;
  return typeof channel === 'string' && typeof threadTs === 'string' ? { channel, threadTs } : undefined;
}

export const accessPolicy: RoutePolicy<Services, Refusal> = {
  async check(_svc, gate, request) {
    if (gate.access === 'admin') return checkAdmin(gate, request);
    if (gate.access === 'member') return memberRefusal(planningOf(request.args.context));
    return undefined;
  },

  async refuse(svc, refusal, request) {
    const planning = planningOf(request.args.context);
    // Neither user id is logged: a grader's request must not pair them with anyone.
    svc.deps.logger.info(
      {
        workspaceId: planning.workspaceId,
        kind: request.kind,
        ...(refusal.reason ? { reason: refusal.reason } : {}),
      },
      `request refused: ${refusal.why}`,
    );
    switch (request.kind) {
      case 'options':
        // Slack shows the list as given: one option saying why, which cannot be submitted.
        await request.args.ack({ options: [option(cut(refusal.text.text, 75), NO_CHOICE)] });
        return;
      case 'view': {
        // The modal shows the working view the ack put there: it says why instead.
        const { view, client } = request.args;
        await client.views.update({ view_id: view.id, view: noticeView(view.title.text, refusal.text) });
        return;
      }
      case 'command':
        await respondSurface(request.args.respond).show(notice(refusal.text));
        return;
      case 'closed':
        // They closed the modal: nothing was asked of the app, so nothing is said.
        return;
      case 'event': {
        // Said in the thread the person wrote in (a DM thread, an assistant thread), else in the DM.
        const thread = eventThread(request.args.event);
        if (thread) {
          await request.args.client.chat.postMessage({
            channel: thread.channel,
            thread_ts: thread.threadTs,
            ...notice(refusal.text),
          });
          return;
        }
        await privateSurface(request.args, planning.slackUserId).show(notice(refusal.text));
        return;
      }
      default:
        await privateSurface(request.args, planning.slackUserId).show(notice(refusal.text));
    }
  },

  async commandFailed(svc, error, args, name) {
    const planning = planningOf(args.context);
    await showFailure(svc.deps, respondSurface(args.respond), error, {
      action: `/plan ${name}`,
      workspaceId: planning.workspaceId,
      slackUserId: planning.slackUserId,
    });
  },

  async help(_svc, args, entries, unknown) {
    await args.reply(helpMessage([HELP_ENTRY, ...entries], unknown));
  },

  async once(svc, key, args, work) {
    const workspaceId = workspaceIdFor(args.context);
    const log = { workspaceId, event: key.split(':')[0] };
    try {
      const done = await svc.deps.store.once.run(
        `event:${workspaceId}:${key}`,
        ONCE_TTL.personEvent,
        async () => {
          await work();
          return 'done';
        },
      );
      if (!done.first) svc.deps.logger.debug(log, 'event already handled');
    } catch (error) {
      // The event was acked already: there is nobody to answer but the log (the store down, Slack
      // refusing the answer). Its key is given back, so a retry of it may still be answered.
      svc.deps.logger.warn({ ...log, err: error }, 'event not handled');
    }
  },
};
