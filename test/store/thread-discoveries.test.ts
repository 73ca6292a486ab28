import { expect, it } from 'vitest';
import { StoreValidationError } from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

forEachBackend('thread discoveries', (backend) => {
  const entry = (ws: string, messageTs: string, discoveryId = 'd1') => ({
    workspaceId: ws,
    slackChannelId: 'C1',
    messageTs,
    threadTs: '1.0',
    authorSlackId: 'U1',
    place: { orgId: 'org', teamId: 'team', channelId: 'chan', featureId: 'feat' },
    taskId: 'task',
    discoveryId,
  });

  it('remembers which reply became which discovery, per workspace, and forgets it', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.threadDiscoveries.record(entry('T1', '1.1'));
    // Recorded again (a retry that got past its once key): kept as first recorded.
    await store.threadDiscoveries.record(entry('T1', '1.1', 'd2'));
    await store.threadDiscoveries.record(entry('T2', '1.1', 'd9'));
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.1')).toEqual(entry('T1', '1.1'));
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.2')).toBeUndefined();
    expect(await store.threadDiscoveries.get('T3', 'C1', '1.1')).toBeUndefined();

    expect(await store.threadDiscoveries.forget('T1', 'C1', '1.1')).toBe(true);
    expect(await store.threadDiscoveries.forget('T1', 'C1', '1.1')).toBe(false);
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.1')).toBeUndefined();
    // Another workspace's entry with the same channel and ts is its own.
    expect(await store.threadDiscoveries.get('T2', 'C1', '1.1')).toMatchObject({ discoveryId: 'd9' });
  });

  it('forgets a workspace’s entries when the app is uninstalled there, and only that workspace’s', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.threadDiscoveries.record(entry('T1', '1.1'));
    await store.threadDiscoveries.record(entry('T2', '1.1'));
    await store.installations.deleteWorkspace('T1');
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.1')).toBeUndefined();
    expect(await store.threadDiscoveries.get('T2', 'C1', '1.1')).toBeDefined();
  });

  it('purges old entries, and refuses bad input with nothing stored', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    await store.threadDiscoveries.record(entry('T1', '1.1'));
    clock.advance(3 * 24 * 60 * 60 * 1000);
    await store.threadDiscoveries.record(entry('T1', '1.2'));
    expect(await store.threadDiscoveries.purgeOlderThan(2)).toBe(1);
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.1')).toBeUndefined();
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.2')).toBeDefined();

    await expect(
      store.threadDiscoveries.record({ ...entry('T1', '1.3'), discoveryId: '' }),
    ).rejects.toBeInstanceOf(StoreValidationError);
    await expect(
      store.threadDiscoveries.record({
        ...entry('T1', '1.3'),
        place: { ...entry('T1', '1.3').place, orgId: '' },
      }),
    ).rejects.toBeInstanceOf(StoreValidationError);
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.3')).toBeUndefined();
  });
});
