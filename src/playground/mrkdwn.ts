/**
 * Slack's mrkdwn as HTML, with the `slack-markdown` library (bold, italic, strike, code, quotes,
 * links, user/channel mentions, dates, emoji shortcodes through node-emoji). The page shows what
 * the app sends; every text object of type `mrkdwn` (and `plain_text` with emoji) in a message,
 * modal or Home view gets an `html` rendering next to it, so the page never parses mrkdwn itself.
 */
import { TZDate } from '@date-fns/tz';
import { differenceInCalendarDays, format as formatDate, formatDistanceStrict } from 'date-fns';
import * as slackMarkdown from 'slack-markdown';
import type { Workspace } from './workspace.js';

const { toHTML } = slackMarkdown;

/**
 * slack-markdown 0.3.0 tries the longest span first for *bold*, _italic_ and ~strike~, so
 * `*2* and *3*` became one bold "2* and *3". Slack closes at the first marker: try one character
 * first, then the shortest longer span. Its rule objects are shared with its parser, so the fix
 * applies to every call.
 */
type Rule = {
  parse?: (capture: string[], parse: (s: string, state: object) => unknown, state: object) => unknown;
  html?: (node: never, output: unknown, state: object) => string;
  match: (
    source: string,
    state: { inline?: boolean; inQuote?: boolean },
    prev?: string,
  ) => RegExpExecArray | null;
};
const rules = (slackMarkdown as unknown as { rules: Record<string, Rule> }).rules;
const inline =
  (re: RegExp): Rule['match'] =>
  (source, state) =>
    state.inline ? re.exec(source) : null;
rules.strong!.match = inline(/^\*(\S|\S(?:\\[\s\S]|[^\\])*?\S)\*(?!\*)/);
rules.em!.match = inline(/^\b_(\S|\S(?:\\[\s\S]|[^\\])*?\S)_(?!_)\b/);
rules.strike!.match = inline(/^~(\S|\S(?:\\[\s\S]|[^\\])*?\S)~(?!~)/);
// Slack quotes a line starting with `>` even without a space after it (the library wants "> ").
rules.blockQuote!.match = (source, state, prev) =>
  !/^$|\n *$/.test(prev ?? '') || state.inQuote ? null : /^( *>[^\n]*(\n *>[^\n]*)*\n?)/.exec(source);
