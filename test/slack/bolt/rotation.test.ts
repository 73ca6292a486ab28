import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlackCall } from '../../../src/playground/fake-slack.js';
import { eventually, Harness, TEAM } from '../../helpers/slack-harness.js';

/** An hour left: inside the refresh window (bolt/rotation.ts), not yet expired. */
const HOUR_S = 3_600;

describe('token rotation', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ oauth: true });
  });
  afterEach(() => h.close());

  async function install(expiresInSeconds: number) {
    const redirect = await h.install({ team: { id: TEAM, name: 'Test' }, user: 'UADMIN', expiresInSeconds });
    expect(redirect.status).toBe(200);
    const stored = await h.store.installations.read(TEAM);
    return stored!.installation.bot!;
  }

  const refreshes = (): SlackCall[] =>
    h.slack.called('oauth.v2.access').filter((c) => c.body.grant_type === 'refresh_token');

  it('two replicas racing to serve an installation due for refresh spend its refresh token once', async () => {
    const first = await install(HOUR_S);
    expect(first.refreshToken).toMatch(/^xoxe-1-/);
    const replica = await h.replica();
    try {
      const since = h.slack.calls.length;
      // Five commands at each replica at once: every one authorizes, and finds the token due.
      const sent = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? replica : h).command('help', `U${i}`)),
      );
      expect(sent.map((r) => r.status)).toEqual(Array(10).fill(200));
      // Each of the ten was served (its reply posted at its response_url).
      await eventually(
        () =>
          h.slack.calls
            .slice(since)
            .filter((c) => c.method === 'respond' && JSON.stringify(c.body).includes('/plan connect'))
            .length === 10,
        'ten replies',
      );
      // Never a refresh token sent twice (Slack would refuse the second), and one refresh in all.
      const sentTokens = refreshes().map((c) => c.body.refresh_token);
      expect(new Set(sentTokens).size).toBe(sentTokens.length);
      expect(refreshes()).toHaveLength(1);
      expect(refreshes()[0]?.body).toMatchObject({ refresh_token: first.refreshToken, client_id: '111.222' });
      expect(h.slack.refreshTokenSpent(first.refreshToken!)).toBe(true);

      const now = (await h.store.installations.read(TEAM))!.installation.bot!;
      expect(now.token).not.toBe(first.token);
      expect(now.refreshToken).not.toBe(first.refreshToken);
      expect(h.slack.refreshTokenSpent(now.refreshToken!)).toBe(false);
      expect(now.expiresAt! * 1000).toBeGreaterThan(Date.now() + 11 * HOUR_S * 1000);

      // Fresh now: more requests refresh nothing, and use the new token.
      const later = h.slack.calls.length;
      await replica.command('whoami', 'U1');
      await h.slack.waitFor('respond', () => true, { since: later });
      expect(refreshes()).toHaveLength(1);
      const apiCalls = h.slack.calls.slice(later).filter((c) => c.method !== 'respond');
      expect(apiCalls.every((c) => c.token === now.token)).toBe(true);
      // The digest (outside requests) reads the fresh token too.
      expect(await replica.app.botToken(TEAM)).toBe(now.token);
    } finally {
      await replica.close();
    }
  });

  it('a refresh Slack refuses marks the installation for reinstall and says so, until it is reinstalled', async () => {
    await install(HOUR_S);
    h.slack.fail('oauth.v2.access', { ok: false, error: 'invalid_refresh_token' });

    let since = h.slack.calls.length;
    await h.command('help', 'U1');
    const notice = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('reinstalled'), {
      since,
    });
    expect(String(notice.body.text)).toContain('`invalid_refresh_token`');
    expect(String(notice.body.text)).toContain('/slack/install');
    expect((await h.store.installations.read(TEAM))?.lapsed?.reason).toBe('invalid_refresh_token');

    // The next person is told too, and no refresh is tried again with the refused token.
    since = h.slack.calls.length;
    await h.command('whoami', 'U2');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('reinstalled'), { since });
    expect(refreshes()).toHaveLength(1);

    // A reinstall heals it: no notice any more.
    await install(12 * HOUR_S);
    expect((await h.store.installations.read(TEAM))?.lapsed).toBeUndefined();
    since = h.slack.calls.length;
    await h.command('help', 'U3');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('/plan connect'), { since });
    await h.command('whoami', 'U3');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('not connected'), { since });
    expect(
      h.slack.calls
        .slice(since)
        .some((c) => c.method === 'respond' && JSON.stringify(c.body).includes('reinstalled')),
    ).toBe(false);
  });
});
