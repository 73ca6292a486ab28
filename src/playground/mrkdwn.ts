/**
 * Slack's mrkdwn as HTML, with the `slack-markdown` library (bold, italic, strike, code, quotes,
 * links, user/channel mentions, dates, emoji shortcodes through node-emoji). The page shows what
 * the app sends; every text object of type `mrkdwn` (and `plain_text` with emoji) in a message,
 * modal or Home view gets an `html` rendering next to it, so the page never parses mrkdwn itself.
 */
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

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Slack's escapes (&amp; &lt; &gt;) come through the library escaped once more: undo that once. */
const unescapeTwice = (html: string) => html.replace(/&amp;(amp|lt|gt);/g, '&$1;');

export function mrkdwnToHtml(text: string, ws: Workspace): string {
  const html = toHTML(text, {
    hrefTarget: '_blank',
    slackCallbacks: {
      user: ({ id, name }) => `@${escapeHtml(ws.users.get(id)?.realName ?? name ?? id)}`,
      channel: ({ id, name }) => `#${escapeHtml(ws.channels.get(id)?.name ?? name ?? id)}`,
      atHere: () => '@here',
      atChannel: () => '@channel',
      atEveryone: () => '@everyone',
      date: ({ timestamp, fallback }) => {
        const at = new Date(Number(timestamp) * 1000);
        return escapeHtml(
          Number.isNaN(at.getTime()) ? fallback : at.toUTCString().replace(':00 GMT', ' UTC'),
        );
      },
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
export function withHtml<T>(value: T, ws: Workspace): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) out[key] = walk(child);
    const o = node as { type?: unknown; text?: unknown; emoji?: unknown };
    if (typeof o.text === 'string') {
      if (o.type === 'mrkdwn') out.html = mrkdwnToHtml(o.text, ws);
      else if (o.type === 'plain_text') out.html = plainToHtml(o.text, o.emoji !== false);
    }
    return out;
  };
  return walk(value) as T;
}
