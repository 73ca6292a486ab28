/**
 * Text for Slack's mrkdwn — section and context texts and a message's top-level `text` (the
 * notification fallback that mobile notifications show alone). Slack reads `&`, `<` and `>` as
 * control characters: `<!channel>`, `<@U…>`, `<https://evil|click>`. So user text reaches Slack only
 * escaped, and the type system makes that hold: every mrkdwn-taking builder takes a {@link Mrkdwn},
 * which only this module makes — from literal (trusted) template parts, escaped values, and
 * mentions of checked Slack ids.
 */

/** Text known to be safe as mrkdwn. Made by {@link md} and the helpers of this module only. */
export class Mrkdwn {
  /** @internal use {@link md} */
  constructor(readonly text: string) {}
  get length(): number {
    return this.text.length;
  }
  toString(): string {
    return this.text;
  }
  toJSON(): string {
    return this.text;
  }
}

const ELLIPSIS = '…';

/** Cuts `text` to at most `max` characters (code points: an emoji or an accent is never split). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, Math.max(0, max)).join('');
}

/**
 * Cuts `text` to at most `max` UTF-16 code units — JavaScript's `length`, what a schema's `.max()`
 * counts — without splitting a code point: for text that must pass such a check when it comes back,
 * like a name carried in a button's value. (An emoji is two units, so it may keep fewer characters
 * than {@link cut}.)
 */
export function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = '';
  for (const char of text) {
    if (kept.length + char.length > max) break;
    kept += char;
  }
  return kept;
}

/** Cuts `text` to at most `max` characters (code points), ending with "…" when it was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (Array.from(text).length <= max) return text;
  return `${cut(text, Math.max(0, max - 1))}${ELLIPSIS}`;
}

/** Escapes Slack's control characters: user text can then neither mention, link nor ping. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Slack's escaping undone, once: Slack sends `&`, `<` and `>` typed by a person as `&amp;`, `&lt;`
 * and `&gt;` (in command text, message text, shortcut payloads). Decoded where such text enters the
 * app, what the person typed is matched, searched and stored as typed — and escaped again, once,
 * by {@link md} wherever it is shown. `&lt;` and `&gt;` first, so `&amp;lt;` (a typed `&lt;`) stays `&lt;`.
 */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * A character that shows nothing: white space, a control character, Unicode's default-ignorable
 * code points (zero-width space, non-joiner and joiner, word joiner, direction marks, embeddings,
 * overrides and isolates, the BOM, the soft hyphen, variation selectors, fillers, tags…) and the
 * blank Braille pattern.
 */
const BLANK = String.raw`[\p{White_Space}\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]`;
const BLANKS = new RegExp(BLANK, 'gu');
/** A link labelled with blanks only (`<https://…|\u200b>`); a mention, a channel or `<!…>` shows a name. */
const BLANK_LINK = new RegExp(String.raw`<(?![@#!])[^<>|]*\|${BLANK}+>`, 'gu');
/** Bold, italic or strike around blanks that Slack reads as emphasis (`*\u200b*`; `* *` shows its stars). */
const BLANK_EMPHASIS = new RegExp(
  String.raw`([*_~])(?!\p{White_Space})(${BLANK}+?)(?<!\p{White_Space})\1`,
  'gu',
);

/**
 * Whether `text` shows nothing once Slack renders it: made only of characters that show nothing and
 * of Slack's markup around them (a link labelled with blanks, emphasis of blanks). The one rule
 * for text that comes in — form fields, command arguments, thread replies, workflow inputs,
 * messages taken as evidence or a discovery: such text is no text. Text that shows something is kept
 * as typed (a joiner inside an emoji or a name is real).
 */
export function showsNothing(text: string): boolean {
  let rest = text.replace(BLANK_LINK, '');
  for (let before = ''; before !== rest; ) {
    before = rest;
    rest = rest.replace(BLANK_EMPHASIS, '$2');
  }
  return rest.replace(BLANKS, '') === '';
}

/**
 * Tagged template for mrkdwn: the literal parts are trusted mrkdwn, interpolated values are escaped —
 * except {@link Mrkdwn} values, which are already safe (a mention, another `md`).
 * `md\`*${heading}* for ${mention(user)}\`` bolds a heading that cannot ping anyone.
 */
export function md(strings: TemplateStringsArray, ...values: unknown[]): Mrkdwn {
  let out = strings[0] ?? '';
  let literal = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const text = value instanceof Mrkdwn ? value.text : escapeMrkdwn(String(value));
    out += keepEmphasis(text, literal) + (strings[i + 1] ?? '');
    literal += strings[i + 1] ?? '';
  }
  return new Mrkdwn(out);
}

