/**
 * Private replies (ephemeral, response_url or DM messages): a notice, a warning, and Connect for
 * someone not connected yet. Every function returns `{ text, blocks }` ready for `respond`/`chat.postEphemeral`.
 */
import type { Button, KnownBlock } from '@slack/types';
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

/**
 * Why a user cannot act yet: never connected (`missing`), their token was refused (`invalid`), or
 * they disconnected — leaving an account the app made that is still open (`left-open`), an account
 * now closed (`left-closed`), or an account they had pasted themselves (`left-pasted`). Someone who
 * left is asked what to do; nothing is made for them unasked.
 */
export type ConnectReason = 'missing' | 'invalid' | 'left-open' | 'left-closed' | 'left-pasted';

const CONNECT_TEXT: Record<ConnectReason, Mrkdwn> = {
  missing: md`You are not connected to the Team Planning Service yet. Connect your account to continue.`,
  invalid: md`Your connection to the Team Planning Service stopped working (the token was revoked or expired). Reconnect to continue.`,
  'left-open': md`You disconnected from the Team Planning Service. Connect again to get your planning account back, with its tasks and grades — or paste the token of another account.`,
  'left-closed': md`You disconnected and your previous planning account is closed: its tasks, grades and history stay with the closed account. Start with a new, empty account — or paste the token of an account you have.`,
  'left-pasted': md`You disconnected the account you had connected with a token. Paste its token to connect it again — or start with a new, empty account from the app.`,
};

/** The buttons that lead on, first the one most people want. */
function connectButtons(reason: ConnectReason): Button[] {
  const paste = (style?: 'primary') => button('Paste a token', ACTION.connectOpen, style ? { style } : {});
  const startNew = (style?: 'primary') =>
    button('Start with a new account', ACTION.connectNewAccount, style ? { style } : {});
  switch (reason) {
    case 'missing':
      return [button('Connect', ACTION.connectOpen, { style: 'primary' })];
    case 'invalid':
      return [button('Reconnect', ACTION.connectOpen, { style: 'primary' })];
    case 'left-open':
      return [button('Connect again', ACTION.connectAgain, { style: 'primary' }), paste()];
    case 'left-closed':
      return [startNew('primary'), paste()];
    case 'left-pasted':
      return [paste('primary'), startNew()];
  }
}

/** What to do to act again, with its buttons: shared by messages, modals and the Home tab. */
export function connectBlocks(reason: ConnectReason): KnownBlock[] {
  return [section(md`:link: ${CONNECT_TEXT[reason]}`), actions(undefined, ...connectButtons(reason))];
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
