import { expect, it } from 'vitest';
import { StoreValidationError } from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

const TTL = 10 * 60_000;

forEachBackend('once keys', (backend) => {
  async function open() {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    return { clock, once: store.once, store };
  }

  it('new, then pending while in progress, then done with the stored result', async () => {
    const { once } = await open();
    expect(await once.begin('T1:view:1', TTL)).toEqual({ state: 'new' });
    expect(await once.begin('T1:view:1', TTL)).toEqual({ state: 'pending' });
    expect(await once.begin('T1:view:2', TTL)).toEqual({ state: 'new' });
    expect(await once.finish('T1:view:1', '{"taskId":"t-9"}')).toBe(true);
    expect(await once.begin('T1:view:1', TTL)).toEqual({ state: 'done', result: '{"taskId":"t-9"}' });
    expect(await once.finish('T1:unknown', 'x')).toBe(false);
    expect(await once.begin('T1:unknown', TTL)).toEqual({ state: 'new' });
  });

  it('abandon lets the user try again', async () => {
    const { once } = await open();
    await once.begin('k', TTL);
    expect(await once.abandon('k')).toBe(true);
    expect(await once.abandon('k')).toBe(false);
    expect(await once.begin('k', TTL)).toEqual({ state: 'new' });
  });

  it('keys expire after their ttl: begin takes them over and purgeExpired removes them', async () => {
    const { clock, once, store } = await open();
    await once.begin('done', TTL);
    await once.finish('done', 'r1');
    await once.begin('pending', TTL);
    clock.advance(TTL / 2);
    await once.begin('younger', TTL);

    clock.advance(TTL / 2 - 1);
    expect(await once.begin('done', TTL)).toEqual({ state: 'done', result: 'r1' });
    expect(await once.begin('pending', TTL)).toEqual({ state: 'pending' });
    clock.advance(1);
    expect(await once.begin('pending', TTL)).toEqual({ state: 'new' });

    expect(await once.purgeExpired()).toBe(1); // 'done' expired; 'pending' was renewed
    const keys = await store.db.selectFrom('processed_interactions').select('key').orderBy('key').execute();
    expect(keys.map((k) => k.key)).toEqual(['pending', 'younger']);
    expect(await once.begin('done', TTL)).toEqual({ state: 'new' });
  });

  it('concurrent begins of one key: exactly one is new', async () => {
    const { once } = await open();
    const results = await Promise.all(Array.from({ length: 20 }, () => once.begin('race', TTL)));
    expect(results.filter((r) => r.state === 'new')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'pending')).toHaveLength(19);
  });

  it('refuses an empty key or a non-positive ttl', async () => {
    const { once, store } = await open();
    await expect(once.begin('', TTL)).rejects.toThrow(StoreValidationError);
    await expect(once.begin('k', 0)).rejects.toThrow(/Invalid once key: ttlMs/);
    expect(await store.db.selectFrom('processed_interactions').selectAll().execute()).toEqual([]);
  });
});

forEachBackend('locks', (backend) => {
  async function open() {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    return { clock, locks: store.locks, store };
  }

  it('one holder at a time; released, it can be taken again', async () => {
    const { locks } = await open();
    expect(await locks.acquire('card-press:T1:task:t1', TTL)).toBe(true);
    expect(await locks.acquire('card-press:T1:task:t1', TTL)).toBe(false);
    expect(await locks.acquire('card-press:T1:task:t2', TTL)).toBe(true);
    expect(await locks.release('card-press:T1:task:t1')).toBe(true);
    expect(await locks.release('card-press:T1:task:t1')).toBe(false);
    expect(await locks.acquire('card-press:T1:task:t1', TTL)).toBe(true);
  });

  it('a lease that ran out (its holder died) frees the lock', async () => {
    const { clock, locks } = await open();
    expect(await locks.acquire('digest-now:T1:C1', TTL)).toBe(true);
    clock.advance(TTL - 1);
    expect(await locks.acquire('digest-now:T1:C1', TTL)).toBe(false);
    clock.advance(1);
    expect(await locks.acquire('digest-now:T1:C1', TTL)).toBe(true);
  });

  it('concurrent acquires of one lock: exactly one holds it', async () => {
    const { locks } = await open();
    const results = await Promise.all(Array.from({ length: 20 }, () => locks.acquire('race', TTL)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('refuses an empty key or a non-positive lease', async () => {
    const { locks, store } = await open();
    await expect(locks.acquire('', TTL)).rejects.toThrow(StoreValidationError);
    await expect(locks.acquire('k', 0)).rejects.toThrow(/Invalid lock key: ttlMs/);
    expect(await store.db.selectFrom('processed_interactions').selectAll().execute()).toEqual([]);
  });

  it('replicas of the version before the split agree: a lock is a pending key, in the same row', async () => {
    // The version before took locks with `begin` and released them with `abandon`; in a deploy both
    // run together on one table. `store.once` takes keys exactly as that version did.
    const { clock, locks, store } = await open();
    const older = store.once;

    expect(await locks.acquire('provision:T1:U1', TTL)).toBe(true);
    expect(await older.begin('provision:T1:U1', TTL)).toEqual({ state: 'pending' });
    expect(await store.db.selectFrom('processed_interactions').selectAll().execute()).toEqual([
      {
        key: 'provision:T1:U1',
        state: 'pending',
        result: null,
        expires_at: clock.now() + TTL,
        created_at: clock.now(),
      },
    ]);
    expect(await older.abandon('provision:T1:U1')).toBe(true);
    expect(await locks.acquire('provision:T1:U1', TTL)).toBe(true);

    expect(await older.begin('card-press:T1:task:t1', TTL)).toEqual({ state: 'new' });
    expect(await locks.acquire('card-press:T1:task:t1', TTL)).toBe(false);
    expect(await locks.release('card-press:T1:task:t1')).toBe(true);
    expect(await older.begin('card-press:T1:task:t1', TTL)).toEqual({ state: 'new' });
  });
});
