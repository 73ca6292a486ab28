import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIGEST_EVENT_TYPE } from '../../src/digest/ids.js';
import { createPeerGradeNotices } from '../../src/digest/peer-grades.js';
import { parseSnapshot } from '../../src/digest/snapshot.js';
import { nextRun } from '../../src/digest/time.js';
import { createPlanningClient } from '../../src/planning/index.js';
import { notify } from '../../src/slack/kit/notify.js';
import { StoreUnavailableError } from '../../src/store/index.js';
import {
  type Backend,
  type Bench,
  BOT_TOKEN,
  link,
  openBench,
  PLANNING_URL,
} from '../helpers/digest-bench.js';
import { feature } from '../helpers/digest-builders.js';
import { describeWithPostgres } from '../helpers/postgres.js';

const MINUTE = 60_000;

function schedulerSuite(backend: Backend) {
  let bench: Bench;
  beforeEach(async () => {
    bench = await openBench(backend);
    bench.features = [
      feature({ id: 'f1', heading: 'Login', canAdvance: true }),
      feature({ id: 'f2', heading: 'Billing', stage: 'validation', experiments: ['running'] }),
    ];
  });
  afterEach(() => bench.close());

  it('posts each due digest once, at the local time, with the digest metadata and unfurls off', async () => {
    await link(bench, 'C_BERLIN', { digestTime: '09:00', timeZone: 'Europe/Berlin' });
    await link(bench, 'C_NY', { digestTime: '09:00', timeZone: 'America/New_York' });
    const scheduler = bench.scheduler();

    // Tuesday 10 March 2026, 08:59 in Berlin.
    bench.clock.set('2026-03-10T07:59:00Z');
    expect((await scheduler.tick()).due).toBe(0);
    expect(bench.posted).toHaveLength(0);

    bench.clock.set('2026-03-10T08:00:00Z');
    const report = await scheduler.tick();
    expect(report).toMatchObject({ due: 1, posted: 1, failed: 0 });
    expect(bench.posted).toHaveLength(1);
    const [post] = bench.posted;
    expect(post?.channel).toBe('C_BERLIN');
    expect(post?.token).toBe(BOT_TOKEN);
    expect(post?.metadata).toEqual({
      event_type: DIGEST_EVENT_TYPE,
      event_payload: { local_date: '2026-03-10', channel: 'C_BERLIN' },
    });
    expect([post?.unfurl_links, post?.unfurl_media]).toEqual(['false', 'false']);
    expect(post?.text).toContain('2 features');

    // Recorded with the snapshot the next digest compares against.
    const last = await bench.store.digests.lastPosted('T1', 'C_BERLIN');
    expect(last?.localDate).toBe('2026-03-10');
    expect(parseSnapshot(last?.snapshot)?.stages).toEqual({ f1: 'planning', f2: 'validation' });

    // Later ticks the same day, and a restarted process, post nothing more.
    bench.clock.advance(MINUTE);
    await scheduler.tick();
    expect((await bench.scheduler().tick()).posted).toBe(0);
    expect(bench.posted).toHaveLength(1);

    // New York's 09:00 comes five hours later.
    bench.clock.set('2026-03-10T13:00:00Z');
    await scheduler.tick();
    expect(bench.posted.map((p) => p.channel)).toEqual(['C_BERLIN', 'C_NY']);
  });

  it('next day: one line when nothing changed, the full digest with "advanced" when something did', async () => {
    await link(bench, 'C1');
    const scheduler = bench.scheduler();
    bench.clock.set('2026-03-10T08:00:00Z');
    await scheduler.tick();
    bench.clock.set('2026-03-11T08:00:00Z');
    await scheduler.tick();
    expect(bench.posted[1]?.blocks).toHaveLength(1);
    expect(bench.posted[1]?.text).toContain('nothing changed');

    bench.features = [
      feature({ id: 'f1', heading: 'Login', stage: 'validation' }),
      ...bench.features.slice(1),
    ];
    bench.clock.set('2026-03-12T08:00:00Z');
    await scheduler.tick();
    expect(JSON.stringify(bench.posted[2]?.blocks)).toContain('Login: Planning → *Validation*');
  });

  it('skips weekends unless the link includes them', async () => {
    await link(bench, 'C_WEEKDAYS', { weekdaysOnly: true });
    await link(bench, 'C_ALL', { weekdaysOnly: false });
    // Saturday 14 March 2026.
    bench.clock.set('2026-03-14T10:00:00Z');
    await bench.scheduler().tick();
    expect(bench.posted.map((p) => p.channel)).toEqual(['C_ALL']);
  });

  it('two schedulers ticking together post once', async () => {
    await link(bench, 'C1');
    await link(bench, 'C2');
    bench.clock.set('2026-03-10T08:30:00Z');
    const reports = await Promise.all([bench.scheduler().tick(), bench.scheduler().tick()]);
    expect(reports.reduce((n, r) => n + r.posted, 0)).toBe(2);
    expect(bench.posted.map((p) => p.channel).sort()).toEqual(['C1', 'C2']);
  });

  it('Slack 429 during a run: waits Retry-After, then posts once', async () => {
    await link(bench, 'C1');
    bench.slack.rateLimit('chat.postMessage', 7);
    bench.clock.set('2026-03-10T08:00:00Z');
    const report = await bench.scheduler().tick();
    expect(report).toMatchObject({ posted: 1, failed: 0 });
    expect(bench.sleeps).toEqual([7000]);
    expect(bench.posted).toHaveLength(1);
    expect(bench.logLines.join('')).toContain('Slack rate limit');
  });

  it('service 5xx during a run: logged, nothing posted, retried later and posted once', async () => {
    await link(bench, 'C1');
    bench.planningStatus = 503;
    const scheduler = bench.scheduler({ retryBaseMs: 5 * MINUTE });
    bench.clock.set('2026-03-10T08:00:00Z');
    expect(await scheduler.tick()).toMatchObject({ failed: 1, posted: 0 });
    expect(bench.posted).toHaveLength(0);
    const warning = bench.logLines.find((l) => l.includes('will retry'));
    expect(warning).toContain('ServiceError');
    expect(warning).not.toContain(BOT_TOKEN);

    // Before the retry time the claim is held, even once the service is back.
    bench.planningStatus = 200;
    bench.clock.advance(MINUTE);
    expect(await scheduler.tick()).toMatchObject({ notClaimed: 1, posted: 0 });

    bench.clock.advance(5 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ posted: 1 });
    expect(bench.posted).toHaveLength(1);
    // An attempt after the first looked in the channel history before posting.
    expect(bench.historyCalls).toBe(1);
  });

  it('crash after posting, before recording: the next attempt finds the message and does not post again', async () => {
    await link(bench, 'C1');
    bench.clock.set('2026-03-10T08:00:00Z');
    // The first process "dies" as it records: its claim stays taken until the lease runs out.
    const dying = bench.scheduler({
      leaseMs: 10 * MINUTE,
      store: {
        links: bench.store.links,
        digests: {
          ...bench.store.digests,
          claim: (input) => bench.store.digests.claim(input),
          lastPosted: (ws, ch) => bench.store.digests.lastPosted(ws, ch),
          complete: async () => {
            throw new Error('process killed');
          },
        },
      },
    });
    await dying.tick();
    expect(bench.posted).toHaveLength(1);
    // The digest it posted is in the channel's history, after someone's message.
    bench.slack.workspace.post({ channel: 'C1', user: 'U1', text: 'unrelated' });

    // Within the lease nobody else may take it.
    bench.clock.advance(5 * MINUTE);
    expect(await bench.scheduler().tick()).toMatchObject({ notClaimed: 1, posted: 0 });

    bench.clock.advance(6 * MINUTE);
    expect(await bench.scheduler().tick()).toMatchObject({ recovered: 1, posted: 0 });
    expect(bench.posted).toHaveLength(1);
    expect((await bench.store.digests.lastPosted('T1', 'C1'))?.localDate).toBe('2026-03-10');
  });

  it('the store unreachable while a pass reads the links: the runs it started finish and are recorded, the pass says so, the next reads the rest', async () => {
    await link(bench, 'C1');
    await link(bench, 'C2');
    bench.clock.set('2026-03-10T08:00:00Z');
    // The listing fails after its first link (PostgreSQL restarting between two of its pages).
    const failingLinks = {
      async *listDigestEnabled() {
        for await (const l of bench.store.links.listDigestEnabled()) {
          if (l.slackChannelId === 'C2') throw new StoreUnavailableError('unreachable');
          yield l;
        }
      },
    };
    // Read ahead one link at a time: C1 is claimed and running when reading C2 fails.
    const scheduler = bench.scheduler({
      readAhead: 1,
      store: { links: failingLinks, digests: bench.store.digests },
    });
    const report = await scheduler.tick();
    expect(report).toMatchObject({ due: 1, posted: 1, failed: 0, unread: true });
    // Resolved only once C1's run was over: posted and recorded, not left running outside the pass.
    expect(bench.posted.map((p) => p.channel)).toEqual(['C1']);
    expect((await bench.store.digests.lastPosted('T1', 'C1'))?.localDate).toBe('2026-03-10');
    expect(bench.logLines.find((l) => l.includes('the store failed while the links were read'))).toContain(
      'StoreUnavailableError',
    );

    bench.clock.advance(MINUTE);
    expect(await bench.scheduler().tick()).toMatchObject({ posted: 1, unread: false });
    expect(bench.posted.map((p) => p.channel)).toEqual(['C1', 'C2']);
  });

  it('the store unreachable when a run records its outcome: logged as such, the claim retried after its lease, posted once', async () => {
    await link(bench, 'C1');
    bench.clock.set('2026-03-10T08:00:00Z');
    const unreachable = bench.scheduler({
      leaseMs: 10 * MINUTE,
      store: {
        links: bench.store.links,
        digests: {
          ...bench.store.digests,
          claimMany: (keys, options) => bench.store.digests.claimMany(keys, options),
          lastPosted: (ws, ch) => bench.store.digests.lastPosted(ws, ch),
          complete: async () => {
            throw new StoreUnavailableError('unreachable');
          },
        },
      },
    });
    // Posted, then neither the post nor the failure could be recorded: one failure, said once.
    expect(await unreachable.tick()).toMatchObject({ posted: 0, failed: 1 });
    expect(bench.posted).toHaveLength(1);
    const lines = bench.logLines.filter((l) => l.includes('C1') && /"level":50/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('the failure could not be recorded');

    bench.clock.advance(11 * MINUTE);
    expect(await bench.scheduler().tick()).toMatchObject({ recovered: 1, posted: 0 });
    expect(bench.posted).toHaveLength(1);
  });

  /** C1's claim for 2026-03-10 left by a process that died (its lease runs out 10 minutes later). */
  async function claimedByADeadProcess() {
    await link(bench, 'C1');
    bench.clock.set('2026-03-10T08:00:00Z');
    await bench.store.digests.claim({
      workspaceId: 'T1',
      slackChannelId: 'C1',
      localDate: '2026-03-10',
      owner: 'dead-process',
      leaseMs: 10 * MINUTE,
    });
  }

  /** A digest message the bot posted in C1 (as a process that died before recording it would have). */
  function postedEarlier(event_payload: Record<string, unknown>) {
    const { bot } = bench.slack.workspace;
    bench.slack.workspace.post({
      channel: 'C1',
      user: bot.userId,
      botId: bot.botId,
      text: 'Digest',
      metadata: { event_type: DIGEST_EVENT_TYPE, event_payload },
    });
  }

  /** ...after posting its digest, and the lease has run out. */
  async function postedThenDied() {
    await claimedByADeadProcess();
    postedEarlier({ local_date: '2026-03-10', channel: 'C1' });
    bench.clock.advance(11 * MINUTE);
  }

  it('a later attempt in a public channel the bot posted in without joining: joins, reads, posts nothing twice', async () => {
    await postedThenDied();
    // The bot posted there with chat:write.public and never joined: reading the history takes membership.
    const c1 = bench.slack.workspace.channels.get('C1')!;
    c1.members = c1.members.filter((m) => m !== bench.slack.workspace.bot.userId);
    expect(await bench.scheduler().tick()).toMatchObject({ recovered: 1, posted: 0 });
    expect(bench.joined).toEqual(['C1']);
    expect(bench.historyCalls).toBe(2);
    expect(bench.posted).toEqual([]);
  });

  it('history unreadable (an install without the history scopes): warns how to fix it and posts', async () => {
    await postedThenDied();
    bench.slack.fail('conversations.history', {
      ok: false,
      error: 'missing_scope',
      needed: 'channels:history',
    });
    expect(await bench.scheduler().tick()).toMatchObject({ posted: 1, failed: 0 });
    expect(bench.posted).toHaveLength(1);
    expect(bench.logLines.find((l) => l.includes('cannot read the channel history'))).toContain(
      'channels:history',
    );
  });

  it('crash after claiming, before posting: the next attempt posts once', async () => {
    await claimedByADeadProcess();
    // A message of another date, and an on-demand one of today, are not today's digest.
    postedEarlier({ local_date: '2026-03-09', channel: 'C1' });
    postedEarlier({ local_date: '2026-03-10', channel: 'C1', on_demand: true });
    bench.clock.advance(11 * MINUTE);
    expect(await bench.scheduler().tick()).toMatchObject({ posted: 1, recovered: 0 });
    expect(bench.posted).toHaveLength(1);
    expect(bench.historyCalls).toBe(1);
  });

  it('a workspace without a bot token fails loudly, posts nothing, and gives the day up after the attempts', async () => {
    await link(bench, 'C1');
    const scheduler = bench.scheduler({
      botTokenFor: async () => undefined,
      maxAttempts: 2,
      retryBaseMs: MINUTE,
    });
    bench.clock.set('2026-03-10T08:00:00Z');
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    bench.clock.advance(2 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ failed: 1 });
    bench.clock.advance(10 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ notClaimed: 1 });
    expect(bench.logLines.join('')).toContain('no Slack bot token');
    expect(bench.logLines.join('')).toContain('skipping the day');
    // Known given up: later ticks that day do not even ask the store.
    expect(await scheduler.tick()).toMatchObject({ due: 0 });
    expect(bench.posted).toHaveLength(0);
  });

  it('DST in New York: 02:30 on the spring-forward day posts once, at 03:00 EDT; 01:30 on fall-back once', async () => {
    bench.clock.set('2026-03-07T00:00:00Z');
    await link(bench, 'C_NY', {
      digestTime: '02:30',
      timeZone: 'America/New_York',
      weekdaysOnly: false,
    });
    const scheduler = bench.scheduler();
    const minuteTicks = async (fromIso: string, toIso: string) => {
      for (let t = Date.parse(fromIso); t <= Date.parse(toIso); t += MINUTE) {
        bench.clock.now = t;
        const report = await scheduler.tick();
        if (report.posted > 0) bench.logLines.push(`posted-at ${new Date(t).toISOString()}`);
      }
    };
    await minuteTicks('2026-03-08T06:50:00Z', '2026-03-08T07:10:00Z');
    expect(bench.posted).toHaveLength(1);
    expect(bench.logLines).toContain('posted-at 2026-03-08T07:00:00.000Z');

    bench.clock.set('2026-10-31T00:00:00Z');
    await bench.store.links.update('T1', 'C_NY', { digestTime: '01:30' });
    await minuteTicks('2026-11-01T05:20:00Z', '2026-11-01T06:40:00Z');
    expect(bench.posted).toHaveLength(2);
    expect(bench.logLines).toContain('posted-at 2026-11-01T05:30:00.000Z');
    // A new process during the repeated hour (01:30 EST) finds the day posted.
    expect(await bench.scheduler().tick(new Date('2026-11-01T06:30:00Z'))).toMatchObject({
      posted: 0,
      notClaimed: 1,
    });
  });

  it('with the peer-grade notices after each pass, DMs a person their new peer-grade count once a day, in the first digest pass', async () => {
    await link(bench, 'C1', { digestTime: '09:00', timeZone: 'Europe/Berlin' });
    bench.person('U1');
    await bench.store.identities.save({
      workspaceId: 'T1',
      slackUserId: 'U1',
      serviceAccountId: 'sa-1',
      planningUserId: 'p-1',
      orgId: 'org-1',
      token: 'token-u1',
      origin: 'provisioned',
    });
    const peerGrades = (count: number) => [
      { id: 'xp-1', notion: { id: 'n1', value: 'Go' }, peerEval: { count, average: 7, recent: [7] } },
    ];
    // One replica's minute pass as the app runs it (src/app/jobs.ts): the digest pass tells the
    // notices which workspaces' day has begun (onDue), then the notices run.
    const replica = () => {
      const notices = createPeerGradeNotices({
        store: bench.store,
        logger: bench.deps().logger,
        planningClientFor: (token) =>
          createPlanningClient({
            baseUrl: `${PLANNING_URL}/v1`,
            token,
            dispatcher: bench.agent,
            retries: 0,
          }),
        notifierFor: async (workspaceId, now) => (slackUserId, body) =>
          notify(
            { store: bench.store, now: () => now.getTime() },
            bench.clients.slack(BOT_TOKEN),
            { workspaceId, slackUserId },
            'peerGrades',
            body,
          ),
      });
      const digest = bench.scheduler({ onDue: notices.linkDue });
      return {
        async tick() {
          const now = new Date(bench.clock.now);
          await digest.tick(now);
          await notices.run(now);
        },
      };
    };
    const scheduler = replica();
    const dms = () => bench.posted.filter((p) => p.channel === 'DU1');

    bench.experiences.set('token-u1', peerGrades(1));
    bench.clock.set('2026-03-10T07:59:00Z');
    await scheduler.tick();
    bench.clock.set('2026-03-10T08:00:00Z');
    await scheduler.tick(); // the digest, and the first check: a baseline, no DM
    expect(bench.posted.map((p) => p.channel)).toEqual(['C1']);

    bench.experiences.set('token-u1', peerGrades(3));
    bench.clock.advance(MINUTE);
    await scheduler.tick();
    await replica().tick();
    expect(dms()).toEqual([]); // checked once today already, by any replica

    bench.clock.set('2026-03-11T08:00:00Z');
    await Promise.all([scheduler.tick(), replica().tick()]);
    expect(dms()).toHaveLength(1);
    expect(dms()[0]?.text).toBe(
      'You received 2 new peer grades since your last update. See your averages with `/plan grades`.',
    );
    expect(bench.posted.filter((p) => p.channel === 'C1')).toHaveLength(2);
  });
  it('a channel linked after its digest time gets nothing that day: its first digest comes at its next time', async () => {
    // Tuesday, 11:00 in Berlin: today's 09:00 passed before the channel was linked.
    bench.clock.set('2026-03-10T10:00:00Z');
    const linked = await link(bench, 'C_NEW', { digestTime: '09:00', timeZone: 'Europe/Berlin' });
    const scheduler = bench.scheduler();
    expect(await scheduler.tick()).toMatchObject({ due: 0, posted: 0 });
    bench.clock.advance(60 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ due: 0, posted: 0 });
    expect(bench.posted).toHaveLength(0);
    // What `/plan digest` says is what happens.
    expect(nextRun(linked, new Date(bench.clock.now)).toISOString()).toBe('2026-03-11T08:00:00.000Z');

    bench.clock.set('2026-03-11T08:00:00Z');
    expect(await scheduler.tick()).toMatchObject({ due: 1, posted: 1 });
    expect(bench.posted.map((p) => p.metadata.event_payload.local_date)).toEqual(['2026-03-11']);
  });

  it('turned on at 22:27 for an 08:30 schedule: nothing at once, the first digest the next morning at 08:30', async () => {
    await link(bench, 'C1', { digestTime: '09:00', timeZone: 'Europe/Berlin' });
    await bench.store.links.update('T1', 'C1', { digestEnabled: false });
    const scheduler = bench.scheduler();
    // 22:27 in Berlin: the digest turned on, at 08:30.
    bench.clock.set('2026-03-10T21:27:00Z');
    const on = await bench.store.links.update('T1', 'C1', { digestTime: '08:30', digestEnabled: true });
    if (!on) throw new Error('the link is gone');
    expect(await scheduler.tick()).toMatchObject({ due: 0, posted: 0 });
    expect(nextRun(on, new Date(bench.clock.now)).toISOString()).toBe('2026-03-11T07:30:00.000Z');

    bench.clock.set('2026-03-11T07:29:00Z');
    expect(await scheduler.tick()).toMatchObject({ due: 0 });
    bench.clock.set('2026-03-11T07:30:00Z');
    expect(await scheduler.tick()).toMatchObject({ due: 1, posted: 1 });
    expect(bench.posted).toHaveLength(1);
  });

  it('a digest missed while it was due (the app down) is caught up within the window, and not after it', async () => {
    // Linked the day before; the app is down from 08:55 to 10:30 (Berlin's 09:00 is 08:00 UTC).
    bench.clock.set('2026-03-09T12:00:00Z');
    await link(bench, 'C_SHORT', { digestTime: '09:00', timeZone: 'Europe/Berlin' });
    await link(bench, 'C_LONG', { digestTime: '07:00', timeZone: 'Europe/Berlin' });
    const scheduler = bench.scheduler({ catchUpMs: 3 * 60 * MINUTE });

    bench.clock.set('2026-03-10T09:30:00Z');
    // 09:00 Berlin was 90 minutes ago: caught up. 07:00 Berlin was 3.5 hours ago: past the window.
    expect(await scheduler.tick()).toMatchObject({ due: 1, posted: 1 });
    expect(bench.posted.map((p) => p.channel)).toEqual(['C_SHORT']);
    const long = await bench.store.links.get('T1', 'C_LONG');
    if (!long) throw new Error('the link is gone');
    expect(nextRun(long, new Date(bench.clock.now), undefined, 3 * 60 * MINUTE).toISOString()).toBe(
      '2026-03-11T06:00:00.000Z',
    );
    bench.clock.set('2026-03-11T06:00:00Z');
    expect(await scheduler.tick()).toMatchObject({ posted: 1 });
    expect(bench.posted.map((p) => p.channel)).toEqual(['C_SHORT', 'C_LONG']);
  });

  it('a failed post is retried within the window; a setting repeated meanwhile keeps the retry', async () => {
    await link(bench, 'C1', { digestTime: '09:00', timeZone: 'Europe/Berlin' });
    const scheduler = bench.scheduler({ retryBaseMs: MINUTE });
    bench.planningStatus = 503;
    bench.clock.set('2026-03-10T08:00:00Z');
    expect(await scheduler.tick()).toMatchObject({ failed: 1, posted: 0 });
    // An admin says `/plan digest on` while it is on: nothing about the schedule changed.
    await bench.store.links.update('T1', 'C1', { digestEnabled: true });
    bench.planningStatus = 200;
    bench.clock.advance(2 * MINUTE);
    expect(await scheduler.tick()).toMatchObject({ posted: 1 });
    expect(bench.posted).toHaveLength(1);
  });
}

describe('digest scheduler on SQLite', () => schedulerSuite('sqlite'));
describeWithPostgres('digest scheduler on PostgreSQL', () => schedulerSuite('postgres'));
