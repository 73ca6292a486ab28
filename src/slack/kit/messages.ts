/**
 * Private replies (ephemeral, response_url or DM messages): a notice, a warning, and Connect for
 * someone not connected yet. Every function returns `{ text, blocks }` ready for `respond`/`chat.postEphemeral`.
 */
import type { KnownBlock } from '@slack/types';
import {
  actions,
  button,
  type MessageBody,
  type Mrkdwn,
  md,
  message,
  section,
} from '../../blockkit/index.js';
import { ACTION } from './ids.js';

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
