/**
 * Accounts still to close after the app forgot the people who held them (store.closures), on both
 * backends: recorded in the transaction that forgets them — provisioned ones only, with the admin
 * token the workspace had — encrypted like every token, worked through and retried, and closed
 * once by replicas racing on one database (closeForgottenAccounts, as the minute tick runs it).
 */
import { expect, it } from 'vitest';
import type { Clients } from '../../src/clients.js';
import { closeForgottenAccounts } from '../../src/slack/account/index.js';
import { createKeyring, type Store } from '../../src/store/index.js';
import { forEachBackend, manualClock, newKey } from '../helpers/store-backends.js';

async function person(store: Store, ws: string, user: string, origin: 'provisioned' | 'brought') {
  return store.identities.save({
    workspaceId: ws,
    slackUserId: user,
    serviceAccountId: `sa-${ws}-${user}`,
    planningUserId: `sa-${ws}-${user}`,
    orgId: `org-${ws}`,
    token: `token-${ws}-${user}-secret`,
    origin,
  });
}

const silent = { info() {}, warn() {}, error() {} };

/** A planning service whose `serviceAccounts.close` is counted per (admin token, account). */
function countingClients(fail: () => boolean = () => false) {
  const closes: string[] = [];
  const clients = {
    planning: (token: string) => ({
      serviceAccounts: {
        close: async (id: string) => {
          // Let the other replica interleave, as a real call would.
          await new Promise((r) => setTimeout(r, 5));
          if (fail()) throw new Error('service unavailable');
          closes.push(`${token}:${id}`);
          return true;
        },
      },
    }),
  } as unknown as Pick<Clients, 'planning'>;
  return { clients, closes };
}

