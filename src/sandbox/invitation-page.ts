/**
 * The page an invitation's link opens in a browser. The link is the contract's own invitation
 * address (`GET /v1/invitations/{inviteId}`, which needs no credentials); a browser asks for HTML
 * first (`Accept: text/html…`) and gets this page, every API client (the planning client sends
 * `Accept: application/json`) gets the contract's JSON, unchanged.
 *
 * The page says who invites to what and until when; accepting is the contract's accept
 * (`PUT` on the same address) with the invitee's own service-account token, pasted on the page and
 * sent only there. An invitation revoked, expired or used up says so instead of offering to accept.
 * Showing the page counts a view, as reading the invitation does.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Store } from './store.js';

const INVITATION_PATH = /^\/invitations\/([^/]+)$/;

/** The invitation a browser's GET asks the page of (undefined: the JSON API answers). */
export function invitationPageFor(
  method: string,
  apiPath: string | undefined,
  headers: IncomingHttpHeaders,
): string | undefined {
  if (method !== 'GET' || apiPath === undefined || headers.authorization !== undefined) return undefined;
  const id = INVITATION_PATH.exec(apiPath)?.[1];
  if (!id) return undefined;
  // The first type a client names is the one it prefers: browsers name text/html first.
  const first = (headers.accept ?? '').split(',')[0]?.split(';')[0]?.trim().toLowerCase();
  if (first !== 'text/html') return undefined;
  try {
    return decodeURIComponent(id);
  } catch {
    return undefined;
  }
}

export interface InvitationPage {
  status: number;
  html: string;
  headers: Record<string, string>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The page of one invitation, in the state it is in now. */
export function invitationPage(store: Store, inviteId: string): InvitationPage {
  const now = store.now();
  const inv = store.state.invitations[inviteId];
  if (!inv) {
    return store.state.revokedInvitations[inviteId] !== undefined
      ? page(
          410,
          'Invitation revoked',
          `<p>This invitation was revoked: its link no longer works.</p>
<p>Ask whoever invited you for a new one.</p>`,
        )
      : page(404, 'No such invitation', '<p>There is no invitation at this address.</p>');
  }
  inv.inviteViews += 1;
  const org = escapeHtml(store.org(inv.orgId).orgName);
  const team = store.state.teams[inv.teamId]?.teamName;
  const expires = new Date(inv.expiresAt).toUTCString();
  if (inv.expiresAt <= now) {
    return page(
      410,
      'Invitation expired',
      `<p>This invitation to join <strong>${org}</strong> expired on ${expires}.</p>
<p>Ask whoever invited you for a new one.</p>`,
    );
  }
  if (inv.inviteUsesMax > 0 && inv.inviteUses >= inv.inviteUsesMax) {
    return page(
      410,
      'Invitation used up',
      `<p>This invitation to join <strong>${org}</strong> has been used as many times as it allows.</p>
<p>Ask whoever invited you for a new one.</p>`,
    );
  }
  const nonce = randomBytes(16).toString('base64');
  const body = `<p>You are invited to join <strong>${org}</strong>${team ? ` in the team <strong>${escapeHtml(team)}</strong>` : ''} as <strong>${escapeHtml(inv.inviteOrgRole)}</strong>.</p>
<p>The invitation expires on ${expires}.</p>
<form id="accept">
  <label>Your service-account token <input id="token" name="token" type="password" autocomplete="off" required></label>
  <button type="submit">Accept invitation</button>
</form>
<p id="outcome" role="status"></p>
<script nonce="${nonce}">
const form = document.getElementById('accept');
const outcome = document.getElementById('outcome');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  outcome.textContent = 'Accepting…';
  try {
    const res = await fetch(location.pathname, {
      method: 'PUT',
      headers: { authorization: 'Bearer ' + document.getElementById('token').value.trim(), accept: 'application/json' },
    });
    const answer = await res.json().catch(() => ({}));
    if (res.ok) {
      form.remove();
      outcome.textContent = 'You joined ' + (answer.inviteOrgName || 'the organization') + '.';
    } else outcome.textContent = 'Not accepted: ' + (answer.message || 'the service answered ' + res.status) + '.';
  } catch {
    outcome.textContent = 'Not accepted: the service could not be reached.';
  }
});
</script>`;
  return page(200, 'Invitation', body, nonce);
}

function page(status: number, title: string, body: string, nonce?: string): InvitationPage {
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // Only this page's own script runs, and it talks only to this service.
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; base-uri 'none'${nonce ? `; script-src 'nonce-${nonce}'` : ''}`,
      vary: 'Accept',
    },
    html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — Team Planning</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:1rem 0}input{display:block;width:100%;padding:.4rem;margin-top:.25rem}button{padding:.5rem 1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`,
  };
}