// Its parse leaves `inQuote` (and `inline`) set after the first quote, so a second `>` quote in the
// same text was shown as "&gt;": put back what they were.
const parseQuote = rules.blockQuote!.parse!;
rules.blockQuote!.parse = (capture, parse, state) => {
  const { inQuote, inline: wasInline } = state as { inQuote?: boolean; inline?: boolean };
  const node = parseQuote(capture, parse, state);
  Object.assign(state, { inQuote, inline: wasInline });
  return node;
};
// A bare address ends where Slack ends it: at a space, `|` or an escaped `<`/`>` — so a person
// typing `<https://x|link>` (delivered as `&lt;https://x|link&gt;`) sees it as typed.
rules.url!.match = inline(/^(https?:\/\/(?:(?!&[gl]t;)[^\s<|])*(?:(?!&[gl]t;)[^<.,:;"')\]\s|]))/);

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// An emoji keeps its shortcode beside it (`data-code`): on a machine without an emoji font the
// page shows the shortcode instead of an empty box (see `emojiFallback` in public/app.js).
const parseEmoji = rules.emoji!.parse!;
rules.emoji!.parse = (capture, parse, state) => ({
  ...(parseEmoji(capture, parse, state) as object),
  code: capture[1],
});
rules.emoji!.html = (node: { content: string; isEmoji: boolean; code: string }) =>
  node.isEmoji ? emojiHtml(node.content, node.code) : escapeHtml(node.content);

/** One emoji as the page shows it: the character, with its shortcode for a page without an emoji font. */
export function emojiHtml(character: string, code: string): string {
  const shortcode = escapeHtml(`:${code}:`);
  return `<span class="s-emoji" data-code="${shortcode}" title="${shortcode}">${escapeHtml(character)}</span>`;
}

/** Slack's escapes (&amp; &lt; &gt;) come through the library escaped once more: undo that once. */
const unescapeTwice = (html: string) => html.replace(/&amp;(amp|lt|gt);/g, '&$1;');

/**
 * `<!date^…>` as Slack shows it: in the reader's own time zone, with Slack's tokens
 * (api.slack.com/reference/surfaces/formatting#date-formatting). Undefined for a bad timestamp:
 * Slack then shows the fallback.
 */
export function slackDateText(
  seconds: number,
  format: string,
  tz: string,
  now = Date.now(),
): string | undefined {
  if (!Number.isFinite(seconds)) return undefined;
  const at = new TZDate(seconds * 1000, tz);
  const today = new TZDate(now, tz);
  const ordinal = (pattern: string) => formatDate(at, pattern);
  const pretty = (otherwise: string) => {
    const days = differenceInCalendarDays(at, today);
    return days === 0 ? 'today' : days === -1 ? 'yesterday' : days === 1 ? 'tomorrow' : otherwise;
  };
  const tokens: Record<string, () => string> = {
    date_num: () => ordinal('yyyy-MM-dd'),
    date: () => ordinal('MMMM do, yyyy'),
    date_short: () => ordinal('MMM d, yyyy'),
    date_long: () => ordinal('EEEE, MMMM do, yyyy'),
    date_pretty: () => pretty(ordinal('MMMM do, yyyy')),
    date_short_pretty: () => pretty(ordinal('MMM d, yyyy')),
    date_long_pretty: () => pretty(ordinal('EEEE, MMMM do, yyyy')),
    time: () => ordinal('h:mm a'),
    time_secs: () => ordinal('h:mm:ss a'),
    ago: () => formatDistanceStrict(at, today, { addSuffix: true }),
  };
  return format.replace(/\{(\w+)\}/g, (token, name: string) => tokens[name]?.() ?? token);
}

/** mrkdwn as HTML for `reader` (whose Slack time zone dates are shown in; the workspace's when none). */
export function mrkdwnToHtml(text: string, ws: Workspace, reader?: string): string {
  const tz = (reader && ws.users.get(reader)?.tz) || ws.tz;
  const html = toHTML(text, {
    hrefTarget: '_blank',
    slackCallbacks: {
      user: ({ id, name }) => `@${escapeHtml(ws.users.get(id)?.realName ?? name ?? id)}`,
      channel: ({ id, name }) => `#${escapeHtml(ws.channels.get(id)?.name ?? name ?? id)}`,
      atHere: () => '@here',
      atChannel: () => '@channel',
      atEveryone: () => '@everyone',
      date: ({ timestamp, format, fallback }) =>
        escapeHtml(slackDateText(Number(timestamp), format, tz) ?? fallback),
    },
  });
  return unescapeTwice(html);
}

/** Plain text shows emoji shortcodes as emoji when `emoji` is not false, and nothing else. */
export function plainToHtml(text: string, emoji: boolean): string {
  const escaped = escapeHtml(text);
  if (!emoji) return escaped;
  return escaped.replace(/:[a-zA-Z0-9_+-]+:/g, (code) => toHTML(code, { slackOnly: true }));
}

/** A copy of `value` where each text object carries its `html`; everything else is kept as is. */
export function withHtml<T>(value: T, ws: Workspace, reader?: string): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) out[key] = walk(child);
    const o = node as { type?: unknown; text?: unknown; emoji?: unknown };
    if (typeof o.text === 'string') {
      if (o.type === 'mrkdwn') out.html = mrkdwnToHtml(o.text, ws, reader);
      else if (o.type === 'plain_text') out.html = plainToHtml(o.text, o.emoji !== false);
    }
    return out;
  };
  return walk(value) as T;
}
