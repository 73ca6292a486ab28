import { expect, it } from 'vitest';
import { StoreValidationError } from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

forEachBackend('notification preferences and outbox', (backend) => {
  it('keeps one set of preferences per person and workspace, replaced on save', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    expect(await store.notifications.prefs('T1', 'U1')).toBeUndefined();
    await store.notifications.savePrefs('T1', 'U1', {
      muted: ['reply', 'feedback', 'reply'],
      quiet: { start: '22:00', end: '07:30' },
      timeZone: 'Europe/Paris',
    });
    await store.notifications.savePrefs('T2', 'U1', { muted: [], timeZone: 'UTC' });
    expect(await store.notifications.prefs('T1', 'U1')).toEqual({
      muted: ['feedback', 'reply'],
      quiet: { start: '22:00', end: '07:30' },
      timeZone: 'Europe/Paris',
    });
    await store.notifications.savePrefs('T1', 'U1', { muted: [], timeZone: 'Europe/Paris' });
    expect(await store.notifications.prefs('T1', 'U1')).toEqual({ muted: [], timeZone: 'Europe/Paris' });
    expect(await store.notifications.prefs('T2', 'U1')).toEqual({ muted: [], timeZone: 'UTC' });

    await store.installations.deleteWorkspace('T1');
    expect(await store.notifications.prefs('T1', 'U1')).toBeUndefined();
  });

  it('refuses quiet hours that are not HH:MM, naming the field', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await expect(
      store.notifications.savePrefs('T1', 'U1', {
        muted: [],
        quiet: { start: '25:00', end: '7' },
        timeZone: 'UTC',
      }),
    ).rejects.toThrow(StoreValidationError);
    expect(await store.notifications.prefs('T1', 'U1')).toBeUndefined();
  });

  it('hands out held DMs once due, oldest first; removed once; retried later', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const base = { workspaceId: 'T1', slackUserId: 'U1', kind: 'feedback', body: '{"text":"hi"}' };
    const late = await store.notifications.enqueue({ ...base, deliverAt: clock.t + 2_000 });
    const early = await store.notifications.enqueue({ ...base, deliverAt: clock.t + 1_000 });
    expect(await store.notifications.due(clock.t)).toEqual([]);
    expect((await store.notifications.due(clock.t + 5_000)).map((i) => i.id)).toEqual([early, late]);

    await store.notifications.retryLater(early, clock.t + 10_000);
    const [first] = await store.notifications.due(clock.t + 5_000);
    expect(first).toMatchObject({ id: late, attempts: 0, body: '{"text":"hi"}' });
    expect((await store.notifications.due(clock.t + 10_000)).find((i) => i.id === early)?.attempts).toBe(1);

    expect(await store.notifications.remove(late)).toBe(true);
    expect(await store.notifications.remove(late)).toBe(false);
  });
});
