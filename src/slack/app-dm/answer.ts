/**
 * A message a person types to the app in its DM (the Messages tab, `message.im`) is answered, once,
 * in the DM: with what the app can do — the `/plan help` list — or, when its first word names a
 * command (`help`, `connect`, `tasks`, `digest`…, with or without `/plan` before it), with exactly
 * what to type. Only a person's new message is answered: not the app's own nor another bot's, not
 * an edit or a deletion, not a thread reply also sent to the conversation.
 */
import type { WebClient } from '@slack/web-api';
import {
  context,
  decodeSlackEntities,
  joinMd,
  md,
  message,
  section,
  showsNothing,
} from '../../blockkit/index.js';
import { workspaceIdFor } from '../../store/index.js';
import type { HelpEntry } from '../bolt/router.js';
import type { EventArgs } from '../bolt/routes.js';
import { HELP_ENTRY, helpLine, helpMessage, helpUnder } from '../kit/help.js';
import { COMMAND } from '../kit/ids.js';
import type { Reply } from '../kit/messages.js';
import type { Services } from '../kit/services.js';

/** The `message` event in the app's DM, in the fields read here. */
interface DmMessage {
  channel?: string;
  user?: string;
  text?: string;
  ts?: string;
  thread_ts?: string;
  subtype?: string;
  bot_id?: string;
  app_id?: string;
}

/** A person's message: none, or one with a file (a thread reply sent to the conversation too is not a new one). */
const PERSON_SUBTYPES = new Set([undefined, 'file_share']);

/**
 * The key of a message a person typed (its channel and ts: the same for Slack's retries of it), or
 * undefined for what is not answered: a bot's or an app's message, an edit, a deletion, a broadcast.
 */
export function typedMessageKey(event: unknown): string | undefined {
  const m = event as DmMessage;
  if (!PERSON_SUBTYPES.has(m.subtype) || m.bot_id || m.app_id) return undefined;
  if (!m.user || !m.channel || !m.ts) return undefined;
  return `${m.channel}:${m.ts}`;
}

/** The first word as `/plan` would read it: `/plan tasks mine`, `tasks?` and `Tasks` all name `tasks`. */
function commandWord(text: string): string | undefined {
  const words = decodeSlackEntities(text)
    .split(/\s+/)
    .filter((w) => !showsNothing(w))
    .map((w) => w.toLowerCase());
  if (words[0] === COMMAND || words[0] === COMMAND.slice(1)) words.shift();
  return words[0]?.replace(/^\//, '').replace(/[?!.,:;]+$/, '');
}

/** What a typed message is answered with: the command it names, else what the app can do. */
export function dmAnswer(entries: readonly HelpEntry[], text: string): Reply {
  const all = [HELP_ENTRY, ...entries];
  const word = commandWord(text);
  if (word === 'help') return helpMessage(all);
  const named = word ? entries.filter((e) => e.usage.split(' ')[0] === word) : [];
  if (named.length === 0)
    return helpUnder(md`I answer commands rather than messages. Here is what I can do:`, all);
  const intro = md`I answer commands rather than messages — type it as a command:`;
  return message(intro, [
    section(intro),
    section(joinMd(named.map(helpLine))),
    context(md`\`${COMMAND} help\` lists everything I can do.`),
  ]);
}

/** The `message.im` route's handler: the answer, posted in the DM (in the thread typed in). */
export function answerTypedMessage(entries: readonly HelpEntry[]) {
  return async (svc: Services, args: EventArgs<'message.im'>): Promise<void> => {
    const m = args.event as unknown as DmMessage;
    const answer = dmAnswer(entries, m.text ?? '');
    try {
      await (args.client as WebClient).chat.postMessage({
        channel: m.channel!,
        ...(m.thread_ts && m.thread_ts !== m.ts ? { thread_ts: m.thread_ts } : {}),
        ...answer,
      });
    } catch (error) {
      svc.deps.logger.warn(
        { action: 'app DM answer', workspaceId: workspaceIdFor(args.context), err: error },
        'a message typed to the app was not answered',
      );
    }
  };
}
