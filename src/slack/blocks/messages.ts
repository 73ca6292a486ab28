/**
 * Private replies (ephemeral or response_url messages): help, not-connected, failures, who am I.
 * Every function returns `{ text, blocks }` ready for `respond`/`chat.postEphemeral`.
 */
import type { KnownBlock } from '@slack/types';
import { ACTION, COMMAND } from '../ids.js';
import { actions, button, context, md, message, section } from './kit.js';

export type Reply = ReturnType<typeof message>;

/** Why a user cannot act yet. */
export type ConnectReason = 'missing' | 'invalid';

const CONNECT_TEXT: Record<ConnectReason, string> = {
  missing: 'You are not connected to the Team Planning Service yet. Connect your account to continue.',
  invalid:
    'Your connection to the Team Planning Service stopped working (the token was revoked or expired). ' +
    'Reconnect to continue.',
};

/** The Connect button, shared by messages and modals. */
export function connectBlocks(reason: ConnectReason): KnownBlock[] {
  return [
    section(`:link: ${CONNECT_TEXT[reason]}`),
    actions(
      undefined,
      button(reason === 'invalid' ? 'Reconnect' : 'Connect', ACTION.connectOpen, { style: 'primary' }),
    ),
  ];
}

export function notConnectedMessage(reason: ConnectReason): Reply {
  return message(CONNECT_TEXT[reason], connectBlocks(reason));
}

/** A short notice; `text` is trusted mrkdwn (escape user parts with `md`). */
export function notice(text: string): Reply {
  return message(text, [section(text)]);
}

export interface HelpEntry {
  usage: string;
  summary: string;
}

/** `/plan help`, optionally preceded by why it is shown (an unknown subcommand). */
export function helpMessage(entries: HelpEntry[], unknown?: string): Reply {
  const lines = entries.map((e) => `\`${COMMAND} ${e.usage}\` — ${e.summary}`);
  const intro =
    unknown === undefined
      ? '*Team Planning* — what you can do:'
      : md`I don't know \`${COMMAND} ${unknown}\`. Here is what I can do:`;
  return message(intro, [
    section(intro),
    section(lines.join('\n')),
    context(
      'Shortcuts: *Create task* and *Give feedback* on a message (⋯ menu), *Grade a peer* from the ⚡ menu.',
    ),
  ]);
}

export interface WhoAmI {
  userName?: string;
  orgName?: string;
  orgId: string;
  role?: string;
  origin: 'provisioned' | 'brought';
}

/** Who the user acts as; never the token. */
export function whoamiMessage(who: WhoAmI): Reply {
  const how =
    who.origin === 'provisioned' ? 'a service account the app created for you' : 'the token you connected';
  const text = md`You act as *${who.userName ?? 'an unnamed account'}* in organization *${who.orgName ?? who.orgId}*${
    who.role ? ` as ${who.role}` : ''
  }.`;
  return message(text, [
    section(`:bust_in_silhouette: ${text}`),
    context(`Connected with ${how}. Connection: OK.`),
  ]);
}
