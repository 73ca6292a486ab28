/**
 * A canvas as the playground's channel tab shows it: Slack's canvas markdown (what the app writes
 * with `conversations.canvases.create` and `canvases.edit`) as HTML — headings, lists, checklists,
 * mentions of people (`![](@U…)`) and channels (`![](#C…)`), links, bold and italics, backslash
 * escapes shown as the character. Everything else is text, escaped.
 */
import type { Workspace } from './workspace.js';

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML[c] ?? c);

/** Escaped characters are set aside first, so no markup rule sees them; put back last, as text. */
const SET_ASIDE = '\u0000';

/** One line's inline markup as HTML. */
function inline(line: string, ws: Workspace): string {
  const escaped: string[] = [];
  let text = line.replace(/\\(.)/g, (_m, c: string) => {
    escaped.push(c);
    return `${SET_ASIDE}${escaped.length - 1}${SET_ASIDE}`;
  });
  text = escapeHtml(text);
  text = text
    .replace(/!\[\]\(@([UW][A-Z0-9]+)\)/g, (_m, id: string) => {
      const user = ws.users.get(id);
      return `<span class="mention">@${escapeHtml(user?.displayName ?? user?.realName ?? id)}</span>`;
    })
    .replace(/!\[\]\(#(C[A-Z0-9]+)\)/g, (_m, id: string) => {
      return `<span class="mention">#${escapeHtml(ws.channels.get(id)?.name ?? id)}</span>`;
    })
    .replace(/\[([^\]]*)\]\((https?:\/\/[^)\s]+)\)/g, (_m, label: string, url: string) => {
      return `<a href="${url}" target="_blank" rel="noopener">${label}</a>`;
    })
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<strong>$1</strong>')
    .replace(/(^|\s)_([^_]+)_(?=\s|$|[.,;:])/g, '$1<em>$2</em>');
  return text.replace(new RegExp(`${SET_ASIDE}(\\d+)${SET_ASIDE}`, 'g'), (_m, i: string) =>
    escapeHtml(escaped[Number(i)] ?? ''),
  );
}

/** A canvas's markdown as HTML. */
export function canvasToHtml(markdown: string, ws: Workspace): string {
  const out: string[] = [];
  let list = false;
  const closeList = () => {
    if (list) out.push('</ul>');
    list = false;
  };
  for (const line of markdown.split('\n')) {
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    const check = /^- \[( |x)\] (.*)$/.exec(line);
    const item = /^- (.*)$/.exec(line);
    if (heading) {
      closeList();
      const level = heading[1]!.length;
      out.push(`<h${level}>${inline(heading[2]!, ws)}</h${level}>`);
    } else if (check || item) {
      if (!list) out.push('<ul>');
      list = true;
      out.push(
        check
          ? `<li class="check"><input type="checkbox" disabled${check[1] === 'x' ? ' checked' : ''}> ${inline(check[2]!, ws)}</li>`
          : `<li>${inline(item![1]!, ws)}</li>`,
      );
    } else if (line.trim() === '') closeList();
    else {
      closeList();
      out.push(`<p>${inline(line, ws)}</p>`);
    }
  }
  closeList();
  return out.join('\n');
}
