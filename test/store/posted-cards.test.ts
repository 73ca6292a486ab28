import { expect, it } from 'vitest';
import { StoreValidationError } from '../../src/store/index.js';
import { forEachBackend, newKeyring } from '../helpers/store-backends.js';

forEachBackend('posted cards', (backend) => {
  it('remembers each card of an entity once, per workspace, and forgets them', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const card = (ws: string, ch: string, ts: string, entityId = 't1') => ({
      workspaceId: ws,
      kind: 'task' as const,
      entityId,
      slackChannelId: ch,
      messageTs: ts,
    });
    await store.cards.record(card('T1', 'C1', '1.1'));
    await store.cards.record(card('T1', 'C1', '1.1')); // again: no second row
    await store.cards.record(card('T1', 'C2', '2.1'));
    await store.cards.record(card('T2', 'C1', '1.1')); // another workspace
    await store.cards.record({ ...card('T1', 'C3', '3.1'), kind: 'feature' });
    await store.cards.record(card('T1', 'C1', '9.9', 't2'));

    const t1 = await store.cards.list('T1', 'task', 't1');
    expect(t1.map((c) => `${c.slackChannelId}/${c.messageTs}`)).toEqual(['C1/1.1', 'C2/2.1']);
    expect(await store.cards.list('T2', 'task', 't1')).toHaveLength(1);
    expect(await store.cards.list('T1', 'feature', 't1')).toHaveLength(1);

    expect(await store.cards.forget('T1', 'C2', '2.1')).toBe(true);
    expect(await store.cards.forget('T1', 'C2', '2.1')).toBe(false);
    expect(await store.cards.forgetEntity('T1', 'task', 't1')).toBe(1);
    expect(await store.cards.list('T1', 'task', 't1')).toEqual([]);
    expect(await store.cards.list('T2', 'task', 't1')).toHaveLength(1);
    expect(await store.cards.list('T1', 'task', 't2')).toHaveLength(1);

    // app_uninstalled forgets the workspace's cards with the rest.
    await store.installations.deleteWorkspace('T2');
    expect(await store.cards.list('T2', 'task', 't1')).toEqual([]);
  });

  it("lists an entity's cards and its feature's in one read, each oldest first, nothing of another entity or workspace", async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const card = (ws: string, kind: 'task' | 'feature', entityId: string, ch: string, ts: string) => ({
      workspaceId: ws,
      kind,
      entityId,
      slackChannelId: ch,
      messageTs: ts,
    });
    await store.cards.record(card('T1', 'task', 't1', 'C1', '1.1'));
    await store.cards.record(card('T1', 'feature', 'f1', 'C1', '1.0'));
    await store.cards.record(card('T1', 'task', 't1', 'C2', '2.1'));
    await store.cards.record(card('T1', 'feature', 'f1', 'C2', '2.0'));
    await store.cards.record(card('T1', 'task', 't2', 'C1', '1.2')); // another task
    await store.cards.record(card('T1', 'feature', 'f2', 'C1', '1.3')); // another feature
    await store.cards.record(card('T1', 'task', 'f1', 'C1', '1.4')); // a task whose id is the feature's
    await store.cards.record(card('T1', 'feature', 't1', 'C1', '1.5')); // a feature whose id is the task's
    await store.cards.record(card('T2', 'feature', 'f1', 'C1', '1.0')); // another workspace

    const names = (cards: { slackChannelId: string; messageTs: string }[]) =>
      cards.map((c) => `${c.slackChannelId}/${c.messageTs}`);
    const forTask = await store.cards.listWithFeature('T1', 'task', 't1', 'f1');
    expect(names(forTask.entity)).toEqual(['C1/1.1', 'C2/2.1']);
    expect(names(forTask.feature)).toEqual(['C1/1.0', 'C2/2.0']);
    // Each list is what `list` answers for it.
    expect(forTask.entity).toEqual(await store.cards.list('T1', 'task', 't1'));
    expect(forTask.feature).toEqual(await store.cards.list('T1', 'feature', 'f1'));

    // A feature's own cards are both lists.
    const forFeature = await store.cards.listWithFeature('T1', 'feature', 'f1', 'f1');
    expect(names(forFeature.entity)).toEqual(['C1/1.0', 'C2/2.0']);
    expect(forFeature.feature).toEqual(forFeature.entity);

    expect(await store.cards.listWithFeature('T1', 'task', 'nope', 'nope')).toEqual({
      entity: [],
      feature: [],
    });
  });

  it("keeps the place of a card's entity; a card recorded without one gets it once, others keep theirs", async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const place = { orgId: 'O1', teamId: 'tm1', channelId: 'ch1', featureId: 'f1' };
    const card = (ts: string) => ({
      workspaceId: 'T1',
      kind: 'task' as const,
      entityId: 't1',
      slackChannelId: 'C1',
      messageTs: ts,
    });
    await store.cards.record({ ...card('1.1'), place });
    await store.cards.record(card('2.1')); // as a replica of the previous version records it
    expect((await store.cards.list('T1', 'task', 't1')).map((c) => c.place)).toEqual([place, undefined]);
    expect(await store.cards.find('T1', 'C1', '1.1')).toMatchObject({ place });

    const read = { ...place, teamId: 'tm2' };
    expect(await store.cards.place('T1', 'task', 't1', read)).toBe(1);
    expect(await store.cards.place('T1', 'task', 't1', read)).toBe(0);
    expect((await store.cards.list('T1', 'task', 't1')).map((c) => c.place)).toEqual([place, read]);
    await expect(store.cards.place('T1', 'task', 't1', { ...place, orgId: '' })).rejects.toThrow(
      StoreValidationError,
    );
  });

  it('keeps the thread a card was posted in as a reply; a card of its own, or of an older replica, has none', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const card = (ts: string, threadTs?: string) => ({
      workspaceId: 'T1',
      kind: 'task' as const,
      entityId: 't1',
      slackChannelId: 'C1',
      messageTs: ts,
      ...(threadTs ? { threadTs } : {}),
    });
    await store.cards.record(card('2.1', '1.1'));
    await store.cards.record(card('3.1'));
    await store.cards.record(card('4.1', '4.1'));
    expect((await store.cards.list('T1', 'task', 't1')).map((c) => c.threadTs)).toEqual([
      '1.1',
      undefined,
      undefined,
    ]);
    expect(await store.cards.find('T1', 'C1', '2.1')).toMatchObject({ threadTs: '1.1' });
  });

  it('refuses a card without its ids, naming the field', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await expect(
      store.cards.record({
        workspaceId: 'T1',
        kind: 'task',
        entityId: '',
        slackChannelId: 'C1',
        messageTs: '1',
      }),
    ).rejects.toThrow(StoreValidationError);
  });
});

forEachBackend('experiment participants', (backend) => {
  it('are kept per workspace and assumption, replaced, and forgotten with an empty list', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.participants.set('T1', 'a1', ['p1', 'p2', 'p1']);
    await store.participants.set('T2', 'a1', ['p9']);
    expect(await store.participants.get('T1', ['a1', 'a2'])).toEqual({ a1: ['p1', 'p2'] });
    await store.participants.set('T1', 'a1', ['p3']);
    expect(await store.participants.get('T1', ['a1'])).toEqual({ a1: ['p3'] });
    await store.participants.set('T1', 'a1', []);
    expect(await store.participants.get('T1', ['a1'])).toEqual({});
    expect(await store.participants.get('T2', ['a1'])).toEqual({ a1: ['p9'] });
    expect(await store.participants.get('T2', [])).toEqual({});
    await expect(store.participants.set('', 'a1', ['p1'])).rejects.toThrow(StoreValidationError);
    // app_uninstalled forgets them with the rest of the workspace.
    await store.installations.deleteWorkspace('T2');
    expect(await store.participants.get('T2', ['a1'])).toEqual({});
  });
});
