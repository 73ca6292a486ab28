/**
 * *Draft tasks from this thread* asked in the assistant's panel, without any model: the thread a
 * pasted message link names (read with `conversations.replies`), or else the recent messages of the
 * channel the person is looking at (`conversations.history`, the last few by people), turned into
 * proposed tasks by the message shortcut's own extraction (proposals.ts). The answer says which
 * messages were read and carries *Review and create tasks*, whose press opens the same Draft tasks
 * form (proposed.ts, draft.ts): nothing is created until the person confirms there, once.
 *
 * The app reads the channel with its own token, so it reads only for someone who is a member of
 * it — nobody learns through the assistant what a channel they are not in says — and only a
 * channel linked to a planning channel (the tasks' destination). Each refusal is one sentence.
 */
import type { WebClient } from '@slack/web-api';
import {
  channelMention,
  link,
  type Mrkdwn,
  md,
  message,
  plural,
  section,
  slackDate,
} from '../../blockkit/index.js';
import { slackErrorCode } from '../../slack-api/index.js';
import type { Acting } from '../kit/identity.js';
import type { Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';
import { THREAD_READ } from './draft.js';
import type { MessageLink } from './intents.js';
import { contextLink } from './plan-answers.js';
import { proposals } from './proposals.js';
import { proposalFrom, proposedReply } from './proposed.js';

/** The channel's most recent messages read when no link is given: a short discussion's worth. */
export const RECENT_READ = 20;
/** Pages of a channel's member list read to find the person (1,000 each). */
const MEMBER_PAGES = 10;

const said = (text: Mrkdwn): Reply => message(text, [section(text)]);

/** A message read: its text, and whether a person wrote it (not a bot, not a join or a topic change). */
interface ReadMessage {
  text?: string;
  ts?: string;
  user?: string;
  bot_id?: string;
  subtype?: string;
}
const byPerson = (m: ReadMessage) => !m.bot_id && !m.subtype && !!m.user;

/** Whether `person` is in `channel`'s member list (read as the app: an error is the app not reading it). */
async function isMember(reader: WebClient, channel: string, person: string): Promise<boolean> {
  let cursor: string | undefined;
  for (let page = 0; page < MEMBER_PAGES; page++) {
    const res = await reader.conversations.members({ channel, limit: 1000, ...(cursor ? { cursor } : {}) });
    if (res.members?.includes(person)) return true;
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) return false;
  }
  return false;
}

/** Slack's answers that mean the app cannot read the channel (not in it, or it is private to it). */
const UNREADABLE = new Set(['not_in_channel', 'channel_not_found', 'access_denied']);

/** A Slack read, or the sentence saying why it could not be made; anything else is thrown. */
async function readOr<T>(read: () => Promise<T>, where: string): Promise<{ value: T } | { reply: Reply }> {
  try {
    return { value: await read() };
  } catch (error) {
    const code = slackErrorCode(error);
    const channel = channelMention(where);
    // An install from before the assistant read channels lacks their scopes: only a reinstall helps.
    if (code === 'missing_scope')
      return {
        reply: said(
          md`I cannot read ${channel} yet: the app was installed before it could. Ask a workspace admin to reinstall the app, then ask again.`,
        ),
      };
    if (code && UNREADABLE.has(code))
      return {
        reply: said(
          md`I cannot read ${channel}: the app is not in it. Invite the app to the channel, then ask again.`,
        ),
      };
    if (code === 'thread_not_found' || code === 'message_not_found')
      return { reply: said(md`I cannot find that message in ${channel} any more: was it deleted?`) };
    throw error;
  }
}

/**
 * The tasks proposed from the linked thread, or from the recent messages of the looked-at channel,
 * for `acting`'s person; read with `reader` (the app's client).
 */
export async function draftReply(
  svc: Services,
  acting: Acting,
  reader: WebClient,
  messageLink: MessageLink | undefined,
  contextChannelId: string | undefined,
): Promise<Reply> {
  const channel = messageLink?.channel ?? contextChannelId;
  if (!channel) {
    return said(
      md`Paste the link of a message (its *Copy link*) to draft tasks from its thread, or open me from a channel to draft from its recent messages.`,
    );
  }
  // The tasks go to the channel's plan: no link, nowhere to go (said before anything is read).
  const found = await contextLink(svc, acting, channel);
  if ('reply' in found) return found.reply;
  const member = await readOr(() => isMember(reader, channel, acting.slackUserId), channel);
  if ('reply' in member) return member.reply;
  if (!member.value) {
    return said(
      md`You are not a member of ${channelMention(channel)}, so I do not read it for you: draft from a channel you are in.`,
    );
  }

  let read: Mrkdwn;
  let messages: ReadMessage[];
  let threadTs: string | undefined;
  if (messageLink) {
    threadTs = messageLink.threadTs ?? messageLink.ts;
    const thread = await readOr(
      () => reader.conversations.replies({ channel, ts: threadTs!, limit: THREAD_READ }),
      channel,
    );
    if ('reply' in thread) return thread.reply;
    messages = (thread.value.messages ?? []) as ReadMessage[];
    // Slack files a reply's thread under its root: the cards go there.
    threadTs = messages[0]?.ts ?? threadTs;
    read = md`I read the thread of ${link(messageLink.url, 'that message')} in ${channelMention(channel)} (${plural(messages.length, 'message')}).`;
  } else {
    const history = await readOr(
      () => reader.conversations.history({ channel, limit: RECENT_READ }),
      channel,
    );
    if ('reply' in history) return history.reply;
    // Newest first from Slack; people's messages only (the app's own cards are tasks already).
    messages = ((history.value.messages ?? []) as ReadMessage[]).filter(byPerson).reverse();
    read = recentRead(channel, messages);
  }

  const proposal = proposalFrom(proposals(messages));
  if (!proposal) {
    return said(
      md`${read} I found no action-like line in them (a bullet, a checklist box, a “TODO”, a “we should…”, an imperative): nothing to propose.`,
    );
  }
  const proposed = proposedReply(channel, proposal, threadTs);
  return message(md`${read} ${proposed.text}`, [section(read), ...proposed.blocks]);
}

/** Which recent messages were read: how many, of whom, from when to when. */
function recentRead(channel: string, messages: readonly ReadMessage[]): Mrkdwn {
  const where = channelMention(channel);
  const hint = md`Paste a message's link to draft from its thread instead.`;
  if (messages.length === 0)
    return md`I read the last ${String(RECENT_READ)} messages of ${where}: none by people. ${hint}`;
  const at = (m: ReadMessage) => {
    const when = new Date(Number(m.ts) * 1000);
    return slackDate(when, '{date_short_pretty} {time}', when.toISOString().slice(0, 16).replace('T', ' '));
  };
  return md`I read the ${plural(messages.length, 'most recent message', 'most recent messages')} by people in ${where}, from ${at(messages[0]!)} to ${at(messages[messages.length - 1]!)} — at most the last ${String(RECENT_READ)} of the channel. ${hint}`;
}
