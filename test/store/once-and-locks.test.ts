import { expect, it } from 'vitest';
import { OnceKeyUnavailableError, StoreValidationError } from '../../src/store/index.js';
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
    await expect(once.run('', TTL, async () => 1)).rejects.toThrow(StoreValidationError);
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
    const holder = await locks.acquire('card-press:T1:task:t1', TTL);
    expect(holder).toBeDefined();
    expect(await locks.acquire('card-press:T1:task:t1', TTL)).toBeUndefined();
    expect(await locks.acquire('card-press:T1:task:t2', TTL)).toBeDefined();
    expect(await locks.release('card-press:T1:task:t1', holder!)).toBe(true);
    expect(await locks.release('card-press:T1:task:t1', holder!)).toBe(false);
    expect(await locks.acquire('card-press:T1:task:t1', TTL)).toBeDefined();
  });

  it('a lease that ran out (its holder died) frees the lock', async () => {
    const { clock, locks } = await open();
    expect(await locks.acquire('digest-now:T1:C1', TTL)).toBeDefined();
    clock.advance(TTL - 1);
    expect(await locks.acquire('digest-now:T1:C1', TTL)).toBeUndefined();
    clock.advance(1);
    expect(await locks.acquire('digest-now:T1:C1', TTL)).toBeDefined();
  });

  it('concurrent acquires of one lock: exactly one holds it', async () => {
    const { locks } = await open();
    const results = await Promise.all(Array.from({ length: 20 }, () => locks.acquire('race', TTL)));
    expect(results.filter((holder) => holder !== undefined)).toHaveLength(1);
  });

  it('refuses an empty key or a non-positive lease', async () => {
    const { locks, store } = await open();
    await expect(locks.acquire('', TTL)).rejects.toThrow(StoreValidationError);
    await expect(locks.with('', TTL, async () => 1)).rejects.toThrow(StoreValidationError);
    await expect(locks.acquire('k', 0)).rejects.toThrow(/Invalid lock key: ttlMs/);
    expect(await store.db.selectFrom('processed_interactions').selectAll().execute()).toEqual([]);
  });

  it('replicas of the version before the split agree: a lock is a pending key, in the same row', async () => {
    // The version before took locks with `begin` and released them with `abandon`; in a deploy both
    // run together on one table. `store.once` takes keys exactly as that version did.
    const { clock, locks, store } = await open();
    const older = store.once;

    const holder = await locks.acquire('provision:T1:U1', TTL);
    expect(holder).toBeDefined();
    expect(await older.begin('provision:T1:U1', TTL)).toEqual({ state: 'pending' });
    expect(await store.db.selectFrom('processed_interactions').selectAll().execute()).toEqual([
      {
        key: 'provision:T1:U1',
        state: 'pending',
        // The holder's fence, where a pending once key keeps nothing: older versions see a pending key.
        result: holder,
        expires_at: clock.now() + TTL,
        created_at: clock.now(),
      },
    ]);
    expect(await older.abandon('provision:T1:U1')).toBe(true);
    expect(await locks.acquire('provision:T1:U1', TTL)).toBeDefined();

    // A lock an older version took (no fence) is held for this one, and freed by its release.
    expect(await older.begin('card-press:T1:task:t1', TTL)).toEqual({ state: 'new' });
    expect(await locks.acquire('card-press:T1:task:t1', TTL)).toBeUndefined();
    expect(await older.abandon('card-press:T1:task:t1')).toBe(true);
    expect(await older.begin('card-press:T1:task:t1', TTL)).toEqual({ state: 'new' });
  });
});

