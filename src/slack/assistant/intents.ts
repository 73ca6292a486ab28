/**
 * What a question typed in an assistant thread asks, read without any model: the few questions
 * people put to a planning tool, each recognized by its usual wordings, with the name it is about
 * (a feature's heading, a notion). A question none matches is `unknown` — answered with what the
 * assistant can do, never with silence. Pure.
 */
import { decodeSlackEntities } from '../../blockkit/index.js';

/** A Slack message's permalink, as pasted: the message, and the thread it is a reply in. */
export interface MessageLink {
  url: string;
  channel: string;
  ts: string;
  /** The thread's root when the message is a reply (`?thread_ts=`). */
  threadTs?: string;
}

export type Intent =
  | { kind: 'waiting' }
  | { kind: 'changes' }
  | { kind: 'blocked'; feature: string }
  | { kind: 'knows'; notion: string }
  | { kind: 'draft'; link?: MessageLink }
  | { kind: 'unknown' };

/** The prompts Slack shows on a new thread (at most 4), each a question the assistant answers. */
export const SUGGESTED_PROMPTS = [
  { title: 'What is waiting for me?', message: "What's waiting for me?" },
  { title: 'What changed this week?', message: "What changed in this channel's plan this week?" },
  { title: 'Draft tasks from a thread', message: 'Draft tasks from this thread' },
  { title: 'What else can you answer?', message: 'What can you do?' },
] as const;

/** My open work: "what's waiting for me", "my tasks", "what should I do next", "on my plate". */
const WAITING =
  /\b(waiting for me|waits for me|my (open )?tasks|on my plate|what should i (do|work on)|my to-?do|assigned to me|what do i have)\b/i;
const CHANGES = /\b(what('s| has| have)? changed|what changed|changes|what's new|what happened)\b/i;
const BLOCKED = [
  /\bwhy (?:can't|cannot|can not|won't|doesn't|does not|isn't|is not) (?:the feature )?(.+?) (?:advance|move on|move forward|move|progress)\b/i,
  /\bwhy is (?:the feature )?(.+?) (?:stuck|blocked)\b/i,
  /\bwhat (?:blocks|is blocking|holds up|is holding up) (?:the feature )?(.+?)$/i,
];
const KNOWS =
  /\bwho (?:knows|is good at|is an expert (?:in|on|at)|can help with|has experience (?:in|with)) (?:about )?(.+?)$/i;
const DRAFT =
  /\b(draft tasks|tasks from (this|the|that) (thread|conversation|discussion)|turn (this|it) into tasks)\b/i;

/**
 * A message permalink: `https://<workspace>.slack.com/archives/<channel>/p<ts without its dot>`,
 * with `?thread_ts=<root>&cid=<channel>` for a reply (Slack sends the `&` as `&amp;`); any host, so
 * the playground's own links are read too. Only the channel and the ts are taken from it.
 */
const PERMALINK =
  /https?:\/\/[a-z0-9.-]+(?::\d+)?\/archives\/([CG][A-Z0-9]+)\/p(\d{10})(\d{6})(?:\?([^\s|>]*))?/i;

/** The first message permalink in `text` (as Slack sends it: `<url>` or `<url|label>`), if any. */
export function messageLinkIn(text: string): MessageLink | undefined {
  const m = PERMALINK.exec(text);
  if (!m) return undefined;
  const [url, channel, seconds, micros, query] = m;
  const threadTs = /(?:^|&|&amp;)thread_ts=(\d{10}\.\d{6})/.exec(query ?? '')?.[1];
  return {
    url: url!.replace(/&amp;/g, '&'),
    channel: channel!.toUpperCase(),
    ts: `${seconds}.${micros}`,
    ...(threadTs && threadTs !== `${seconds}.${micros}` ? { threadTs } : {}),
  };
}

/** A name as typed: quotes, guillemets and a closing question mark taken off. */
function nameOf(raw: string): string {
  return raw
    .replace(/[?!.]+$/, '')
    .replace(/^["'«“‘]+|["'»”’]+$/g, '')
    .trim();
}

/** The intent of `text`, as the person typed it (Slack's escapes decoded, case and spacing ignored). */
export function intentOf(text: string): Intent {
  const typed = decodeSlackEntities(text).replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
  const q = typed;
  // The patterns ignore case; the names keep the case they were typed in.
  const named = (re: RegExp) => {
    const m = re.exec(q);
    return m?.[1] ? nameOf(m[1]) || undefined : undefined;
  };
  if (DRAFT.test(q)) {
    // The link is read from the text as Slack sent it: decoding would not change a URL's characters.
    const link = messageLinkIn(text);
    return link ? { kind: 'draft', link } : { kind: 'draft' };
  }
  const notion = named(KNOWS);
  if (notion) return { kind: 'knows', notion };
  for (const re of BLOCKED) {
    const feature = named(re);
    if (feature) return { kind: 'blocked', feature };
  }
  if (WAITING.test(q)) return { kind: 'waiting' };
  if (CHANGES.test(q)) return { kind: 'changes' };
  return { kind: 'unknown' };
}
