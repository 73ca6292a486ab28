/**
 * The digest under overload (issue 26): a post that timed out on our side but still reached Slack
 * is found in the channel history by a retry that waits for it, never posted twice; passing failures
 * (a 5xx, a 429-like Slack answer, a post whose outcome is unknown) do not use up the day's
 * attempts; a lasting error (channel_not_found) still gives the day up. On SQLite and PostgreSQL:
 * the store's claim rows are checked after each flow.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClients } from '../../src/clients.js';
import { type Backend, type Bench, link, openBench, PLANNING_URL } from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';
import { describeWithPostgres } from '../helpers/postgres.js';
import { eventually } from '../helpers/slack-harness.js';

const MINUTE = 60_000;

function overloadSuite(backend: Backend) {
  let bench: Bench;
  beforeEach(async () => {
    bench = await openBench(backend);
    bench.features = [feature({ id: 'f1', heading: 'Login', canAdvance: true })];
    await link(bench, 'C1', { digestTime: '09:00', timeZone: 'Europe/Berlin' });
    bench.clock.set('2026-03-10T08:00:00Z');
  });
  afterEach(() => bench.close());

  /** The claim row of C1's digest for the day. */
  async function row() {
    return bench.store.db
      .selectFrom('digest_claims')
      .select(['status', 'attempt', 'transient_failures', 'error'])
      .where('slack_channel_id', '=', 'C1')
      .executeTakeFirstOrThrow();
  }

  /**
   * Slack's next chat.postMessage is held until `land()`: the app's request (bounded to 2 s here)
   * times out first, and the message is posted once released — as a saturated Slack answers late.
   */
  function holdNextPost() {
    const own = bench.slack.responder('chat.postMessage');
    let land!: () => void;
    const landed = new Promise<void>((resolve) => {
      land = resolve;
    });
    let held = false;
    bench.slack.on('chat.postMessage', async (body, context) => {
      if (!held) {
        held = true;
        await landed;
      }
      return own(body, context);
    });
    return {
      land,
      received: () => held,
    };
  }

  /**
   * A scheduler whose Slack requests give up after 2 s (the app's default is 15 s): long enough that
   * the fake's other answers arrive in time on a busy machine, short enough for the held post.
   */
  function impatientScheduler(overrides: Parameters<Bench['scheduler']>[0] = {}) {
    const clients = createClients({
      planningUrl: `${PLANNING_URL}/v1`,
      slackApiUrl: bench.slack.apiUrl,
      logger: bench.deps().logger,
      planningOptions: { dispatcher: bench.agent, retries: 0 },
      slackTimeoutMs: 2_000,
      slackSender: { now: () => bench.clock.now },
    });
    return bench.scheduler({ slack: clients.slackBots, retryBaseMs: MINUTE, ...overrides });
  }

  it.each([
    ['answered 500', { httpStatus: 500, body: { ok: false, error: 'internal_error' } }],
    ['its connection reset', { reset: true as const }],
  ])(
    'a post Slack accepted, then %s: found in the channel at once, recorded as posted, never posted twice',
    async (_, failure) => {
      bench.slack.workspace.addChannel({ id: 'C1', members: [bench.slack.workspace.bot.userId] });
      bench.slack.failAfter('chat.postMessage', failure);
      expect(await bench.scheduler().tick()).toMatchObject({ posted: 1, failed: 0 });
      expect(bench.slack.called('chat.postMessage')).toHaveLength(1);
      expect(bench.slack.workspace.inChannel('C1').filter((m) => m.metadata)).toHaveLength(1);
      expect(await row()).toMatchObject({ status: 'posted', attempt: 1 });
      bench.clock.advance(30 * MINUTE);
      expect(await bench.scheduler().tick()).toMatchObject({ posted: 0 });
      expect(bench.slack.called('chat.postMessage')).toHaveLength(1);
    },
  );

  it('a post that times out here but lands in Slack later: retried only after it could land, found in the history, recorded, never posted twice', async () => {
    const post = holdNextPost();
    const scheduler = impatientScheduler({ latePostMs: 10 * MINUTE });
    expect(await scheduler.tick()).toMatchObject({ failed: 1, posted: 0 });
    expect(post.received()).toBe(true);
    expect(bench.posted).toHaveLength(0);
    expect(await row()).toMatchObject({ status: 'failed', attempt: 1, transient_failures: 1 });
    expect((await row()).error).toContain('post outcome unknown');
    // The Slack sender looked for it at once (src/slack-api/): not there yet, so not confirmed.
    expect(bench.historyCalls).toBe(1);

    // Slack gets to it after our side gave up.
    post.land();
    await eventually(() => bench.posted.length === 1, 'the late post to land');

    // The backoff alone (1 minute) would retry now; a post that may still land holds it longer.
    bench.clock.advance(5 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ notClaimed: 1, posted: 0 });
    expect(bench.historyCalls).toBe(1);

    bench.clock.advance(6 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ recovered: 1, posted: 0, failed: 0 });
    expect(bench.historyCalls).toBe(2);
    expect(bench.posted).toHaveLength(1);
    expect(await row()).toMatchObject({ status: 'posted', attempt: 2 });
    const last = await bench.store.digests.lastPosted('T1', 'C1');
    expect(last?.localDate).toBe('2026-03-10');
    // Done for the day: later passes post nothing.
    bench.clock.advance(MINUTE);
    expect(await impatientScheduler().tick()).toMatchObject({ posted: 0, recovered: 0 });
    expect(bench.posted).toHaveLength(1);
  });

  it('the retry after an unknown outcome cannot read the history: the attempt fails, nothing is posted blind', async () => {
    const post = holdNextPost();
    const scheduler = impatientScheduler({ latePostMs: 2 * MINUTE });
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    post.land();
    await eventually(() => bench.posted.length === 1, 'the late post to land');

    // Slack's history read answers 500 (each time the sender tries it again): the attempt fails
    // (passing) rather than post without looking.
    bench.slack.fail('conversations.history', { httpStatus: 500, body: 'busy' }, 4);
    bench.clock.advance(3 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ failed: 1, posted: 0, recovered: 0 });
    expect(bench.posted).toHaveLength(1);
    expect(await row()).toMatchObject({ status: 'failed', attempt: 2, transient_failures: 2 });

    bench.clock.advance(10 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ recovered: 1, posted: 0 });
    expect(bench.posted).toHaveLength(1);
  });

  it('passing failures well beyond maxAttempts: retried with backoff, and the digest is posted once', async () => {
    const scheduler = impatientScheduler({ maxAttempts: 2 });
    // Attempts 1 and 2: the service answers 503.
    bench.planningStatus = 503;
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    bench.clock.advance(30 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    bench.planningStatus = 200;
    // Attempt 3: Slack answers internal_error (Slack's own "try again").
    bench.slack.fail('chat.postMessage', { ok: false, error: 'internal_error' });
    bench.clock.advance(30 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    // Attempt 4: Slack answers the post with a 503 (it may have posted: the retry looks first).
    bench.slack.fail('chat.postMessage', { httpStatus: 503, body: 'unavailable' });
    bench.clock.advance(30 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    expect(await row()).toMatchObject({ status: 'failed', attempt: 4, transient_failures: 4 });
    expect(bench.posted).toHaveLength(0);
    expect(bench.logLines.join('')).not.toContain('skipping the day');

    bench.clock.advance(30 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ posted: 1, failed: 0 });
    expect(bench.posted).toHaveLength(1);
    expect(await row()).toMatchObject({ status: 'posted', attempt: 5, transient_failures: 4 });
  });

  it('a passing failure whose retry would fall after the catch-up window is the last of the day, and said so', async () => {
    const scheduler = impatientScheduler({ catchUpMs: 10 * MINUTE, retryBaseMs: 20 * MINUTE });
    bench.planningStatus = 503;
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    expect(bench.logLines.find((l) => l.includes('failed for the last time today'))).toContain(
      '"transient":true',
    );
    // A passing failure backs off 15 minutes at most: past the 10-minute window all the same.
    bench.clock.advance(16 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ due: 0 });
    expect(bench.posted).toHaveLength(0);
  });

  it('a lasting error (channel_not_found) still gives the day up after maxAttempts', async () => {
    const scheduler = impatientScheduler({ maxAttempts: 2 });
    bench.slack.fail('chat.postMessage', { ok: false, error: 'channel_not_found' }, 2);
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    expect(await row()).toMatchObject({ status: 'failed', attempt: 1, transient_failures: 0 });
    bench.clock.advance(30 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    expect(bench.logLines.find((l) => l.includes('failed for the last time today'))).toContain(
      'channel_not_found',
    );
    bench.clock.advance(30 * MINUTE);
    // Slack would take it now, but the day was given up.
    expect(await scheduler.tick()).toMatchObject({ notClaimed: 1, posted: 0 });
    expect(bench.logLines.join('')).toContain('skipping the day');
    expect(await row()).toMatchObject({ status: 'failed', attempt: 2, transient_failures: 0 });
    expect(bench.posted).toHaveLength(0);
  });
}

describe('digest under overload on SQLite', () => overloadSuite('sqlite'));
describeWithPostgres('digest under overload on PostgreSQL', () => overloadSuite('postgres'));
