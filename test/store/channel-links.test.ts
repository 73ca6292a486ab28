import { expect, it } from 'vitest';
import {
  type ChannelLink,
  type ChannelLinkInput,
  DIGEST_DEFAULTS,
  LINK_DEFAULTS,
  type Store,
  StoreValidationError,
} from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

const link = (workspaceId: string, slackChannelId: string, extra: Partial<ChannelLinkInput> = {}) => ({
  workspaceId,
  slackChannelId,
  teamId: `team-${slackChannelId}`,
  channelId: `chan-${slackChannelId}`,
  createdBy: 'U1',
  ...extra,
});

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<StoreValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreValidationError);
  return error as StoreValidationError;
}

/** Inserts many links in one statement per chunk (the repo's upsert is one at a time). */
async function bulkLinks(store: Store, count: number, enabled: (i: number) => boolean) {
  const rows = Array.from({ length: count }, (_, i) => ({
    workspace_id: `T${i % 7}`,
    slack_channel_id: `C${String(i).padStart(5, '0')}`,
    team_id: 'team',
    channel_id: 'chan',
    digest_time: '09:00',
    time_zone: 'UTC',
    weekdays_only: 1,
    digest_enabled: enabled(i) ? 1 : 0,
    created_by: 'U1',
    created_at: 0,
    updated_at: 0,
  }));
  for (let i = 0; i < rows.length; i += 200) {
    await store.db
      .insertInto('channel_links')
      .values(rows.slice(i, i + 200))
      .execute();
  }
}

