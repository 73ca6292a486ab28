/**
 * Posting within Slack's limits (issue 26 item 4): the process's one posting limiter
 * (src/limits.ts, applied in src/clients.ts's slackFetch to every chat.postMessage and chat.update,
 * whichever client sends it) against the fake Slack enforcing both of Slack's limits — about one
 * message per second per channel and a rate per workspace — with 429 and Retry-After.
 */
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Clients, createClients, SLACK_CLIENT_OPTIONS } from '../../src/clients.js';
import type { PostLimits } from '../../src/limits.js';
import { type Bench, BOT_TOKEN, link, openBench, PLANNING_URL } from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';
import { eventually } from '../helpers/slack-harness.js';

describe('posting within Slack limits', () => {
  let bench: Bench;

  beforeEach(async () => {
    bench = await openBench('sqlite');
    bench.features = [feature({ id: 'f1', heading: 'Login' })];
    bench.clock.set('2026-03-10T08:00:00Z'); // 09:00 in Berlin, a Tuesday: every link is due
  });
  afterEach(async () => {
    await bench.close();
  });

  /** Clients like the app's, with its posting limiter, on the bench's planning service and fake Slack. */
  const limited = (postLimits: PostLimits): Clients =>
    createClients({
      planningUrl: `${PLANNING_URL}/v1`,
      slackApiUrl: bench.slack.apiUrl,
      logger: bench.deps().logger,
      planningOptions: { dispatcher: bench.agent, retries: 0 },
      postLimits,
    });

  it("a 300-channel workspace's morning: every digest posted once, with at most a handful of 429s", async () => {
    const channels = Array.from({ length: 300 }, (_, i) => `C${String(i).padStart(3, '0')}`);
    for (const channel of channels) await link(bench, channel);
    // Slack refuses past 20 messages in any second of the workspace; the app spaces 16 a second. The
    // rate is below what even a busy machine posts without a limiter (that run gets 429s by the
    // dozen and gives digests up), so the limiter is what keeps the morning within it.
    bench.slack.enforcePostLimits({ workspacePerSecond: 20 });
    const clients = limited({ perWorkspacePerMinute: 16 * 60, channelIntervalMs: 1_000 });
    // Far more digests at once than the posting rate allows: only the limiter keeps within it.
    const report = await bench.scheduler({ slack: clients.slackBots, perWorkspace: 100 }).tick();

    expect(report).toMatchObject({ due: 300, posted: 300, failed: 0 });
    const perChannel = new Map<string, number>();
    for (const post of bench.posted) perChannel.set(post.channel, (perChannel.get(post.channel) ?? 0) + 1);
    expect([...perChannel.keys()].sort()).toEqual(channels);
    expect([...perChannel.values()].every((n) => n === 1)).toBe(true);
    expect(bench.slack.rateLimited).toBeLessThanOrEqual(5);
  }, 60_000);

  it('without the limiter the same fake Slack refuses: the enforcement is real', async () => {
    bench.slack.enforcePostLimits({ workspacePerSecond: 5 });
    const clients = createClients({
      planningUrl: `${PLANNING_URL}/v1`,
      slackApiUrl: bench.slack.apiUrl,
      logger: bench.deps().logger,
      // The 429s answered as they came, not waited out: what the limiter saves the app from.
      slackSender: { rateLimitWaits: 0 },
    });
    const sent = Array.from({ length: 10 }, (_, i) =>
      clients.slack(BOT_TOKEN).chat.postMessage({ channel: `C${i}`, text: 'hello' }),
    );
    for (let i = 0; i < 10; i += 1) bench.slack.workspace.addChannel({ id: `C${i}` });
    const outcomes = await Promise.allSettled(sent);
    const refused = outcomes.filter(
      (o) => o.status === 'rejected' && o.reason instanceof webApi.WebAPIRateLimitedError,
    );
    expect(refused.length).toBe(5);
    expect(bench.slack.rateLimited).toBe(5);
  });

  it('messages in one channel are spaced a second apart, whichever client posts them', async () => {
    bench.slack.workspace.addChannel({ id: 'C1', members: [bench.slack.workspace.bot.userId] });
    // A little more lenient than the app's spacing: arrival on loopback jitters by a few ms.
    bench.slack.enforcePostLimits({ workspacePerSecond: 100, channelIntervalMs: 900 });
    const clients = limited({ perWorkspacePerMinute: 6_000, channelIntervalMs: 1_000 });
    // Bolt's clients (what cards and notifications post with) and the digest's, sharing the limiter.
    const bolt = new webApi.WebClient(BOT_TOKEN, {
      slackApiUrl: bench.slack.apiUrl,
      ...SLACK_CLIENT_OPTIONS,
      fetch: clients.slackFetch,
    });
    const first = await clients.slack(BOT_TOKEN).chat.postMessage({ channel: 'C1', text: 'card' });
    const [a, b] = await Promise.all([
      bolt.chat.update({ channel: 'C1', ts: first.ts ?? '', text: 'card, updated' }),
      clients.slack(BOT_TOKEN).chat.postMessage({ channel: 'C1', text: 'a notice' }),
    ]);
    expect([a.ok, b.ok]).toEqual([true, true]);
    expect(bench.slack.rateLimited).toBe(0);
    const arrivals = bench.slack.calls
      .filter((c) => c.method === 'chat.postMessage' || c.method === 'chat.update')
      .map((c) => c.at);
    expect(arrivals).toHaveLength(3);
    expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(900);
    expect((arrivals[2] ?? 0) - (arrivals[1] ?? 0)).toBeGreaterThanOrEqual(900);
  }, 30_000);

  it('a 429 slows the workspace to Retry-After and the message is posted once it has passed', async () => {
    for (const id of ['C1', 'C2']) bench.slack.workspace.addChannel({ id });
    const clients = limited({ perWorkspacePerMinute: 6_000, channelIntervalMs: 1_000 });
    const bolt = new webApi.WebClient(BOT_TOKEN, {
      slackApiUrl: bench.slack.apiUrl,
      ...SLACK_CLIENT_OPTIONS,
      fetch: clients.slackFetch,
    });
    bench.slack.rateLimit('chat.postMessage', 1, 1);
    const refusedAt = bench.slack.waitFor('chat.postMessage', () => true, { refused: true });
    const one = bolt.chat.postMessage({ channel: 'C1', text: 'one' });
    const limitedAt = (await refusedAt).at;
    // Logged by the Slack sender once the 429 reached it, after the limiter saw it.
    await eventually(() => bench.logLines.join('').includes('Slack rate limit'), 'the 429 to be waited out');
    // Another channel of the same workspace waits out the same Retry-After.
    const two = await clients.slack(BOT_TOKEN).chat.postMessage({ channel: 'C2', text: 'two' });
    expect((await one).ok).toBe(true);
    expect(two.ok).toBe(true);
    const accepted = bench.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.status === 200);
    expect(accepted.map((c) => c.body.channel).sort()).toEqual(['C1', 'C2']);
    for (const call of accepted) expect(call.at - limitedAt).toBeGreaterThanOrEqual(900);
  }, 30_000);

  it("one client for every workspace's bot: each digest carries its workspace's token, and each workspace has its own turns", async () => {
    const SECOND_TOKEN = 'xoxb-digest-test-second-workspace';
    bench.slack.acceptToken(SECOND_TOKEN);
    for (const channel of ['C1', 'C2']) await link(bench, channel);
    await link(bench, 'C3', { workspaceId: 'T2' });
    // One message every 10 s per workspace, a lease of 8 s: one digest per workspace is in time —
    // T2's only if its turns are its own, not T1's.
    const clients = limited({ perWorkspacePerMinute: 6, channelIntervalMs: 1_000 });
    const report = await bench
      .scheduler({
        slack: clients.slackBots,
        botTokenFor: async (workspaceId) => (workspaceId === 'T2' ? SECOND_TOKEN : BOT_TOKEN),
        leaseMs: 8_000,
        perWorkspace: 3,
      })
      .tick();

    expect(report).toMatchObject({ due: 3, posted: 2, failed: 1 });
    const tokens = new Map(bench.posted.map((post) => [post.channel, post.token]));
    expect(tokens.get('C3')).toBe(SECOND_TOKEN);
    expect([...tokens].filter(([channel]) => channel !== 'C3').map(([, token]) => token)).toEqual([
      BOT_TOKEN,
    ]);
  }, 30_000);

  it("a posting turn past the digest's lease gives the claim back: nothing is posted late", async () => {
    for (const channel of ['C1', 'C2', 'C3']) await link(bench, channel);
    // One message every 10 s per workspace, a lease of 8 s: only the first digest's turn is in time.
    const clients = limited({ perWorkspacePerMinute: 6, channelIntervalMs: 1_000 });
    const report = await bench
      .scheduler({ slack: clients.slackBots, leaseMs: 8_000, perWorkspace: 3 })
      .tick();

    expect(report).toMatchObject({ due: 3, posted: 1, failed: 2 });
    expect(bench.posted).toHaveLength(1);
    expect(bench.slack.called('chat.postMessage')).toHaveLength(1);
    const rows = await bench.store.db
      .selectFrom('digest_claims')
      .select(['slack_channel_id', 'status', 'error'])
      .orderBy('slack_channel_id')
      .execute();
    expect(rows.filter((r) => r.status === 'posted')).toHaveLength(1);
    const givenBack = rows.filter((r) => r.status === 'failed');
    expect(givenBack).toHaveLength(2);
    for (const row of givenBack) expect(row.error).toContain('claim given back');
  }, 30_000);
});
