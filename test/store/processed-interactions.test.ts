import { expect, it } from 'vitest';
import { StoreValidationError } from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from './backends.js';

const TTL = 10 * 60_000;

forEachBackend('processed interactions', (backend) => {
  async function open() {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    return { clock, interactions: store.interactions, store };
  }

  it('new, then pending while in progress, then done with the stored result', async () => {
    const { interactions } = await open();
    expect(await interactions.begin('T1:view:1', TTL)).toEqual({ state: 'new' });
    expect(await interactions.begin('T1:view:1', TTL)).toEqual({ state: 'pending' });
    expect(await interactions.begin('T1:view:2', TTL)).toEqual({ state: 'new' });
    expect(await interactions.finish('T1:view:1', '{"taskId":"t-9"}')).toBe(true);
    expect(await interactions.begin('T1:view:1', TTL)).toEqual({ state: 'done', result: '{"taskId":"t-9"}' });
    expect(await interactions.finish('T1:unknown', 'x')).toBe(false);
    expect(await interactions.begin('T1:unknown', TTL)).toEqual({ state: 'new' });
  });

  it('abandon lets the user try again', async () => {
    const { interactions } = await open();
    await interactions.begin('k', TTL);
    expect(await interactions.abandon('k')).toBe(true);
    expect(await interactions.abandon('k')).toBe(false);
    expect(await interactions.begin('k', TTL)).toEqual({ state: 'new' });
  });

  it('keys expire after their ttl: begin takes them over and purgeExpired removes them', async () => {
    const { clock, interactions, store } = await open();
    await interactions.begin('done', TTL);
    await interactions.finish('done', 'r1');
    await interactions.begin('pending', TTL);
    clock.advance(TTL / 2);
    await interactions.begin('younger', TTL);

    clock.advance(TTL / 2 - 1);
    expect(await interactions.begin('done', TTL)).toEqual({ state: 'done', result: 'r1' });
    expect(await interactions.begin('pending', TTL)).toEqual({ state: 'pending' });
    clock.advance(1);
    expect(await interactions.begin('pending', TTL)).toEqual({ state: 'new' });

    expect(await interactions.purgeExpired()).toBe(1); // 'done' expired; 'pending' was renewed
    const keys = await store.db.selectFrom('processed_interactions').select('key').orderBy('key').execute();
    expect(keys.map((k) => k.key)).toEqual(['pending', 'younger']);
    expect(await interactions.begin('done', TTL)).toEqual({ state: 'new' });
  });

  it('concurrent begins of one key: exactly one is new', async () => {
    const { interactions } = await open();
    const results = await Promise.all(Array.from({ length: 20 }, () => interactions.begin('race', TTL)));
    expect(results.filter((r) => r.state === 'new')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'pending')).toHaveLength(19);
  });

  it('refuses an empty key or a non-positive ttl', async () => {
    const { interactions, store } = await open();
    await expect(interactions.begin('', TTL)).rejects.toThrow(StoreValidationError);
    await expect(interactions.begin('k', 0)).rejects.toThrow(/Invalid interaction key: ttlMs/);
    expect(await store.db.selectFrom('processed_interactions').selectAll().execute()).toEqual([]);
  });
});
