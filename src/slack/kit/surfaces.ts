/**
 * The private surfaces a listener answers on: the response_url of a command, shortcut or action
 * (ephemeral), the user's direct message with the app, or the modal the user is looking at. One
 * `Surface` interface, so the failure path is the same everywhere.
 */
import type { RespondFn } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { modal } from '../../blockkit/index.js';
import type { PlanningContext } from './acting.js';
import type { SlackDeps } from './deps.js';
import { explainFailure, type FailureContext } from './failures.js';
import { NotConnectedError } from './identity.js';
import { VIEW } from './ids.js';
import { notConnectedMessage, type Reply, warning } from './messages.js';

export interface Surface {
  /** Shows a message privately to the user. */
  show(reply: Reply): Promise<void>;
}

/** An ephemeral reply through the request's response_url. */
export function respondSurface(respond: RespondFn): Surface {
  return {
    show: async (reply) => {
      await respond({ response_type: 'ephemeral', replace_original: false, ...reply });
    },
  };
}

/** A message in the user's DM with the app: private where a request has no response_url. */
export function dmSurface(client: WebClient, slackUserId: string): Surface {
  return { show: (reply) => directMessage(client, slackUserId, reply) };
}

/** The response_url when the request has one, else the user's DM. */
export function privateSurface(
  args: { respond?: RespondFn; client: WebClient },
  slackUserId: string,
): Surface {
  return args.respond ? respondSurface(args.respond) : dmSurface(args.client, slackUserId);
}

/** Replaces the content of an open modal (by id: its hash changed when we acked with an update). */
export function viewSurface(client: WebClient, viewId: string, title: string): Surface {
  return {
    show: async (reply) => {
      await client.views.update({
        view_id: viewId,
        view: modal({ callbackId: VIEW.info, title, blocks: reply.blocks }),
      });
    },
  };
}

/** Tells the user what went wrong on `surface` (Connect button, or one sentence). */
export async function showFailure(deps: SlackDeps, surface: Surface, error: unknown, ctx: FailureContext) {
  const explanation = await explainFailure(deps, error, ctx);
  try {
    await surface.show(
      'connect' in explanation ? notConnectedMessage(explanation.connect) : warning(explanation.text),
    );
  } catch (showError) {
    deps.logger.error({ action: ctx.action, err: showError }, 'could not tell the user about a failure');
  }
}

/**
 * For a form that opens at once without service data: finds out who is acting and, when the user
 * cannot act (never connected, or their token stopped working), turns the form into the Connect
 * screen now rather than after they filled it in. Any other problem is left to the submission,
 * which explains it next to what they typed.
 */
export async function connectBeforeForm(planning: PlanningContext, surface: Surface): Promise<void> {
  try {
    await planning.acting();
  } catch (error) {
    if (error instanceof NotConnectedError) await surface.show(notConnectedMessage(error.reason));
  }
}

export async function directMessage(
  client: WebClient,
  userId: string,
  body: { text: string; blocks?: KnownBlock[] },
) {
  const opened = await client.conversations.open({ users: userId });
  const channel = opened.channel?.id;
  if (!channel) throw new Error('conversations.open returned no channel');
  await client.chat.postMessage({ channel, ...body });
}
