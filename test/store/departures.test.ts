/**
 * Who disconnected (store.departures), on both backends: recorded with the account left — never its
 * token — in the transaction that forgets the identity, once however many disconnect at once; ended
 * by connecting again; and an account left open by someone then forgotten (deactivated, uninstalled)
 * is recorded for closing like any provisioned account, while one already closed is not.
 */
import { expect, it } from 'vitest';
import { createKeyring, type Store } from '../../src/store/index.js';
import { forEachBackend, manualClock, newKey } from '../helpers/store-backends.js';

function person(store: Store, ws: string, user: string, origin: 'provisioned' | 'brought') {
  return store.identities.save({
    workspaceId: ws,
    slackUserId: user,
    serviceAccountId: `sa-${ws}-${user}`,
    planningUserId: `pu-${ws}-${user}`,
    orgId: `org-${ws}`,
    token: `token-${ws}-${user}-secret`,
    origin,
  });
}

forEachBackend('departures', (backend) => {
  it('disconnecting records what was left, once, without its token; connecting again ends it', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: createKeyring({ current: newKey() }), now: clock.now });
    await person(store, 'T1', 'U1', 'provisioned');

    const [first, second] = await Promise.all([
      store.identities.disconnect('T1', 'U1', { closed: false }),
      store.identities.disconnect('T1', 'U1', { closed: false }),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await store.identities.get('T1', 'U1')).toBeUndefined();
    expect(await store.departures.get('T1', 'U1')).toEqual({
      workspaceId: 'T1',
      slackUserId: 'U1',
      serviceAccountId: 'sa-T1-U1',
      planningUserId: 'pu-T1-U1',
      orgId: 'org-T1',
      origin: 'provisioned',
      closed: false,
      departedAt: new Date(clock.now()),
    });
    const raw = JSON.stringify(await store.db.selectFrom('departures').selectAll().execute());
    expect(raw).not.toContain('secret');
    expect(await store.departures.get('T2', 'U1')).toBeUndefined();

    expect(await store.departures.markClosed('T1', 'U1')).toBe(true);
    expect((await store.departures.get('T1', 'U1'))?.closed).toBe(true);
    expect(await store.departures.markClosed('T1', 'U9')).toBe(false);

    // Any identity stored for the person ends it: a pasted token, or an account given back.
    await person(store, 'T1', 'U1', 'brought');
    expect(await store.departures.get('T1', 'U1')).toBeUndefined();
    await store.identities.disconnect('T1', 'U1', { closed: true });
    expect((await store.departures.get('T1', 'U1'))?.closed).toBe(true);
    const { added } = await store.identities.add({
      workspaceId: 'T1',
      slackUserId: 'U1',
      serviceAccountId: 'sa-new',
      planningUserId: 'sa-new',
      orgId: 'org-T1',
      token: 'token-new-secret',
      origin: 'provisioned',
    });
    expect(added).toBe(true);
    expect(await store.departures.get('T1', 'U1')).toBeUndefined();
    await store.close();
  });

  it('forgetting people closes the provisioned accounts they left open, not closed or pasted ones', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: createKeyring({ current: newKey() }), now: clock.now });
    await store.workspaces.setAdminToken('T1', 'admin-T1-secret', 'org-T1');
    for (const [user, origin] of [
      ['U1', 'provisioned'],
      ['U2', 'provisioned'],
      ['U3', 'brought'],
      ['U4', 'provisioned'],
    ] as const) {
      await person(store, 'T1', user, origin);
    }
    await store.identities.disconnect('T1', 'U1', { closed: false });
    await store.identities.disconnect('T1', 'U2', { closed: true });
    await store.identities.disconnect('T1', 'U3', { closed: false });
    await store.identities.disconnect('T1', 'U4', { closed: false });

    // One deactivated: only their own left account.
    expect(await store.identities.forget('T1', 'U4', { reason: 'deactivated' })).toMatchObject({
      identities: [],
      toClose: 1,
    });
    expect(await store.departures.get('T1', 'U4')).toBeUndefined();

    // The app uninstalled: the rest.
    const forgotten = await store.installations.deleteWorkspace('T1');
    expect(forgotten).toMatchObject({ identities: [], toClose: 1, unclosable: 0 });
    const due = (await store.closures.due(clock.now())).map((c) => c.serviceAccountId).sort();
    expect(due).toEqual(['sa-T1-U1', 'sa-T1-U4']);
    expect(await store.db.selectFrom('departures').selectAll().execute()).toEqual([]);
    await store.close();
  });
});