/**
 * Look-alikes for Slack's emphasis marks. Slack has no escape for `*`, `_` or `~`: in
 * `*${heading}*` a heading `a*b` ends the app's bold after `a`. Inside the app's own emphasis a
 * value's marks of that kind are shown as look-alikes, which Slack does not read.
 */
const LOOK_ALIKE: Record<string, string> = { '*': '\u2217', _: '\uFF3F', '~': '\u223C' };

/**
 * `text` as it may stand after the template's literal text `before`: within an emphasis the
 * literal opened on this line (an odd count of its mark, emoji shortcodes aside), it cannot close it.
 */
function keepEmphasis(text: string, before: string): string {
  const line = (before.split('\n').at(-1) ?? '').replace(SLACK_TOKEN, '');
  const open = Object.entries(LOOK_ALIKE).filter(([mark]) => line.split(mark).length % 2 === 0);
  if (open.length === 0) return text;
  // Slack's own tokens in an app-made value (`<!date^…^{date_short}|…>`, `:white_circle:`) stay whole.
  return text.replace(PARTS, (part) =>
    WHOLE_TOKEN.test(part) ? part : open.reduce((kept, [mark, alike]) => kept.replaceAll(mark, alike), part),
  );
}

/** A Slack token in mrkdwn: `<…>` (mention, link, date) or an emoji shortcode. */
const SLACK_TOKEN = /<[^<>]*>|:[a-z0-9_+-]+:/g;
const WHOLE_TOKEN = /^(?:<[^<>]*>|:[a-z0-9_+-]+:)$/;
/** Mrkdwn cut into Slack's tokens and what lies between them. */
const PARTS = /<[^<>]*>|:[a-z0-9_+-]+:|[^<:]+|[<:]/g;

/** User text as mrkdwn: escaped, on one line, cut to `max` characters (before escaping). */
export function inline(text: string, max: number): Mrkdwn {
  return md`${truncate(text.replace(/\s+/g, ' ').trim(), max)}`;
}

/** Slack user ids: `U…` (or `W…` in Enterprise Grid). Anything else is not a user to mention. */
export const SLACK_USER_ID = /^[UW][A-Z0-9]+$/;
const SLACK_CHANNEL_ID = /^[CGD][A-Z0-9]+$/;

/** `<@U…>`, a mention Slack renders as the person's name. @throws {RangeError} for anything but a user id. */
export function mention(slackUserId: string): Mrkdwn {
  if (!SLACK_USER_ID.test(slackUserId)) throw new RangeError('not a Slack user id');
  return new Mrkdwn(`<@${slackUserId}>`);
}

/** `<#C…>`, a channel mention. @throws {RangeError} for anything but a channel id. */
export function channelMention(slackChannelId: string): Mrkdwn {
  if (!SLACK_CHANNEL_ID.test(slackChannelId)) throw new RangeError('not a Slack channel id');
  return new Mrkdwn(`<#${slackChannelId}>`);
}

/** A link with an escaped label; only http(s) URLs, whose `|`, `<` and `>` would end the link early. */
export function link(url: string, label: string): Mrkdwn {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || !/^https?:$/.test(parsed.protocol)) throw new RangeError('not an http(s) URL');
  const safe = parsed.href.replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E');
  return new Mrkdwn(`<${safe}|${escapeMrkdwn(label.replace(/\s+/g, ' ').trim() || safe)}>`);
}

/**
 * A date Slack formats in each reader's own time zone (`<!date^…>`); `fallback` is shown where it
 * cannot (e.g. notifications). @see https://api.slack.com/reference/surfaces/formatting#date-formatting
 */
export function slackDate(at: Date, format: string, fallback: string): Mrkdwn {
  const seconds = Math.floor(at.getTime() / 1000);
  return new Mrkdwn(`<!date^${seconds}^${format.replace(/[|>]/g, '')}|${escapeMrkdwn(fallback)}>`);
}

/** Joins safe parts. */
export function joinMd(parts: readonly Mrkdwn[], separator = '\n'): Mrkdwn {
  return new Mrkdwn(parts.map((p) => p.text).join(separator));
}

/** User text as a block quote, each line escaped and quoted. */
export function quote(text: string): Mrkdwn {
  return new Mrkdwn(
    escapeMrkdwn(text)
      .split('\n')
      .map((line) => `>${line}`)
      .join('\n'),
  );
}

/** `n noun` / `n nouns`. */
export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** Cuts mrkdwn to `max` characters. A cut can only remove markup, never make any. */
export function clipMrkdwn(text: Mrkdwn, max: number): string {
  return truncate(text.text, max);
}