forEachBackend('account closures', (backend) => {
  it('uninstall records a closure for each provisioned account with the admin token the workspace saved; pasted ones are only forgotten', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: createKeyring({ current: newKey() }), now: clock.now });
    await store.workspaces.setAdminToken('T1', 'admin-T1-secret', 'org-T1');
    await person(store, 'T1', 'U1', 'provisioned');
    await person(store, 'T1', 'U2', 'provisioned');
    await person(store, 'T1', 'U3', 'brought');
    await person(store, 'T2', 'U1', 'provisioned');

    const forgotten = await store.installations.deleteWorkspace('T1', { adminToken: 'env-admin-secret' });
    expect(forgotten.identities.map((i) => i.slackUserId).sort()).toEqual(['U1', 'U2', 'U3']);
    expect(forgotten).toMatchObject({ toClose: 2, unclosable: 0 });
    expect(await store.workspaces.get('T1')).toBeUndefined();

    const due = await store.closures.due(clock.now());
    expect(due).toEqual([
      {
        workspaceId: 'T1',
        serviceAccountId: 'sa-T1-U1',
        adminToken: 'admin-T1-secret',
        reason: 'uninstalled',
        attempts: 0,
        nextAttemptAt: clock.now(),
      },
      expect.objectContaining({ serviceAccountId: 'sa-T1-U2', adminToken: 'admin-T1-secret' }),
    ]);
    const raw = await store.db.selectFrom('account_closures').select('admin_token').execute();
    for (const { admin_token } of raw) {
      expect(admin_token).toMatch(/^v1\./);
      expect(admin_token).not.toContain('secret');
    }

    // A retried event forgets nothing more and records nothing twice.
    expect(await store.installations.deleteWorkspace('T1')).toMatchObject({ identities: [], toClose: 0 });
    expect(await store.closures.due(clock.now())).toHaveLength(2);
    expect(await store.identities.listByWorkspace('T2')).toHaveLength(1);
  });

  it('without a saved admin token the fallback closes them; without any, nothing can, and it is said', async () => {
    const store = await backend.open({ keyring: createKeyring({ current: newKey() }) });
    await person(store, 'T1', 'U1', 'provisioned');
    await person(store, 'T2', 'U1', 'provisioned');
    expect(await store.installations.deleteWorkspace('T1', { adminToken: 'env-admin' })).toMatchObject({
      toClose: 1,
    });
    expect((await store.closures.due(Date.now()))[0]?.adminToken).toBe('env-admin');
    expect(await store.installations.deleteWorkspace('T2')).toMatchObject({ toClose: 0, unclosable: 1 });
    expect(await store.closures.due(Date.now(), { workspaceId: 'T2' })).toEqual([]);
  });

  it('a revoked user token and a deactivated person record theirs; of two forgets at once one records', async () => {
    const store = await backend.open({ keyring: createKeyring({ current: newKey() }) });
    await store.workspaces.setAdminToken('T1', 'admin-T1', 'org-T1');
    await person(store, 'T1', 'U1', 'provisioned');
    await person(store, 'T1', 'U2', 'provisioned');
    await store.installations.deleteUserTokens('T1', ['U1']);
    const [first, second] = await Promise.all([
      store.identities.forget('T1', 'U2', { reason: 'deactivated' }),
      store.identities.forget('T1', 'U2', { reason: 'deactivated' }),
    ]);
    expect([first.identities.length, second.identities.length].sort()).toEqual([0, 1]);
    expect([first.toClose, second.toClose].sort()).toEqual([0, 1]);
    const due = await store.closures.due(Date.now());
    expect(due.map((c) => [c.serviceAccountId, c.reason])).toEqual([
      ['sa-T1-U1', 'revoked'],
      ['sa-T1-U2', 'deactivated'],
    ]);
  });

  it('a failure is counted and retried later; remove says whether it was still there', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: createKeyring({ current: newKey() }), now: clock.now });
    await person(store, 'T1', 'U1', 'provisioned');
    await store.installations.deleteWorkspace('T1', { adminToken: 'admin' });
    await store.closures.retryLater('T1', 'sa-T1-U1', clock.now() + 60_000);
    expect(await store.closures.due(clock.now())).toEqual([]);
    expect(await store.closures.due(clock.now() + 60_000)).toMatchObject([{ attempts: 1 }]);
    expect(await store.closures.pending('T1', 'sa-T1-U1')).toBe(true);
    expect(await store.closures.remove('T1', 'sa-T1-U1')).toBe(true);
    expect(await store.closures.remove('T1', 'sa-T1-U1')).toBe(false);
    expect(await store.closures.pending('T1', 'sa-T1-U1')).toBe(false);
  });

  it('key rotation re-encrypts the admin tokens kept for closing', async () => {
    const oldKey = newKey();
    const before = await backend.open({ keyring: createKeyring({ current: oldKey }) });
    await person(before, 'T1', 'U1', 'provisioned');
    await before.installations.deleteWorkspace('T1', { adminToken: 'admin-secret' });
    const keyring = createKeyring({ current: newKey(), previous: [oldKey] });
    const after = await backend.open({ keyring });
    const result = await after.reencryptAll();
    expect(result.byTable.account_closures).toBe(1);
    const [raw] = await after.db.selectFrom('account_closures').select('admin_token').execute();
    expect(raw?.admin_token.startsWith(`v1.${keyring.currentKeyId}.`)).toBe(true);
    expect((await after.closures.due(Date.now()))[0]?.adminToken).toBe('admin-secret');
  });

  it('two replicas working through the closures at once close each account once', async () => {
    const keyring = createKeyring({ current: newKey() });
    const a = await backend.open({ keyring });
    const b = await backend.open({ keyring });
    await a.workspaces.setAdminToken('T1', 'admin-T1', 'org-T1');
    for (const user of ['U1', 'U2', 'U3', 'U4', 'U5']) await person(a, 'T1', user, 'provisioned');
    await a.installations.deleteWorkspace('T1');

    const { clients, closes } = countingClients();
    const reports = await Promise.all(
      [a, b, a, b].map((store) => closeForgottenAccounts({ store, clients, logger: silent })),
    );
    expect(closes.sort()).toEqual(['U1', 'U2', 'U3', 'U4', 'U5'].map((u) => `admin-T1:sa-T1-${u}`));
    expect(reports.reduce((n, r) => n + r.closed, 0)).toBe(5);
    expect(await a.closures.due(Date.now() + 86_400_000)).toEqual([]);
  });

  it('a failing service: retried with a growing delay, given up after its attempts', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: createKeyring({ current: newKey() }), now: clock.now });
    await person(store, 'T1', 'U1', 'provisioned');
    await store.installations.deleteWorkspace('T1', { adminToken: 'admin' });
    const { clients, closes } = countingClients(() => true);
    const run = () =>
      closeForgottenAccounts({ store, clients, logger: silent }, { now: clock.now(), maxAttempts: 3 });

    expect(await run()).toEqual({ closed: 0, retrying: 1, givenUp: 0 });
    expect(await run()).toEqual({ closed: 0, retrying: 0, givenUp: 0 }); // not due yet
    clock.advance(60_000);
    expect(await run()).toEqual({ closed: 0, retrying: 1, givenUp: 0 });
    clock.advance(60_000);
    expect(await run()).toEqual({ closed: 0, retrying: 0, givenUp: 0 }); // the second wait is 2 minutes
    clock.advance(60_000);
    expect(await run()).toEqual({ closed: 0, retrying: 0, givenUp: 1 });
    expect(closes).toEqual([]);
    expect(await store.closures.due(clock.now() + 86_400_000)).toEqual([]);
  });
});
