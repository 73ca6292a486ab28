import { expect, it } from 'vitest';
import { startHousekeeping } from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

const DAY = 24 * 60 * 60_000;

forEachBackend('store housekeeping', (backend) => {
  it('removes expired once keys and locks and old digest claims, keeping what is still needed', async () => {
    const clock = manualClock(Date.UTC(2025, 0, 1, 8));
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const digest = async (slackChannelId: string, localDate: string, status: 'posted' | 'failed') => {
      const key = { workspaceId: 'T1', slackChannelId, localDate };
      const claim = await store.digests.claim({ ...key, owner: 'me', leaseMs: 60_000 });
      if (!claim.claimed) throw new Error('not claimed');
      await store.digests.complete({
        ...key,
        owner: 'me',
        outcome:
          status === 'posted'
            ? { status, messageTs: `${localDate}.1`, snapshot: '{}' }
            : { status, error: 'x', retryAt: clock.now() },
      });
    };
    await digest('C1', '2025-01-01', 'posted');
    await digest('C1', '2025-01-02', 'failed');
    await digest('C1', '2025-02-20', 'posted');
    await digest('C2', '2025-01-01', 'posted'); // C2's latest posted digest: kept however old
    await store.once.begin('old', 60_000);
    await store.locks.acquire('old-lock', 60_000);
    const card = { workspaceId: 'T1', kind: 'task' as const, slackChannelId: 'C1' };
    await store.cards.record({ ...card, entityId: 'task-1', messageTs: '1.1' });
    const reply = {
      workspaceId: 'T1',
      slackChannelId: 'C1',
      threadTs: '1.1',
      authorSlackId: 'U1',
      place: { orgId: 'o', teamId: 't', channelId: 'c', featureId: 'f' },
      taskId: 'task-1',
    };
    await store.threadDiscoveries.record({ ...reply, messageTs: '1.2', discoveryId: 'd1' });
    clock.advance(60 * DAY);
    await store.cards.record({ ...card, entityId: 'task-2', messageTs: '2.1' });
    await store.threadDiscoveries.record({ ...reply, messageTs: '1.3', discoveryId: 'd2' });
    await store.once.begin('fresh', 60_000);

    const logs: string[] = [];
    const housekeeping = startHousekeeping(store, { info: (m) => logs.push(m), warn: (m) => logs.push(m) });
    await housekeeping.stop(); // waits for the run made at start
    expect(logs).toEqual([
      'Store housekeeping: removed 2 expired once keys and locks, 2 old digest claims, 0 old cards, 0 old notes of what Slack did, 0 old thread replies recorded as discoveries',
    ]);

    const rows = await store.db
      .selectFrom('digest_claims')
      .select(['slack_channel_id', 'local_date'])
      .execute();
    expect(rows.map((r) => `${r.slack_channel_id}/${r.local_date}`).sort()).toEqual([
      'C1/2025-02-20',
      'C2/2025-01-01',
    ]);
    expect(await store.once.begin('fresh', 60_000)).toEqual({ state: 'pending' });
    expect(await housekeeping.runOnce()).toEqual({
      keys: 0,
      digestClaims: 0,
      cards: 0,
      slackNotes: 0,
      threadDiscoveries: 0,
    });
    // Cards (and replies recorded as discoveries) are kept 180 days: task-1's go first.
    clock.advance(150 * DAY);
    expect(await housekeeping.runOnce()).toEqual({
      keys: 1,
      digestClaims: 0,
      cards: 1,
      slackNotes: 0,
      threadDiscoveries: 1,
    });
    expect((await store.cards.list('T1', 'task', 'task-2')).map((c) => c.messageTs)).toEqual(['2.1']);
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.2')).toBeUndefined();
    expect(await store.threadDiscoveries.get('T1', 'C1', '1.3')).toBeDefined();
  });
});

it('a failing run is logged, not thrown', async () => {
  const warnings: string[] = [];
  const housekeeping = startHousekeeping(
    {
      once: { purgeExpired: async () => Promise.reject(new Error('database is locked')) },
      digests: { purgeOlderThan: async () => 0 },
      cards: { purgeOlderThan: async () => 0 },
      slackNotes: { purgeOlderThan: async () => 0 },
      threadDiscoveries: { purgeOlderThan: async () => 0 },
    },
    { info: () => {}, warn: (m) => warnings.push(m) },
  );
  await housekeeping.stop();
  expect(warnings).toEqual(['Store housekeeping failed (retried next hour): database is locked']);
});
