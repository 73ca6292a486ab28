import { expect, it } from 'vitest';
import {
  MAX_WATCH_CLAIM_BATCH,
  StoreValidationError,
  type WatchClaim,
  type WatchKey,
} from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

const LEASE = 60_000;
const L1: WatchKey = { workspaceId: 'T1', slackChannelId: 'C1' };
const L2: WatchKey = { workspaceId: 'T1', slackChannelId: 'C2' };
/** A record as the watch writes it (src/watch: FeatureSeen); the store reads only id and updatedAt. */
const seen = (id: string, updatedAt: string, stage = 'planning') => ({
  id,
  updatedAt,
  stage,
  assumptions: [],
  tasks: [{ id: `${id}-t`, state: 'idle' }],
});

forEachBackend('watch store', (backend) => {
  async function open() {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    return { clock, store, watch: store.watch };
  }

  it('a link never looked at is first due at its firstAt when given (a first deploy spreads baselines); a link looked at keeps its own time', async () => {
    const { clock, store, watch } = await open();
    const firstAt = clock.t + 120_000;
    expect(await watch.claim([{ ...L1, firstAt }, L2], { owner: 'a', leaseMs: LEASE })).toEqual([
      { claimed: false, dueAt: firstAt },
      { claimed: true },
    ]);
    // Asked again with another first time: the row made first decides.
    expect(await watch.claim([{ ...L1, firstAt: clock.t }], { owner: 'b', leaseMs: LEASE })).toEqual([
      { claimed: false, dueAt: firstAt },
    ]);
    const row = await store.db
      .selectFrom('watch_links')
      .select(['next_at', 'seen_at', 'owner'])
      .where('slack_channel_id', '=', 'C1')
      .executeTakeFirstOrThrow();
    expect({ ...row, next_at: Number(row.next_at) }).toEqual({
      next_at: firstAt,
      seen_at: null,
      owner: null,
    });
    clock.advance(120_000);
    expect(await watch.claim([{ ...L1, firstAt: clock.t + 1 }], { owner: 'b', leaseMs: LEASE })).toEqual([
      { claimed: true },
    ]);
  });

  it('a link never looked at is due now; one owner wins; completing records and releases', async () => {
    const { clock, watch } = await open();
    expect(await watch.claim([L1], { owner: 'a', leaseMs: LEASE })).toEqual([{ claimed: true }]);
    expect(await watch.claim([L1], { owner: 'b', leaseMs: LEASE })).toEqual([
      { claimed: false, dueAt: clock.t + LEASE + 1 },
    ]);
    const began = clock.t;
    clock.advance(1_000);
    expect(
      await watch.complete(L1, 'a', {
        seenAt: began,
        nextAt: clock.t + 300_000,
        save: [seen('f1', '2026-01-01T00:00:00.000Z'), seen('f2', '2026-01-01T00:00:00.000Z')],
        drop: [],
      }),
    ).toBe(true);
    const features = await watch.features('T1', 'C1');
    expect([...features.keys()].sort()).toEqual(['f1', 'f2']);
    expect(features.get('f1')).toEqual({ seen: seen('f1', '2026-01-01T00:00:00.000Z'), seenAt: began });
    // Other links are apart.
    expect((await watch.features('T1', 'C2')).size).toBe(0);

    // Not due again before its next time, whoever asks; then claimed with when it was last seen.
    expect(await watch.claim([L1], { owner: 'b', leaseMs: LEASE })).toEqual([
      { claimed: false, dueAt: clock.t + 300_000 },
    ]);
    clock.advance(300_000);
    expect(await watch.claim([L1], { owner: 'b', leaseMs: LEASE })).toEqual([
      { claimed: true, seenAt: began },
    ]);
    // A completion that changes one feature and drops another.
    expect(
      await watch.complete(L1, 'b', {
        seenAt: clock.t,
        nextAt: clock.t + 300_000,
        save: [seen('f1', '2026-01-02T00:00:00.000Z', 'validation')],
        drop: ['f2'],
      }),
    ).toBe(true);
    const after = await watch.features('T1', 'C1');
    expect([...after.keys()]).toEqual(['f1']);
    expect(after.get('f1')).toEqual({
      seen: seen('f1', '2026-01-02T00:00:00.000Z', 'validation'),
      seenAt: clock.t,
    });
  });

  it('an expired lease is taken over; the old owner is fenced off and writes nothing', async () => {
    const { clock, store, watch } = await open();
    await watch.claim([L1], { owner: 'a', leaseMs: LEASE });
    clock.advance(LEASE);
    // Live to its last millisecond; due the one after.
    expect(await watch.claim([L1], { owner: 'b', leaseMs: LEASE })).toEqual([
      { claimed: false, dueAt: clock.t + 1 },
    ]);
    clock.advance(1);
    expect(await watch.claim([L1], { owner: 'b', leaseMs: LEASE })).toEqual([{ claimed: true }]);

    const late = { seenAt: 0, nextAt: clock.t, save: [seen('f1', 'x')], drop: [] };
    expect(await watch.complete(L1, 'a', late)).toBe(false);
    expect(await watch.fail(L1, 'a', { nextAt: 0, error: 'late' })).toBe(false);
    expect((await watch.features('T1', 'C1')).size).toBe(0);
    const row = await store.db.selectFrom('watch_links').selectAll().executeTakeFirstOrThrow();
    expect([row.owner, row.error, row.seen_at]).toEqual(['b', null, null]);
  });

  it('fail releases the lease with a short error and the next time; nothing is recorded as seen', async () => {
    const { clock, store, watch } = await open();
    await watch.claim([L1], { owner: 'a', leaseMs: LEASE });
    expect(await watch.fail(L1, 'a', { nextAt: clock.t + 5_000, error: 'x'.repeat(2_000) })).toBe(true);
    const row = await store.db.selectFrom('watch_links').selectAll().executeTakeFirstOrThrow();
    expect(row.owner).toBeNull();
    expect(row.lease_until).toBeNull();
    expect(row.seen_at).toBeNull();
    expect(row.error).toHaveLength(500);
    expect(Number(row.next_at)).toBe(clock.t + 5_000);
    // Free, but not due before its next time; a never-completed link is still a baseline.
    expect(await watch.claim([L1], { owner: 'b', leaseMs: LEASE })).toEqual([
      { claimed: false, dueAt: clock.t + 5_000 },
    ]);
    clock.advance(5_000);
    expect(await watch.claim([L1], { owner: 'b', leaseMs: LEASE })).toEqual([{ claimed: true }]);
    // A later completion clears the error.
    await watch.complete(L1, 'b', { seenAt: clock.t, nextAt: clock.t, save: [], drop: [] });
    const done = await store.db.selectFrom('watch_links').selectAll().executeTakeFirstOrThrow();
    expect([done.error, Number(done.seen_at)]).toEqual([null, clock.t]);
  });

  it('hands records back as written, checking nothing but their id and updatedAt', async () => {
    const { clock, store, watch } = await open();
    await watch.claim([L1], { owner: 'a', leaseMs: LEASE });
    await expect(
      watch.complete(L1, 'a', { seenAt: clock.t, nextAt: clock.t, save: [{ id: '' }], drop: [] }),
    ).rejects.toBeInstanceOf(StoreValidationError);
    await watch.complete(L1, 'a', {
      seenAt: clock.t,
      nextAt: clock.t,
      save: [seen('f1', 'u1'), { id: 'f2', updatedAt: 'u2', shape: 'of another version' }],
      drop: [],
    });
    await store.db
      .updateTable('watch_features')
      .set({ seen: 'not json' })
      .where('feature_id', '=', 'f1')
      .execute();
    const features = await watch.features('T1', 'C1');
    expect(features.get('f1')).toEqual({ seen: undefined, seenAt: clock.t });
    expect(features.get('f2')?.seen).toEqual({ id: 'f2', updatedAt: 'u2', shape: 'of another version' });
    const row = await store.db
      .selectFrom('watch_features')
      .select('updated_at')
      .where('feature_id', '=', 'f2')
      .executeTakeFirstOrThrow();
    expect(row.updated_at).toBe('u2');
  });

  it('a link rebound to another planning channel forgets what the watch saw; relinked to the same, keeps it', async () => {
    const { clock, store, watch } = await open();
    const link = {
      workspaceId: 'T1',
      slackChannelId: 'C1',
      teamId: 'team',
      channelId: 'ch',
      createdBy: 'U1',
    };
    await store.links.upsert(link);
    const look = async () => {
      await watch.claim([L1], { owner: 'a', leaseMs: LEASE });
      await watch.complete(L1, 'a', { seenAt: clock.t, nextAt: clock.t, save: [seen('f1', 'u1')], drop: [] });
    };
    await look();
    await store.links.upsert(link);
    await store.links.update('T1', 'C1', { teamId: 'team', digestTime: '10:00' });
    expect((await watch.features('T1', 'C1')).size).toBe(1);

    await store.links.upsert({ ...link, channelId: 'other' });
    expect((await watch.features('T1', 'C1')).size).toBe(0);
    // Its next look is a baseline again.
    expect(await watch.claim([L1], { owner: 'a', leaseMs: LEASE })).toEqual([{ claimed: true }]);
    await watch.complete(L1, 'a', { seenAt: clock.t, nextAt: clock.t, save: [seen('f9', 'u1')], drop: [] });

    await store.links.update('T1', 'C1', { teamId: 'another team' });
    expect((await watch.features('T1', 'C1')).size).toBe(0);
    expect(await store.db.selectFrom('watch_links').selectAll().execute()).toEqual([]);
  });

  it('the watch turned on again after being off starts from a baseline; turned on while on, keeps what it saw', async () => {
    const { clock, store, watch } = await open();
    await store.links.upsert({ ...L1, teamId: 'team', channelId: 'ch', createdBy: 'U1' });
    const look = async () => {
      await watch.claim([L1], { owner: 'a', leaseMs: LEASE });
      await watch.complete(L1, 'a', { seenAt: clock.t, nextAt: clock.t, save: [seen('f1', 'u1')], drop: [] });
    };
    await look();
    await store.links.update('T1', 'C1', { watchEnabled: true });
    expect((await watch.features('T1', 'C1')).size).toBe(1);
    await store.links.update('T1', 'C1', { watchEnabled: false });
    expect((await watch.features('T1', 'C1')).size).toBe(1);
    // Hours of changes made while it was off would all be announced at once, late: forgotten instead.
    await store.links.update('T1', 'C1', { watchEnabled: true });
    expect((await watch.features('T1', 'C1')).size).toBe(0);
    expect(await watch.claim([L1], { owner: 'a', leaseMs: LEASE })).toEqual([{ claimed: true }]);
  });

  it('claims in batches: results in the order asked, a repeated key claimed once, bounded', async () => {
    const { watch } = await open();
    const results = await watch.claim([L2, L1, L2], { owner: 'a', leaseMs: LEASE });
    expect(results.map((r) => r.claimed)).toEqual([true, true, false]);
    const many = Array.from({ length: MAX_WATCH_CLAIM_BATCH + 1 }, (_, i) => ({
      workspaceId: 'T1',
      slackChannelId: `C${i}`,
    }));
    await expect(watch.claim(many, { owner: 'a', leaseMs: LEASE })).rejects.toBeInstanceOf(
      StoreValidationError,
    );
  });

  it('two owners claiming the same links at once win each link once', async () => {
    const { watch, clock } = await open();
    const other = await backend.open({ keyring: newKeyring(), now: clock.now });
    const keys = Array.from({ length: 50 }, (_, i) => ({ workspaceId: 'T1', slackChannelId: `C${i}` }));
    const [a, b] = await Promise.all([
      watch.claim(keys, { owner: 'a', leaseMs: LEASE }),
      other.watch.claim([...keys].reverse(), { owner: 'b', leaseMs: LEASE }),
    ]);
    const won = (results: WatchClaim[], order: WatchKey[]) =>
      order.filter((_, i) => results[i]?.claimed).map((k) => k.slackChannelId);
    const byA = won(a, keys);
    const byB = won(b, [...keys].reverse());
    expect([...byA, ...byB].sort()).toEqual(keys.map((k) => k.slackChannelId).sort());
    expect(byA.filter((c) => byB.includes(c))).toEqual([]);
  });
});
