/**
 * Private replies (ephemeral or response_url messages): help, not-connected, failures, who am I.
 * Every function returns `{ text, blocks }` ready for `respond`/`chat.postEphemeral`.
 */
import type { KnownBlock } from '@slack/types';
import {
  actions,
  button,
  context,
  joinMd,
  type MessageBody,
  type Mrkdwn,
  md,
  message,
  section,
} from '../../blockkit/index.js';
import { ACTION, COMMAND } from '../ids.js';

export type Reply = MessageBody;

/** Why a user cannot act yet. */
export type ConnectReason = 'missing' | 'invalid';

const CONNECT_TEXT: Record<ConnectReason, Mrkdwn> = {
  missing: md`You are not connected to the Team Planning Service yet. Connect your account to continue.`,
  invalid: md`Your connection to the Team Planning Service stopped working (the token was revoked or expired). Reconnect to continue.`,
};

/** The Connect button, shared by messages and modals. */
export function connectBlocks(reason: ConnectReason): KnownBlock[] {
  return [
    section(md`:link: ${CONNECT_TEXT[reason]}`),
    actions(
      undefined,
      button(reason === 'invalid' ? 'Reconnect' : 'Connect', ACTION.connectOpen, { style: 'primary' }),
    ),
  ];
}

export function notConnectedMessage(reason: ConnectReason): Reply {
  return message(CONNECT_TEXT[reason], connectBlocks(reason));
}

/** A short notice. */
export function notice(text: Mrkdwn): Reply {
  return message(text, [section(text)]);
}

/** A warning: something went wrong, in one sentence. */
export function warning(text: Mrkdwn): Reply {
  return message(text, [section(md`:warning: ${text}`)]);
}

export interface HelpEntry {
  usage: string;
  summary: string;
}

/** `/plan help`, optionally preceded by why it is shown (an unknown subcommand). */
export function helpMessage(entries: HelpEntry[], unknown?: string): Reply {
  const lines = entries.map((e) => md`\`${COMMAND} ${e.usage}\` — ${e.summary}`);
  const intro =
    unknown === undefined
      ? md`*Team Planning* — what you can do:`
      : md`I don't know \`${COMMAND} ${unknown}\`. Here is what I can do:`;
  return message(intro, [
    section(intro),
    section(joinMd(lines)),
    context(
      md`Shortcuts: *Create task*, *Give feedback*, *Log discovery* and *Log as evidence* on a message (⋯ menu), *New feature* and *Grade a peer* from the ⚡ menu.`,
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
  const role = who.role ? md` as ${who.role}` : md``;
  const text = md`You act as *${who.userName ?? 'an unnamed account'}* in organization *${who.orgName ?? who.orgId}*${role}.`;
  return message(text, [
    section(md`:bust_in_silhouette: ${text}`),
    context(md`Connected with ${how}. Connection: OK.`),
  ]);
}
