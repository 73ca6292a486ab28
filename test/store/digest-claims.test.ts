import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  type ClaimInput,
  type ClaimKey,
  type ClaimResult,
  MAX_CLAIM_BATCH,
  StoreValidationError,
} from '../../src/store/index.js';
import { eventually } from '../helpers/slack-harness.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

const LEASE = 60_000;
const key = { workspaceId: 'T1', slackChannelId: 'C1', localDate: '2025-01-06' };
const by = (owner: string, extra: Partial<ClaimInput> = {}): ClaimInput => ({
  ...key,
  owner,
  leaseMs: LEASE,
  ...extra,
});
const posted = (messageTs: string, snapshot?: string) => ({
  status: 'posted' as const,
  messageTs,
  ...(snapshot === undefined ? {} : { snapshot }),
});

forEachBackend('digest claims', (backend) => {
  async function open(digestMaxAttempts?: number) {
    const clock = manualClock();
    const store = await backend.open({
      keyring: newKeyring(),
      now: clock.now,
      ...(digestMaxAttempts ? { digestMaxAttempts } : {}),
    });
    return { clock, digests: store.digests, store };
  }

  it('the first claim wins; others are held while the lease lives; posted is final', async () => {
    const { clock, digests } = await open();
    expect(await digests.claim(by('a'))).toEqual({ claimed: true, attempt: 1, transientFailures: 0 });
    expect(await digests.claim(by('b'))).toEqual({ claimed: false, reason: 'held' });
    expect(await digests.claim(by('a'))).toEqual({ claimed: false, reason: 'held' });
    // Other dates and links are independent.
    expect(await digests.claim(by('b', { localDate: '2025-01-07' }))).toEqual({
      claimed: true,
      attempt: 1,
      transientFailures: 0,
    });
    expect(await digests.claim(by('b', { slackChannelId: 'C2' }))).toEqual({
      claimed: true,
      attempt: 1,
      transientFailures: 0,
    });
    expect(await digests.claim(by('b', { workspaceId: 'T2' }))).toEqual({
      claimed: true,
      attempt: 1,
      transientFailures: 0,
    });

    expect(await digests.complete({ ...key, owner: 'a', outcome: posted('111.1', '{"n":1}') })).toBe(true);
    clock.advance(10 * LEASE);
    expect(await digests.claim(by('b'))).toEqual({ claimed: false, reason: 'posted' });
    expect(await digests.complete({ ...key, owner: 'a', outcome: posted('111.2') })).toBe(false);
    expect(await digests.lastPosted('T1', 'C1')).toEqual({
      localDate: '2025-01-06',
      postedAt: new Date(clock.t - 10 * LEASE),
      // The first completion's message: where the last digest is (issue 36 item 3).
      messageTs: '111.1',
      snapshot: '{"n":1}',
    });
  });

  it('an expired lease is taken over, and the old owner is fenced off', async () => {
    const { clock, digests, store } = await open();
    await digests.claim(by('a'));
    clock.advance(LEASE - 1);
    expect(await digests.claim(by('b'))).toEqual({ claimed: false, reason: 'held' });
    clock.advance(1);
    expect(await digests.claim(by('b'))).toEqual({ claimed: true, attempt: 2, transientFailures: 0 });

    expect(await digests.complete({ ...key, owner: 'a', outcome: posted('1.1') })).toBe(false);
    expect(
      await digests.complete({
        ...key,
        owner: 'a',
        outcome: { status: 'failed', error: 'late', retryAt: 0 },
      }),
    ).toBe(false);
    expect(await digests.complete({ ...key, owner: 'b', attempt: 1, outcome: posted('2.1') })).toBe(false);
    expect(await digests.complete({ ...key, owner: 'b', attempt: 2, outcome: posted('2.2') })).toBe(true);
    const rows = await store.db
      .selectFrom('digest_claims')
      .select(['status', 'owner', 'attempt', 'message_ts'])
      .execute();
    expect(rows).toEqual([{ status: 'posted', owner: 'b', attempt: 2, message_ts: '2.2' }]);
    expect((await digests.lastPosted('T1', 'C1'))?.snapshot).toBeUndefined();
  });

  it('a failure waits for its retry time, then is claimed again (attempt + 1)', async () => {
    const { clock, digests, store } = await open();
    await digests.claim(by('a'));
    const retryAt = clock.t + 5 * 60_000;
    expect(
      await digests.complete({
        ...key,
        owner: 'a',
        attempt: 1,
        outcome: { status: 'failed', error: 'Slack 500', retryAt },
      }),
    ).toBe(true);
    const [row] = await store.db
      .selectFrom('digest_claims')
      .select(['status', 'error', 'retry_after'])
      .execute();
    expect(row).toEqual({ status: 'failed', error: 'Slack 500', retry_after: retryAt });

    expect(await digests.claim(by('b'))).toEqual({ claimed: false, reason: 'held' });
    clock.t = retryAt;
    expect(await digests.claim(by('b'))).toEqual({ claimed: true, attempt: 2, transientFailures: 0 });
    expect(await digests.claim(by('a'))).toEqual({ claimed: false, reason: 'held' });
    expect(await digests.lastPosted('T1', 'C1')).toBeUndefined();
  });

  it('gives up after the maximum attempts', async () => {
    const { clock, digests } = await open(2);
    const fail = (owner: string) =>
      digests.complete({ ...key, owner, outcome: { status: 'failed', error: 'boom', retryAt: clock.t } });
    expect(await digests.claim(by('a'))).toEqual({ claimed: true, attempt: 1, transientFailures: 0 });
    await fail('a');
    expect(await digests.claim(by('b'))).toEqual({ claimed: true, attempt: 2, transientFailures: 0 });
    await fail('b');
    expect(await digests.claim(by('c'))).toEqual({ claimed: false, reason: 'exhausted' });
    // A per-call cap overrides the store's.
    expect(await digests.claim(by('c', { maxAttempts: 3 }))).toEqual({
      claimed: true,
      attempt: 3,
      transientFailures: 0,
    });
    // A lease that expires on the last attempt is exhausted too.
    clock.advance(LEASE);
    expect(await digests.claim(by('d', { maxAttempts: 3 }))).toEqual({ claimed: false, reason: 'exhausted' });
  });

  it('transient failures are counted apart and never use up the attempts; lasting ones still do', async () => {
    const { clock, digests, store } = await open(2);
    const fail = (owner: string, attempt: number, transient: boolean) =>
      digests.complete({
        ...key,
        owner,
        attempt,
        outcome: {
          status: 'failed',
          error: transient ? 'timeout' : 'channel_not_found',
          retryAt: clock.t,
          transient,
        },
      });
    // Six passing failures in a row, three times the cap: each is claimed again.
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      expect(await digests.claim(by(`o${attempt}`))).toEqual({
        claimed: true,
        attempt,
        transientFailures: attempt - 1,
      });
      expect(await fail(`o${attempt}`, attempt, true)).toBe(true);
    }
    // A stale completion of an earlier attempt counts nothing.
    expect(await fail('o6', 6, true)).toBe(false);
    const [row] = await store.db
      .selectFrom('digest_claims')
      .select(['attempt', 'transient_failures'])
      .execute();
    expect(row).toEqual({ attempt: 6, transient_failures: 6 });
    // Then lasting failures: the cap (2) counts only them.
    expect(await digests.claim(by('p'))).toEqual({ claimed: true, attempt: 7, transientFailures: 6 });
    expect(await fail('p', 7, false)).toBe(true);
    expect(await digests.claim(by('q'))).toEqual({ claimed: true, attempt: 8, transientFailures: 6 });
    expect(await fail('q', 8, false)).toBe(true);
    expect(await digests.claim(by('r'))).toEqual({ claimed: false, reason: 'exhausted' });
    expect((await digests.claimMany([key], { owner: 'r', leaseMs: LEASE }))[0]).toEqual({
      claimed: false,
      reason: 'exhausted',
    });
  });

  it('cuts long error texts', async () => {
    const { digests, store } = await open();
    await digests.claim(by('a'));
    await digests.complete({
      ...key,
      owner: 'a',
      outcome: { status: 'failed', error: 'x'.repeat(5000), retryAt: 0 },
    });
    const [row] = await store.db.selectFrom('digest_claims').select('error').execute();
    expect(row?.error).toHaveLength(500);
  });

  it('lastPosted gives the latest posted date of that link only', async () => {
    const { clock, digests } = await open();
    for (const [localDate, outcome] of [
      ['2025-01-02', posted('1', 's2')],
      ['2025-01-06', posted('3', 's6')],
      ['2025-01-03', posted('2', 's3')],
      ['2025-01-07', { status: 'failed' as const, error: 'e', retryAt: 0 }],
    ] as const) {
      clock.advance(1000);
      await digests.claim(by('a', { localDate }));
      await digests.complete({ ...key, localDate, owner: 'a', outcome });
    }
    expect(await digests.lastPosted('T1', 'C1')).toMatchObject({ localDate: '2025-01-06', snapshot: 's6' });
    expect(await digests.lastPosted('T1', 'C2')).toBeUndefined();
    expect(await digests.lastPosted('T2', 'C1')).toBeUndefined();
  });

  it('purgeOlderThan removes old claims but keeps each link’s latest posted digest', async () => {
    const { clock, digests, store } = await open();
    clock.t = Date.UTC(2025, 2, 31, 12);
    const claimAndPost = async (slackChannelId: string, localDate: string, post: boolean) => {
      await digests.claim(by('a', { slackChannelId, localDate }));
      if (post)
        await digests.complete({ ...key, slackChannelId, localDate, owner: 'a', outcome: posted('1') });
    };
    await claimAndPost('C1', '2025-01-01', true);
    await claimAndPost('C1', '2025-01-02', true); // C1's latest posted, old: kept
    await claimAndPost('C1', '2025-01-03', false);
    await claimAndPost('C2', '2025-01-05', true);
    await claimAndPost('C2', '2025-03-30', true); // recent
    await claimAndPost('C3', '2025-03-01', true); // exactly 30 days before 2025-03-31: kept

    expect(await digests.purgeOlderThan(30)).toBe(3);
    const left = await store.db
      .selectFrom('digest_claims')
      .select(['slack_channel_id', 'local_date'])
      .orderBy('slack_channel_id')
      .orderBy('local_date')
      .execute();
    expect(left.map((r) => `${r.slack_channel_id} ${r.local_date}`)).toEqual([
      'C1 2025-01-02',
      'C2 2025-03-30',
      'C3 2025-03-01',
    ]);
    expect(await digests.purgeOlderThan(30)).toBe(0);
  });

  it('refuses malformed claims clearly', async () => {
    const { digests, store } = await open();
    for (const bad of [by('a', { localDate: '2025-1-6' }), by('', {}), by('a', { leaseMs: 0 })]) {
      await expect(digests.claim(bad)).rejects.toThrow(StoreValidationError);
    }
    await expect(digests.claim(by('a', { localDate: '2025-13-01' }))).rejects.toThrow(
      /Invalid digest claim: localDate/,
    );
    await expect(
      digests.complete({ ...key, owner: 'a', outcome: { status: 'posted' } as never }),
    ).rejects.toThrow(StoreValidationError);
    await expect(digests.purgeOlderThan(-1)).rejects.toThrow(StoreValidationError);
    expect(await store.db.selectFrom('digest_claims').selectAll().execute()).toEqual([]);
  });

  describe('claimMany', () => {
    const keyOf = (slackChannelId: string, localDate = key.localDate): ClaimKey => ({
      workspaceId: 'T1',
      slackChannelId,
      localDate,
    });
    const batch = (owner: string, extra: { maxAttempts?: number } = {}) => ({
      owner,
      leaseMs: LEASE,
      ...extra,
    });

    it('decides each key of a batch as claim would, in the order given', async () => {
      const { clock, digests } = await open(2);
      // Set the scene one key at a time: posted, held by a live lease, lease expired, failed and
      // waiting, failed and due, exhausted.
      for (const c of ['Cposted', 'Cheld', 'Cexpired', 'Cwaiting', 'Cdue', 'Cexhausted']) {
        expect(
          await digests.claim({ ...keyOf(c), owner: 'a', leaseMs: c === 'Cexpired' ? 1 : LEASE }),
        ).toEqual({
          claimed: true,
          attempt: 1,
          transientFailures: 0,
        });
      }
      const complete = (c: string, outcome: Parameters<typeof digests.complete>[0]['outcome']) =>
        digests.complete({ ...keyOf(c), owner: 'a', outcome });
      await complete('Cposted', posted('1.1'));
      await complete('Cwaiting', { status: 'failed', error: 'later', retryAt: clock.t + 1_000 });
      await complete('Cdue', { status: 'failed', error: 'now', retryAt: clock.t });
      await complete('Cexhausted', { status: 'failed', error: 'x', retryAt: clock.t });
      expect(await digests.claim({ ...keyOf('Cexhausted'), owner: 'a', leaseMs: LEASE })).toEqual({
        claimed: true,
        attempt: 2,
        transientFailures: 0,
      });
      await complete('Cexhausted', { status: 'failed', error: 'x', retryAt: clock.t });
      clock.advance(1);

      const keys = [
        'Cnew1',
        'Cposted',
        'Cheld',
        'Cexpired',
        'Cwaiting',
        'Cdue',
        'Cexhausted',
        'Cnew2',
        'Cnew1',
      ];
      expect(
        await digests.claimMany(
          keys.map((c) => keyOf(c)),
          batch('b'),
        ),
      ).toEqual([
        { claimed: true, attempt: 1, transientFailures: 0 },
        { claimed: false, reason: 'posted' },
        { claimed: false, reason: 'held' },
        { claimed: true, attempt: 2, transientFailures: 0 },
        { claimed: false, reason: 'held' },
        { claimed: true, attempt: 2, transientFailures: 0 },
        { claimed: false, reason: 'exhausted' },
        { claimed: true, attempt: 1, transientFailures: 0 },
        // The same key twice is one claim.
        { claimed: false, reason: 'held' },
      ]);
      // What the batch took is b's: a cannot complete it, b can.
      expect(await complete('Cnew1', posted('9.9'))).toBe(false);
      expect(
        await digests.complete({ ...keyOf('Cnew1'), owner: 'b', attempt: 1, outcome: posted('9.9') }),
      ).toBe(true);
      expect(await digests.claimMany([], batch('b'))).toEqual([]);
    });

    it('two owners claiming overlapping batches at once: every key has exactly one winner', async () => {
      const { clock, digests } = await open();
      // A second store on the same database, on the same clock: another replica.
      const other = (await backend.open({ keyring: newKeyring(), now: clock.now })).digests;
      const channels = Array.from({ length: 60 }, (_, i) => `C${i}`);
      // a takes 0–39, b takes 20–59, in opposite orders, three times over: 20 keys overlap.
      const aKeys = channels.slice(0, 40).map((c) => keyOf(c));
      const bKeys = channels
        .slice(20)
        .map((c) => keyOf(c))
        .reverse();
      const settled = await Promise.allSettled([
        digests.claimMany(aKeys, batch('a')),
        other.claimMany(bKeys, batch('b')),
        digests.claimMany(aKeys, batch('a2')),
        other.claimMany(bKeys, batch('b2')),
      ]);
      const winners = new Map<string, string[]>();
      for (const [i, outcome] of settled.entries()) {
        expect(outcome.status).toBe('fulfilled');
        if (outcome.status !== 'fulfilled') continue;
        const keys = i % 2 === 0 ? aKeys : bKeys;
        outcome.value.forEach((result, j) => {
          if (result.claimed) {
            const c = keys[j]!.slackChannelId;
            winners.set(c, [...(winners.get(c) ?? []), ['a', 'b', 'a2', 'b2'][i]!]);
          }
        });
      }
      expect([...winners.keys()].sort()).toEqual([...channels].sort());
      for (const [c, who] of winners) expect({ c, who: who.length }).toEqual({ c, who: 1 });
    });

    // PostgreSQL only: SQLite has one writer at a time, so no two statements can deadlock there.
    if (backend.name === 'postgres')
      it('a batch PostgreSQL aborts to break a deadlock is written again, not failed', async () => {
        const { clock, digests, store } = await open();
        const held = (c: string) => ({
          workspace_id: 'T1',
          slack_channel_id: c,
          local_date: key.localDate,
          status: 'claimed' as const,
          owner: 'other',
          attempt: 1,
          lease_until: clock.now() + LEASE,
          created_at: clock.now(),
          updated_at: clock.now(),
        });
        let settled: Promise<PromiseSettledResult<ClaimResult[]>[]> | undefined;
        // Another writer holds C9 and, once the batch has written C5 and waits for C9, wants C5 too.
        await store.db.transaction().execute(async (trx) => {
          // PostgreSQL aborts whichever waiter checks first: this side checks after 10 s, the
          // batch after the default 1 s, so the batch is the one aborted, however busy the machine.
          await sql`set local deadlock_timeout = '10s'`.execute(trx);
          await trx.insertInto('digest_claims').values(held('C9')).execute();
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          settled = Promise.allSettled([
            digests.claimMany(
              ['C1', 'C5', 'C9'].map((c) => keyOf(c)),
              batch('a'),
            ),
          ]);
          await eventually(async () => {
            const waiting = await sql<{ n: number }>`
              select count(*)::int as n from pg_locks w
              join pg_locks h on h.transactionid = w.transactionid and h.granted
              where not w.granted and h.pid = ${rows[0]!.pid}`.execute(store.db);
            return waiting.rows[0]!.n > 0;
          }, 'the batch waiting for C9');
          await trx.insertInto('digest_claims').values(held('C5')).execute();
        });
        const [outcome] = await settled!;
        expect(outcome).toEqual({
          status: 'fulfilled',
          value: [
            { claimed: true, attempt: 1, transientFailures: 0 },
            { claimed: false, reason: 'held' },
            { claimed: false, reason: 'held' },
          ],
        });
      });

    it('refuses a batch that is too big or malformed, changing nothing', async () => {
      const { digests, store } = await open();
      const tooMany = Array.from({ length: MAX_CLAIM_BATCH + 1 }, (_, i) => keyOf(`C${i}`));
      await expect(digests.claimMany(tooMany, batch('a'))).rejects.toThrow(StoreValidationError);
      await expect(digests.claimMany([keyOf('C1'), keyOf('C2', '2025-1-6')], batch('a'))).rejects.toThrow(
        /Invalid digest claims/,
      );
      await expect(digests.claimMany([keyOf('C1')], batch(''))).rejects.toThrow(StoreValidationError);
      expect(await store.db.selectFrom('digest_claims').selectAll().execute()).toEqual([]);
    });
  });
});
