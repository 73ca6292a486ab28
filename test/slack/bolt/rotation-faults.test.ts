/**
 * Token rotation under a failing Slack (issue 35 item 1), two replicas of the app on one PostgreSQL
 * schema: only Slack's refusals mark an installation for reinstall; a passing failure (Slack
 * unavailable, rate limiting, an internal error, a 5xx, a reset) is tried again after a backoff
 * stored with the installation, by whichever replica comes first; the refresh runs in the
 * background — the request that finds the token due is acked without waiting for Slack's OAuth —
 * and the jobs refresh ahead of expiry without any request.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Reply, SlackCall } from '../../../src/playground/fake-slack.js';
import { REFUSALS } from '../../../src/slack/bolt/rotation.js';
import { describeWithPostgres } from '../../helpers/postgres.js';
import { eventually, type Harness, onTwoReplicas, TEAM } from '../../helpers/slack-harness.js';

/** An hour left: inside the refresh window (bolt/rotation.ts), not yet expired. */
const HOUR_S = 3_600;

const PASSING: [string, Reply][] = [
  ['ratelimited', { ok: false, error: 'ratelimited' }],
  ['internal_error', { ok: false, error: 'internal_error' }],
  ['request_timeout', { ok: false, error: 'request_timeout' }],
  ['fatal_error', { ok: false, error: 'fatal_error' }],
  ['HTTP 503', { httpStatus: 503, body: 'Service Unavailable' }],
  ['a reset connection', { reset: true }],
];

describeWithPostgres('token rotation with Slack failing, two replicas (PostgreSQL)', () => {
  let a: Harness;
  let b: Harness;
  onTwoReplicas('rotation', { oauth: true }, (r) => ({ a, b } = r));

  async function install(expiresInSeconds: number) {
    const redirect = await a.install({ team: { id: TEAM, name: 'Test' }, user: 'UADMIN', expiresInSeconds });
    expect(redirect.status).toBe(200);
    return (await a.store.installations.read(TEAM))!.installation.bot!;
  }
  const refreshes = (): SlackCall[] =>
    a.slack.called('oauth.v2.access').filter((c) => c.body.grant_type === 'refresh_token');
  const stored = async () => (await a.store.installations.read(TEAM))!;
  /** The backoff has passed (as time would pass it): the stored retry time moved to now. */
  const backoffOver = () =>
    sql`update installations set refresh_retry_at = ${Date.now() - 1} where workspace_id = ${TEAM}`.execute(
      a.store.db,
    );

  it('a passing failure is tried again after a backoff by either replica, never marks for reinstall, and no ack waits for it', async () => {
    const first = await install(HOUR_S);
    // Slack's OAuth takes its time, then answers it is unavailable: held until the command that
    // found the token due has been acked — an ack waiting for the refresh would never come.
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    a.slack.on('oauth.v2.access', async (body) => {
      if (body.grant_type !== 'refresh_token') return undefined;
      await held;
      a.slack.on('oauth.v2.access');
      return { ok: false, error: 'service_unavailable' };
    });
    const acked = await a.command('help', 'U1');
    expect(acked.status).toBe(200);
    await a.slack.waitFor('respond', (r) => JSON.stringify(r).includes('/plan connect'));
    await eventually(() => refreshes().length === 1, 'the refresh asked of Slack');
    expect(refreshes()[0]?.status).toBeUndefined(); // still unanswered
    answer();
    await eventually(async () => (await stored()).refresh?.failures === 1, 'the failure recorded');

    let now = await stored();
    expect(now.lapsed).toBeUndefined();
    expect(now.refresh!.retryAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(now.installation.bot!.token).toBe(first.token);
    // Within the backoff neither replica tries again: not the jobs, not a request.
    await b.app.refreshTokens();
    await a.app.refreshTokens();
    await b.command('whoami', 'U2');
    await b.slack.waitFor('respond', (r) => JSON.stringify(r).includes('not connected'));
    expect(refreshes()).toHaveLength(1);
    // Nobody is told to reinstall.
    expect(a.slack.called('respond').some((c) => JSON.stringify(c.body).includes('reinstalled'))).toBe(false);

    // Each passing failure, on one replica or the other once the backoff is over: counted, retried later.
    for (const [i, [what, reply]] of PASSING.entries()) {
      a.slack.fail('oauth.v2.access', reply);
      await backoffOver();
      await (i % 2 ? a : b).app.refreshTokens();
      now = await stored();
      expect(now.lapsed, what).toBeUndefined();
      expect(now.refresh?.failures, what).toBe(i + 2);
      expect(now.refresh!.retryAt.getTime(), what).toBeGreaterThan(Date.now());
      expect(refreshes(), what).toHaveLength(i + 2);
    }
    // Every attempt sent the same refresh token, which Slack never spent.
    expect(new Set(refreshes().map((c) => c.body.refresh_token))).toEqual(new Set([first.refreshToken]));
    expect(a.slack.refreshTokenSpent(first.refreshToken!)).toBe(false);

    // Slack answers again: the next attempt, by the jobs of replica b, refreshes; the backoff is cleared.
    await backoffOver();
    await b.app.refreshTokens();
    now = await stored();
    expect(now.lapsed).toBeUndefined();
    expect(now.refresh).toBeUndefined();
    expect(now.installation.bot!.token).not.toBe(first.token);
    expect(now.installation.bot!.expiresAt! * 1000).toBeGreaterThan(Date.now() + 11 * HOUR_S * 1000);
    expect(a.slack.refreshTokenSpent(first.refreshToken!)).toBe(true);
    // Fresh: served by both replicas, refreshed no more.
    expect(await a.app.botToken(TEAM)).toBe(now.installation.bot!.token);
    await a.app.refreshTokens();
    expect(refreshes()).toHaveLength(PASSING.length + 2);
  }, 60_000);

  it('only a refusal marks the installation for reinstall, whichever replica meets it', async () => {
    for (const [i, reason] of ['invalid_client_id', 'bad_client_secret', 'token_revoked'].entries()) {
      expect(REFUSALS.has(reason)).toBe(true);
      await install(HOUR_S);
      a.slack.fail('oauth.v2.access', { ok: false, error: reason });
      await (i % 2 ? a : b).app.refreshTokens();
      const now = await stored();
      expect(now.lapsed?.reason).toBe(reason);
      expect(now.refresh).toBeUndefined();
    }
  }, 60_000);
});