forEachBackend('once.run', (backend) => {
  async function open() {
    const clock = manualClock();
    const warnings: string[] = [];
    const logger = { info() {}, warn: (message: string) => warnings.push(message) };
    const store = await backend.open({ keyring: newKeyring(), now: clock.now, logger });
    return { clock, once: store.once, store, warnings };
  }

  /** A promise to settle by hand, for work that is still under way. */
  function gate<T>() {
    let open!: (value: T) => void;
    const promise = new Promise<T>((resolve) => {
      open = resolve;
    });
    return { promise, open };
  }

  it('the first call does the work; one meanwhile is pending; a later one gets the outcome back', async () => {
    const { once } = await open();
    const working = gate<{ taskId: string }>();
    let runs = 0;
    const work = () => {
      runs += 1;
      return working.promise;
    };
    const first = once.run('submission:T1:V1', TTL, work);
    await expect.poll(() => runs).toBe(1);
    expect(await once.run('submission:T1:V1', TTL, work)).toEqual({ state: 'pending', first: false });
    working.open({ taskId: 't-9' });
    expect(await first).toEqual({ state: 'done', value: { taskId: 't-9' }, first: true });
    expect(await once.run('submission:T1:V1', TTL, work)).toEqual({
      state: 'done',
      value: { taskId: 't-9' },
      first: false,
    });
    expect(runs).toBe(1);
  });

  it('concurrent runs of one key: the work is done exactly once', async () => {
    const { once } = await open();
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        once.run('race', TTL, async () => {
          runs += 1;
          return 'ok';
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(results.filter((r) => r.first)).toHaveLength(1);
  });

  it('a failure gives the key back by default: the work can be tried again', async () => {
    const { once } = await open();
    await expect(once.run('k', TTL, async () => Promise.reject(new Error('service down')))).rejects.toThrow(
      'service down',
    );
    expect(await once.run('k', TTL, async () => 'second')).toEqual({
      state: 'done',
      value: 'second',
      first: true,
    });
  });

  it("'keep' leaves the key taken after a failure until it expires", async () => {
    const { clock, once } = await open();
    await expect(
      once.run('k', TTL, async () => Promise.reject(new Error('half done')), { onFailure: 'keep' }),
    ).rejects.toThrow('half done');
    expect(await once.run('k', TTL, async () => 'again')).toEqual({ state: 'pending', first: false });
    clock.advance(TTL);
    expect(await once.run('k', TTL, async () => 'again')).toEqual({
      state: 'done',
      value: 'again',
      first: true,
    });
  });

  it('a failure turned into an outcome is recorded and replayed', async () => {
    const { once } = await open();
    const told = (error: unknown) => ({ error: (error as Error).message });
    type Outcome = { error: string } | { ok: true };
    const work = async (): Promise<Outcome> => {
      throw new Error('refused');
    };
    expect(await once.run('step:T1:E1', TTL, work, { onFailure: told })).toEqual({
      state: 'done',
      value: { error: 'refused' },
      first: true,
    });
    expect(
      await once.run('step:T1:E1', TTL, async (): Promise<Outcome> => ({ ok: true }), { onFailure: told }),
    ).toEqual({
      state: 'done',
      value: { error: 'refused' },
      first: false,
    });
  });

  it('releaseIf gives the key back after an outcome that did nothing; a codec stores the outcome as it says', async () => {
    const { once, store } = await open();
    expect(await once.run('outbox:1', TTL, async () => 'held', { releaseIf: (o) => o === 'held' })).toEqual({
      state: 'done',
      value: 'held',
      first: true,
    });
    expect(await store.db.selectFrom('processed_interactions').selectAll().execute()).toEqual([]);
    const codec = { encode: (n: number) => `n=${n}`, decode: (text: string) => Number(text.slice(2)) };
    await once.run('coded', TTL, async () => 7, { codec });
    const row = await store.db.selectFrom('processed_interactions').select('result').executeTakeFirst();
    expect(row?.result).toBe('n=7');
    expect(await once.run('coded', TTL, async () => 8, { codec })).toEqual({
      state: 'done',
      value: 7,
      first: false,
    });
  });

  it('the store failing before the work: OnceKeyUnavailableError, and nothing done', async () => {
    const { once, store } = await open();
    await store.close();
    let runs = 0;
    await expect(
      once.run('k', TTL, async () => {
        runs += 1;
      }),
    ).rejects.toThrow(OnceKeyUnavailableError);
    expect(runs).toBe(0);
  });

  it('an outcome that cannot be recorded after the work is logged by its use only, and still returned', async () => {
    const { once, store, warnings } = await open();
    const result = await once.run('profile:T1:U1:v1', TTL, async () => {
      // The work done, the key gone (purged, expired and taken over): finish touches nothing, and a
      // closed database makes it throw.
      await store.close();
      return 'applied';
    });
    expect(result).toEqual({ state: 'done', value: 'applied', first: true });
    expect(warnings.join('\n')).toContain('once key "profile:…" done but its outcome not recorded');
    expect(warnings.join('\n')).not.toContain('U1');
  });
});

forEachBackend('locks.with', (backend) => {
  async function open() {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    return { clock, locks: store.locks, store };
  }

  it('runs the work holding the lock, and releases it after, also when the work throws', async () => {
    const { locks } = await open();
    let inside: unknown;
    const done = await locks.with('digest-now:T1:C1', TTL, async () => {
      inside = await locks.with('digest-now:T1:C1', TTL, async () => 'second');
      return 'first';
    });
    expect(done).toEqual({ ran: true, value: 'first' });
    expect(inside).toEqual({ ran: false });
    await expect(
      locks.with('digest-now:T1:C1', TTL, async () => Promise.reject(new Error('post failed'))),
    ).rejects.toThrow('post failed');
    expect(await locks.with('digest-now:T1:C1', TTL, async () => 'free again')).toEqual({
      ran: true,
      value: 'free again',
    });
  });

  it('fenced: a holder whose lease ran out never frees the lock someone took after it', async () => {
    const { clock, locks } = await open();
    const first = await locks.with('card-press:T1:task:t1', TTL, async () => {
      clock.advance(TTL); // this holder is slow: its lease runs out and another takes the lock
      const second = await locks.acquire('card-press:T1:task:t1', TTL);
      expect(second).toBeDefined();
      return second;
    });
    expect(first.ran).toBe(true);
    // The first holder's release did not free the second's lock.
    const third = await locks.with('card-press:T1:task:t1', TTL, async () => 'third');
    expect(third).toEqual({ ran: false });
  });
});
