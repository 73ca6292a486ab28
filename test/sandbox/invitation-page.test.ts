/**
 * The page an invitation's link opens (issue 36 item 10): the link is the contract's invitation
 * address; a browser (asking for HTML first) gets a page to accept it, or one that says it was
 * revoked, expired or used up; API clients keep getting the contract's JSON. Accepting on the page
 * is the contract's accept with the invitee's own token — driven in headless Chromium through the
 * page only, and checked in the sandbox's state.
 */
import type { Browser } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithBrowser, launchBrowser } from '../helpers/browser.js';
import { clientFor, FakeClock, raw, roles, useSandbox } from '../helpers/sandbox.js';

const clock = new FakeClock();
const ctx = useSandbox({ clock: clock.now });
const { owner } = roles(ctx);

/** What a browser sends when a person opens a link (Chromium's navigation Accept header). */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

async function invitation(extra: { inviteExpireDays?: number; inviteUsesMax?: number } = {}) {
  const team = await owner().teams.create({ teamName: `Page ${Math.random().toString(36).slice(2, 7)}` });
  const inv = await owner().invitations.create({ teamId: team.id, inviteName: 'Contractors', ...extra });
  return { team, inv, url: `${ctx.sandbox.url}/invitations/${inv.id}` };
}

/** The link opened as a browser opens it. */
async function open(url: string) {
  const res = await request(url, { headers: { accept: BROWSER_ACCEPT }, headersTimeout: 5_000 });
  return { status: res.statusCode, headers: res.headers, html: await res.body.text() };
}

async function outsider() {
  const org = await ctx.sandbox.createOrganization(`Outside ${Math.random().toString(36).slice(2, 7)}`);
  return { org, client: clientFor(ctx.sandbox, org.memberToken) };
}

describe('invitation page', () => {
  it('a browser gets a page naming the organization, team, role and expiry, with a form to accept; a view is counted', async () => {
    const { team, inv, url } = await invitation();
    const page = await open(url);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.html).toContain('You are invited to join <strong>Sandbox Organization</strong>');
    expect(page.html).toContain(`in the team <strong>${team.teamName}</strong> as <strong>member</strong>`);
    expect(page.html).toContain('Accept invitation');
    expect(page.html).toContain(new Date(inv.expiresAt as string).toUTCString());
    expect((await owner().invitations.list()).invitations.find((i) => i.id === inv.id)?.inviteViews).toBe(1);
  });

  it('API clients still get the contract’s JSON at the same address', async () => {
    const { inv } = await invitation();
    const json = await raw(ctx.sandbox, 'GET', `/invitations/${inv.id}`, {
      headers: { accept: 'application/json' },
    });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ id: inv.id, inviteName: 'Contractors' });
    // No Accept at all, or HTML only as a later choice: JSON too.
    expect((await raw(ctx.sandbox, 'GET', `/invitations/${inv.id}`)).body).toMatchObject({ id: inv.id });
    const later = await raw(ctx.sandbox, 'GET', `/invitations/${inv.id}`, {
      headers: { accept: 'application/json, text/html;q=0.5' },
    });
    expect(later.body).toMatchObject({ id: inv.id });
    // With credentials it is an API call whatever it accepts.
    const authorized = await request(`${ctx.sandbox.url}/invitations/${inv.id}`, {
      headers: { accept: BROWSER_ACCEPT, authorization: `Bearer ${ctx.sandbox.ownerToken}` },
    });
    expect(authorized.headers['content-type']).toMatch(/^application\/json/);
    await authorized.body.dump();
  });

  it('a revoked invitation’s page says it was revoked, and offers nothing to accept', async () => {
    const { inv, url } = await invitation();
    await owner().invitations.delete(inv.id);
    const page = await open(url);
    expect(page.status).toBe(410);
    expect(page.html).toContain('This invitation was revoked');
    expect(page.html).not.toContain('Accept invitation');
    // The API still answers as the contract says after a delete.
    const json = await raw(ctx.sandbox, 'GET', `/invitations/${inv.id}`);
    expect(json.status).toBe(404);
  });

  it('an expired invitation’s page says so; a used-up one too', async () => {
    const { url } = await invitation({ inviteExpireDays: 1 });
    const { inv: once, url: onceUrl } = await invitation({ inviteUsesMax: 1 });
    await (await outsider()).client.invitations.accept(once.id);
    const usedUp = await open(onceUrl);
    expect(usedUp.status).toBe(410);
    expect(usedUp.html).toContain('has been used as many times as it allows');
    expect(usedUp.html).not.toContain('Accept invitation');
    clock.advanceHours(25);
    const expired = await open(url);
    expect(expired.status).toBe(410);
    expect(expired.html).toContain('expired on');
    expect(expired.html).not.toContain('Accept invitation');
  });

  it('an unknown invitation is a 404 page; text in the invitation is escaped', async () => {
    const unknown = await open(`${ctx.sandbox.url}/invitations/ffffffffffffffffffffffff`);
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('There is no invitation at this address');
    const team = await owner().teams.create({ teamName: '<img src=x onerror=alert(1)>' });
    const inv = await owner().invitations.create({ teamId: team.id, inviteName: 'Escaped' });
    const page = await open(`${ctx.sandbox.url}/invitations/${inv.id}`);
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });
});

describeWithBrowser('invitation page in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('accepting on the page with one’s own token joins the organization and the team; a wrong token is told', async () => {
    const { team, inv, url } = await invitation({ inviteExpireDays: 30 });
    const { org } = await outsider();
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(url);
    await page.getByRole('heading', { name: 'Invitation' }).waitFor();
    await page.getByLabel('Your service-account token').fill('not-a-token');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'Not accepted' }).waitFor();
    await page.getByLabel('Your service-account token').fill(org.memberToken);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'You joined Sandbox Organization.' }).waitFor();
    // The sandbox's state: the outsider's account is a member of the inviting organization and its team.
    const state = ctx.sandbox.state();
    const account = state.accounts[org.memberId];
    expect(account?.roles[ctx.sandbox.orgId]).toBe('member');
    expect(state.teams[team.id]?.channels.find((c) => c.isDefault)?.userIds).toContain(org.memberId);
    expect(state.invitations[inv.id]?.inviteUses).toBe(1);
    await page.close();
  }, 60_000);
});
