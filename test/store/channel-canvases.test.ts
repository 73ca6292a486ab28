/**
 * The channel canvases of the plan (issue 37, store/channel-canvases.ts), on SQLite and PostgreSQL:
 * a change in a planning channel marks the canvases on of the Slack channels linked to it, and only
 * those, in the workspace; an edit clears it unless a change came during it; refusals are told once;
 * uninstall forgets every canvas id of the workspace.
 */
import { expect, it } from 'vitest';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

forEachBackend('channel canvases', (backend) => {
  async function linked() {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const link = (workspaceId: string, slackChannelId: string, channelId: string) =>
      store.links.upsert({ workspaceId, slackChannelId, teamId: 'team', channelId, createdBy: 'U1' });
    await link('T1', 'C1', 'plan-a');
    await link('T1', 'C2', 'plan-a');
    await link('T1', 'C3', 'plan-b');
    await link('T2', 'C1', 'plan-a');
    return { store, clock };
  }

  it('a change marks the canvases on of the channels linked to its planning channel, in its workspace only', async () => {
    const { store } = await linked();
    for (const [ws, ch] of [
      ['T1', 'C1'],
      ['T1', 'C3'],
      ['T2', 'C1'],
    ] as const) {
      await store.canvases.turnOn(ws, ch, 'U1');
      await store.canvases.edited(ws, ch, { sections: [], startedAt: Date.UTC(2030, 0), edit: true });
    }
    expect(await store.canvases.markDirty('T1', { teamId: 'team', channelId: 'plan-a' })).toEqual(['C1']);
    expect((await store.canvases.get('T1', 'C1'))?.dirtyAt).toBeDefined();
    expect((await store.canvases.get('T1', 'C3'))?.dirtyAt).toBeUndefined();
    expect((await store.canvases.get('T2', 'C1'))?.dirtyAt).toBeUndefined();
    // Turned off: no longer marked.
    await store.canvases.turnOff('T1', 'C1');
    expect(await store.canvases.markDirty('T1', { teamId: 'team', channelId: 'plan-a' })).toEqual([]);
  });

  it('an edit clears the wait unless a change came after it began; the debounce reads the last edit', async () => {
    const { store, clock } = await linked();
    const row = await store.canvases.turnOn('T1', 'C1', 'U1');
    expect(row).toMatchObject({ enabled: true, status: 'live', turnedOnBy: 'U1', sections: [] });
    await store.canvases.edited('T1', 'C1', { sections: [], startedAt: clock.now(), edit: false });
    expect((await store.canvases.get('T1', 'C1'))?.dirtyAt).toBeUndefined();
    // A change marked after an edit began keeps the canvas waiting once that edit is recorded.
    const startedAt = clock.now();
    clock.advance(1_000);
    await store.canvases.markDirty('T1', { teamId: 'team', channelId: 'plan-a' });
    await store.canvases.edited('T1', 'C1', { sections: [['planning:f1', 'h1']], startedAt, edit: true });
    expect(await store.canvases.get('T1', 'C1')).toMatchObject({
      dirtyAt: clock.now(),
      editedAt: clock.now(),
      sections: [['planning:f1', 'h1']],
    });
    await store.canvases.edited('T1', 'C1', {
      sections: [['planning:f1', 'h1']],
      startedAt: clock.now(),
      edit: true,
    });
    expect((await store.canvases.get('T1', 'C1'))?.dirtyAt).toBeUndefined();

    await store.canvases.markChannelDirty('T1', 'C1');
    expect(await store.canvases.listDue({ editedBefore: clock.now() - 60_000, limit: 10 })).toEqual([]);
    clock.advance(60_000);
    expect(
      (await store.canvases.listDue({ editedBefore: clock.now() - 60_000, limit: 10 })).map(
        (c) => c.slackChannelId,
      ),
    ).toEqual(['C1']);
  });

  it('a refusal is told once per code; gone and refused canvases are not marked; turning on again starts afresh', async () => {
    const { store } = await linked();
    await store.canvases.turnOn('T1', 'C1', 'U1');
    await store.canvases.created('T1', 'C1', 'F1', 'channel');
    expect(await store.canvases.refused('T1', 'C1', 'restricted_action')).toBe(true);
    expect(await store.canvases.refused('T1', 'C1', 'restricted_action')).toBe(false);
    expect(await store.canvases.markDirty('T1', { teamId: 'team', channelId: 'plan-a' })).toEqual([]);
    await store.canvases.turnOn('T1', 'C1', 'U2');
    expect(await store.canvases.get('T1', 'C1')).toMatchObject({
      status: 'live',
      turnedOnBy: 'U2',
      canvasId: 'F1',
    });
    expect((await store.canvases.get('T1', 'C1'))?.problem).toBeUndefined();
    await store.canvases.gone('T1', 'C1');
    expect((await store.canvases.get('T1', 'C1'))?.canvasId).toBeUndefined();
    expect(await store.canvases.markDirty('T1', { teamId: 'team', channelId: 'plan-a' })).toEqual([]);
  });

  it('is forgotten with the workspace when the app is uninstalled there, and only there', async () => {
    const { store } = await linked();
    await store.canvases.turnOn('T1', 'C1', 'U1');
    await store.canvases.turnOn('T2', 'C1', 'U1');
    await store.installations.deleteWorkspace('T1');
    expect(await store.canvases.get('T1', 'C1')).toBeUndefined();
    expect(await store.canvases.get('T2', 'C1')).toBeDefined();
  });
});