forEachBackend('channel links', (backend) => {
  it('creates a link with the digest defaults', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const created = await store.links.upsert(link('T1', 'C1'));
    expect(created).toEqual<ChannelLink>({
      ...link('T1', 'C1'),
      ...DIGEST_DEFAULTS,
      ...LINK_DEFAULTS,
      digestFrom: new Date(clock.t),
      createdAt: new Date(clock.t),
      updatedAt: new Date(clock.t),
    });
    expect(DIGEST_DEFAULTS).toEqual({
      digestTime: '09:00',
      timeZone: 'UTC',
      weekdaysOnly: true,
      digestEnabled: true,
    });
    expect(await store.links.get('T1', 'C1')).toEqual(created);
    expect(await store.links.get('T2', 'C1')).toBeUndefined();
  });

  it('records the last digest posted on demand: the later one stays, an unlinked channel records nothing (issue 36 item 3)', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    await store.links.upsert(link('T1', 'C1'));
    expect((await store.links.get('T1', 'C1'))?.lastDigestNow).toBeUndefined();

    clock.advance(60_000);
    expect(await store.links.recordDigestNow('T1', 'C1', '1700000000.000100')).toBe(true);
    const first = { messageTs: '1700000000.000100', postedAt: new Date(clock.t) };
    expect((await store.links.get('T1', 'C1'))?.lastDigestNow).toEqual(first);
    expect((await store.links.listByWorkspace('T1'))[0]?.lastDigestNow).toEqual(first);

    // A replica whose clock is behind records an older post: the later one stays.
    clock.advance(-30_000);
    expect(await store.links.recordDigestNow('T1', 'C1', '1700000000.000050')).toBe(false);
    expect((await store.links.get('T1', 'C1'))?.lastDigestNow).toEqual(first);
    clock.advance(90_000);
    expect(await store.links.recordDigestNow('T1', 'C1', '1700000000.000200')).toBe(true);
    expect((await store.links.get('T1', 'C1'))?.lastDigestNow).toEqual({
      messageTs: '1700000000.000200',
      postedAt: new Date(clock.t),
    });
    // Settings changed later keep it; another workspace's same channel id has none.
    await store.links.update('T1', 'C1', { digestTime: '10:00' });
    expect((await store.links.get('T1', 'C1'))?.lastDigestNow?.messageTs).toBe('1700000000.000200');
    expect(await store.links.recordDigestNow('T2', 'C1', '1700000000.000300')).toBe(false);
    expect(await store.links.get('T2', 'C1')).toBeUndefined();
    await rejection(store.links.recordDigestNow('T1', 'C1', ''));
  });

  it('rebinding keeps the digest settings it was not given', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const first = await store.links.upsert(
      link('T1', 'C1', { digestTime: '17:30', timeZone: 'Europe/Paris', weekdaysOnly: false }),
    );
    clock.advance(1000);
    const rebound = await store.links.upsert(
      link('T1', 'C1', { teamId: 'team-2', createdBy: 'U2', digestEnabled: false }),
    );
    expect(rebound).toMatchObject({
      teamId: 'team-2',
      createdBy: 'U2',
      digestTime: '17:30',
      timeZone: 'Europe/Paris',
      weekdaysOnly: false,
      digestEnabled: false,
    });
    expect(rebound.createdAt).toEqual(first.createdAt);
    expect(rebound.updatedAt).toEqual(new Date(clock.t));
  });

  it('restarts the digest schedule when it really changes, never when a setting is repeated', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const linkedAt = new Date(clock.t);
    expect((await store.links.upsert(link('T1', 'C1'))).digestFrom).toEqual(linkedAt);
    const from = async () => (await store.links.get('T1', 'C1'))?.digestFrom;

    // The same settings again, and turning off: the schedule in force is unchanged.
    clock.advance(1000);
    await store.links.update('T1', 'C1', {
      digestTime: '09:00',
      timeZone: 'UTC',
      weekdaysOnly: true,
      digestEnabled: true,
    });
    expect(await from()).toEqual(linkedAt);
    clock.advance(1000);
    await store.links.update('T1', 'C1', { digestEnabled: false });
    expect(await from()).toEqual(linkedAt);

    // On again, and each real change, start it afresh.
    for (const patch of [
      { digestEnabled: true },
      { digestTime: '08:30' },
      { timeZone: 'Europe/Paris' },
      { weekdaysOnly: false },
    ]) {
      clock.advance(1000);
      await store.links.update('T1', 'C1', patch);
      expect(await from(), JSON.stringify(patch)).toEqual(new Date(clock.t));
    }
    // Linking again is a new schedule too.
    clock.advance(1000);
    await store.links.upsert(link('T1', 'C1', { teamId: 'team-2' }));
    expect(await from()).toEqual(new Date(clock.t));
  });

  it('updates digest settings; unknown links give undefined', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.links.upsert(link('T1', 'C1'));
    const updated = await store.links.update('T1', 'C1', {
      digestTime: '07:05',
      timeZone: 'America/New_York',
    });
    expect(updated).toMatchObject({ digestTime: '07:05', timeZone: 'America/New_York', weekdaysOnly: true });
    expect(await store.links.update('T1', 'C1', {})).toEqual(await store.links.get('T1', 'C1'));
    expect(await store.links.update('T2', 'C1', { digestEnabled: false })).toBeUndefined();
    expect(await store.links.get('T2', 'C1')).toBeUndefined();
  });

  it('refuses a bad digest time or time zone with a clear error and changes nothing', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    for (const digestTime of ['9:00', '24:00', '12:60', 'noon', '']) {
      const error = await rejection(store.links.upsert(link('T1', 'C1', { digestTime })));
      expect(error.message).toBe('Invalid channel link: digestTime must be HH:MM, from 00:00 to 23:59');
    }
    for (const timeZone of ['Mars/Olympus_Mons', 'Europe/Pariss', '']) {
      const error = await rejection(store.links.upsert(link('T1', 'C1', { timeZone })));
      expect(error.message).toBe(
        'Invalid channel link: timeZone must be an IANA time zone such as Europe/Paris',
      );
    }
    expect(await store.links.get('T1', 'C1')).toBeUndefined();

    await store.links.upsert(link('T1', 'C1'));
    const error = await rejection(
      store.links.update('T1', 'C1', { digestTime: '25:00', timeZone: 'Nowhere' }),
    );
    expect(error.problems).toHaveLength(2);
    await rejection(store.links.update('T1', 'C1', { createdBy: 'U9' } as never));
    await rejection(store.links.upsert({ ...link('T1', 'C2'), teamId: '' }));
    expect(await store.links.get('T1', 'C1')).toMatchObject({
      digestTime: '09:00',
      timeZone: 'UTC',
      createdBy: 'U1',
    });
  });

  it('lists a workspace’s links and deletes one with its digest history', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.links.upsert(link('T1', 'C2'));
    await store.links.upsert(link('T1', 'C1'));
    await store.links.upsert(link('T2', 'C1'));
    const claim = { slackChannelId: 'C1', localDate: '2025-01-06', owner: 'o', leaseMs: 1000 };
    await store.digests.claim({ workspaceId: 'T1', ...claim });
    await store.digests.claim({ workspaceId: 'T2', ...claim });

    expect((await store.links.listByWorkspace('T1')).map((l) => l.slackChannelId)).toEqual(['C1', 'C2']);
    expect(await store.links.delete('T1', 'C1')).toBe(true);
    expect(await store.links.delete('T1', 'C1')).toBe(false);
    expect((await store.links.listByWorkspace('T1')).map((l) => l.slackChannelId)).toEqual(['C2']);
    const claims = await store.db.selectFrom('digest_claims').select('workspace_id').execute();
    expect(claims).toEqual([{ workspace_id: 'T2' }]);
    expect(await store.links.get('T2', 'C1')).toBeDefined();
  });

  it('keeps the watch and thread settings per link, and deleting a link forgets what the watch saw of it', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.links.upsert(link('T1', 'C1'));
    await store.links.upsert(link('T1', 'C2', { watchEnabled: false, threadDiscoveries: true }));
    expect(await store.links.get('T1', 'C2')).toMatchObject({ watchEnabled: false, threadDiscoveries: true });
    // A rebind without them keeps them; a patch changes only what it names.
    await store.links.upsert(link('T1', 'C2', { teamId: 'other' }));
    expect(await store.links.get('T1', 'C2')).toMatchObject({ watchEnabled: false, threadDiscoveries: true });
    await store.links.update('T1', 'C1', { threadDiscoveries: true });
    expect(await store.links.get('T1', 'C1')).toMatchObject({ watchEnabled: true, threadDiscoveries: true });
    expect((await all(store.links.listWatched())).map((l) => l.slackChannelId)).toEqual(['C1']);

    const rows = { workspace_id: 'T1', slack_channel_id: 'C1' };
    await store.db
      .insertInto('watch_links')
      .values({ ...rows, next_at: 0, updated_at: 0 })
      .execute();
    await store.db
      .insertInto('watch_features')
      .values({ ...rows, feature_id: 'f1', updated_at: null, seen: '{}', seen_at: 0 })
      .execute();
    await store.links.delete('T1', 'C1');
    expect(await store.db.selectFrom('watch_links').selectAll().execute()).toEqual([]);
    expect(await store.db.selectFrom('watch_features').selectAll().execute()).toEqual([]);
  });

  it('listDigestEnabled pages through every enabled link of every workspace exactly once', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await bulkLinks(store, 1203, (i) => i % 5 !== 0);
    const expected = (
      await store.db.selectFrom('channel_links').selectAll().where('digest_enabled', '=', 1).execute()
    )
      .map((r) => `${r.workspace_id}/${r.slack_channel_id}`)
      .sort();
    expect(expected).toHaveLength(962);

    for (const pageSize of [1, 7, 100, undefined]) {
      const seen = (await all(store.links.listDigestEnabled(pageSize ? { pageSize } : {}))).map(
        (l) => `${l.workspaceId}/${l.slackChannelId}`,
      );
      expect(seen).toEqual(expected);
    }
    expect((await all(store.links.listDigestEnabled()))[0]).toMatchObject({
      digestEnabled: true,
      weekdaysOnly: true,
    });
  });
});
