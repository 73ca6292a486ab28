import { expect, it } from 'vitest';
import { StoreValidationError } from '../../src/store/index.js';
import { forEachBackend, newKeyring } from '../helpers/store-backends.js';

forEachBackend('task origins', (backend) => {
  const origin = (ws: string, taskId: string, threadTs = '1.1') => ({
    workspaceId: ws,
    taskId,
    teamId: 'team',
    channelId: 'chan',
    featureId: 'feat',
    authorSlackId: 'U1',
    slackChannelId: 'C1',
    threadTs,
  });

  it('remembers where and by whom a task was created, per workspace, found by task or by thread', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.taskOrigins.record(origin('T1', 't1'));
    await store.taskOrigins.record({ ...origin('T1', 't1'), authorSlackId: 'U2' }); // again: kept as first recorded
    await store.taskOrigins.record(origin('T2', 't1')); // another workspace
    expect(await store.taskOrigins.get('T1', 't1')).toMatchObject({ authorSlackId: 'U1', threadTs: '1.1' });
    expect(await store.taskOrigins.findByThread('T1', 'C1', '1.1')).toMatchObject({ taskId: 't1' });
    expect(await store.taskOrigins.findByThread('T1', 'C1', '2.2')).toBeUndefined();
    expect(await store.taskOrigins.get('T3', 't1')).toBeUndefined();

    expect(await store.taskOrigins.forget('T1', 't1')).toBe(true);
    expect(await store.taskOrigins.forget('T1', 't1')).toBe(false);
    expect(await store.taskOrigins.get('T2', 't1')).toBeDefined();

    // app_uninstalled forgets the workspace's origins with the rest.
    await store.installations.deleteWorkspace('T2');
    expect(await store.taskOrigins.get('T2', 't1')).toBeUndefined();
  });

  it('refuses an origin without its ids', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await expect(store.taskOrigins.record({ ...origin('T1', 't1'), authorSlackId: '' })).rejects.toThrow(
      StoreValidationError,
    );
  });
});
