/**
 * The install landing page, `/slack/install` (OAuth mode): what an admin reads before adding the app
 * — every scope and why, what the app keeps and for how long, how to delete a workspace's data —
 * and the *Add to Slack* link (Slack Marketplace review asks for exactly this). Bolt renders it with
 * the authorize URL it made (its state cookie set beside it). The README's "Slack Marketplace"
 * section says the same: change both together.
 */
import type { WebLinkTemplates } from '../../planning/web-links.js';
import { botScopeReasons } from './manifest.js';

/** Text made safe for HTML (attribute values included). */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Prose: escaped, with `code` spans. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** What the app keeps, and for how long: one line each. */
export const STORED = [
  'The Slack installation: bot token (and, with token rotation, its refresh token and expiry) — until the app is uninstalled.',
  'For each person who connects: which service account they act with and its token — until they disconnect, leave the workspace, or the app is uninstalled. After a disconnect, which account they left (no token), so that they can get it back — until they connect again, leave the workspace, or the app is uninstalled.',
  'Linked channels, their digest settings, their last digest posted on demand and the id of their canvas of the plan; a workspace’s organization admin token, if an admin saved one — until unlinked or uninstalled.',
  'Posted cards (to update them in place) — 180 days; which thread reply became which discovery, and its author, where a channel records replies (to follow edits and deletions) — 180 days; digest records — 30 days (each channel’s latest is kept to tell what is new).',
  'Notification preferences, DMs held back by quiet hours, where each task was created from Slack, experiment participants — until uninstalled.',
  'Every token is encrypted at rest (AES-256-GCM) and bound to its row. No Slack message is kept, except the app’s own DMs held back by quiet hours, until they are sent.',
] as const;

/** How a workspace's data is deleted. */
export const DELETION = [
  'Uninstall the app (workspace settings → Manage apps → Remove; an org-wide install, from the organization’s admin dashboard): everything listed above for that workspace — for an org-wide install, for every workspace of the organization — is deleted at once, and the service accounts the app created are closed.',
  'One person: `/plan disconnect` deletes their connection and token (the account stays open for them to come back to; `/plan disconnect --close` also closes it); a person deactivated in Slack is forgotten, and the account the app created for them closed.',
] as const;

/** The page for the authorize URL; `links`: the deployment's web app links (their scopes listed too). */
export function renderInstallPage(authorizeUrl: string, links?: WebLinkTemplates): string {
  const scopes = Object.entries(botScopeReasons(links))
    .map(([scope, why]) => `<li><code>${scope}</code> — ${prose(why)}</li>`)
    .join('\n      ');
  const list = (items: readonly string[]) => items.map((item) => `<li>${prose(item)}</li>`).join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Install Team Planning for Slack</title>
    <style>body { font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5 }</style>
  </head>
  <body>
    <h1>Team Planning for Slack</h1>
    <p>Turn messages into tasks, give feedback, grade notions, move features through their stages and read a daily digest, with the Team Planning Service — from Slack.</p>
    <p><a id="add-to-slack" href="${escapeHtml(authorizeUrl)}"><strong>Add to Slack</strong></a></p>
    <p>In an Enterprise Grid organization, an org admin may install it for the whole organization; Slack then asks which workspaces get it.</p>
    <h2>What it asks Slack for, and why</h2>
    <ul>
      ${scopes}
    </ul>
    <h2>What it keeps, and for how long</h2>
    <ul>
      ${list(STORED)}
    </ul>
    <h2>Deleting a workspace’s data</h2>
    <ul>
      ${list(DELETION)}
    </ul>
  </body>
</html>
`;
}
