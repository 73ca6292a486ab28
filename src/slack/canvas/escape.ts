/**
 * User text (a feature's or task's heading, a person's planning name) made inert for Slack's canvas
 * markdown: it shows as typed and can never become a mention (`<@U…>`, `![](@U…)`), a channel
 * reference, a link (`[x](url)`, `<url>`, a bare `https://…` or `www.…`), a heading, a list item, a
 * quote, a checkbox or emphasis. Canvas markdown is CommonMark with Slack's additions, so every ASCII
 * punctuation character that means something there is escaped with a backslash (CommonMark shows the
 * character itself); line breaks become spaces, so text never starts a line of its own; and a bare
 * address is broken with a zero-width space after its scheme or `www`, because an autolink is found
 * in the text after escapes are undone.
 */

/** Every character CommonMark or Slack's canvas markdown gives a meaning to. */
const MEANINGFUL = /[\\`*_{}[\]()#+\-.!|<>~&@]/g;
/** Where Slack (as GitHub) would find a bare link in plain text. */
const BARE_LINK = /\b(https?|ftp|mailto|slack)(:)|\b(w)(ww\\\.)/gi;

/** `text` as canvas markdown that shows exactly it, inert. */
export function canvasText(text: string): string {
  // Line breaks and tabs become spaces; other control characters go.
  const oneLine = text.replace(/[\r\n\u2028\u2029\t]+/g, ' ').replace(/\p{Cc}/gu, '');
  return oneLine
    .replace(MEANINGFUL, (c) => `\\${c}`)
    .replace(BARE_LINK, (_m, scheme: string, colon: string, w: string, rest: string) =>
      scheme ? `${scheme}\u200b${colon}` : `${w}\u200b${rest}`,
    );
}

/** A link in canvas markdown: its label escaped, its URL kept only when it is http(s). */
export function canvasLink(label: string, url: string): string {
  if (!/^https?:\/\//i.test(url)) return canvasText(label);
  // Parentheses and spaces in a URL would end the link early: percent-encoded, the URL is the same.
  const safe = url.replace(
    /[()\s<>]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `[${canvasText(label)}](${safe})`;
}

/** A Slack user mentioned in a canvas: only a well-formed user id is ever mentioned. */
export function canvasMention(slackUserId: string): string | undefined {
  return /^[UW][A-Z0-9]{2,}$/.test(slackUserId) ? `![](@${slackUserId})` : undefined;
}
