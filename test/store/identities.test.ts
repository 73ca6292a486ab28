import { expect, it } from 'vitest';
import {
  createIdentitiesRepo,
  type IdentityInput,
  PLANNING_USERS_PER_QUERY,
  type PlanningUserLink,
  type Store,
  StoreValidationError,
} from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

const input = (
  workspaceId: string,
  slackUserId: string,
  extra: Partial<IdentityInput> = {},
): IdentityInput => ({
  workspaceId,
  slackUserId,
  serviceAccountId: `sa-${workspaceId}-${slackUserId}`,
  planningUserId: `pu-${workspaceId}-${slackUserId}`,
  orgId: 'org-1',
  token: `token-${workspaceId}-${slackUserId}`,
  origin: 'provisioned',
  ...extra,
});

/** What findByPlanningUsers answers for the identity `input` makes. */
const link = (
  workspaceId: string,
  slackUserId: string,
  extra: Partial<IdentityInput> = {},
): PlanningUserLink => {
  const { planningUserId, serviceAccountId } = input(workspaceId, slackUserId, extra);
  return { slackUserId, planningUserId, serviceAccountId };
};

/** A repository over the store's database that counts the queries it sends. */
function counted(store: Store) {
  const counter = { queries: 0 };
  const db = store.db.withPlugin({
    transformQuery: (args) => {
      counter.queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  // Another keyring than the store's: any token this repository decrypted would fail to.
  const repo = createIdentitiesRepo({ db, keyring: newKeyring(), now: Date.now });
  return { repo, counter };
}

forEachBackend('identities', (backend) => {
  it('saves and reads an identity with its token decrypted', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const saved = await store.identities.save(input('T1', 'U1', { origin: 'brought' }));
    expect(saved).toEqual({
      ...input('T1', 'U1', { origin: 'brought' }),
      followsProfile: false,
      valid: true,
      createdAt: new Date(clock.t),
      updatedAt: new Date(clock.t),
    });
    expect(await store.identities.get('T1', 'U1')).toEqual(saved);
    expect(await store.identities.get('T1', 'U2')).toBeUndefined();
    const [raw] = await store.db.selectFrom('identities').select('token').execute();
    expect(raw!.token).toMatch(/^v1\./);
    expect(raw!.token).not.toContain('token-T1-U1');
  });

  it('follows the Slack profile by default only when provisioned; a choice is kept and changeable', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    expect((await store.identities.save(input('T1', 'UP'))).followsProfile).toBe(true);
    expect((await store.identities.save(input('T1', 'UB', { origin: 'brought' }))).followsProfile).toBe(
      false,
    );
    const chosen = await store.identities.save(
      input('T1', 'UC', { origin: 'brought', followsProfile: true }),
    );
    expect(chosen.followsProfile).toBe(true);

    expect(await store.identities.setFollowsProfile('T1', 'UB', true)).toBe(true);
    expect((await store.identities.get('T1', 'UB'))?.followsProfile).toBe(true);
    expect(await store.identities.setFollowsProfile('T1', 'UC', false)).toBe(true);
    expect((await store.identities.get('T1', 'UC'))?.followsProfile).toBe(false);
    expect(await store.identities.setFollowsProfile('T1', 'UNKNOWN', true)).toBe(false);
    // Connecting again without saying starts from the default for its origin.
    await store.identities.save(input('T1', 'UC', { origin: 'brought' }));
    expect((await store.identities.get('T1', 'UC'))?.followsProfile).toBe(false);
  });

  it('save replaces an identity in place, keeps createdAt and makes it valid again', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const first = await store.identities.save(input('T1', 'U1'));
    await store.identities.markInvalid('T1', 'U1', 'revoked');
    clock.advance(60_000);
    const second = await store.identities.save(
      input('T1', 'U1', { token: 'new-token', serviceAccountId: 'sa-2' }),
    );
    expect(second).toMatchObject({ token: 'new-token', serviceAccountId: 'sa-2', valid: true });
    expect(second.invalidReason).toBeUndefined();
    expect(second.createdAt).toEqual(first.createdAt);
    expect(second.updatedAt).toEqual(new Date(clock.t));
    expect(await store.identities.listByWorkspace('T1')).toHaveLength(1);
  });

  it('add stores an identity only when the user has none, and says which one stands', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const first = await store.identities.add(input('T1', 'U1', { token: 'first', serviceAccountId: 'sa-1' }));
    expect(first).toMatchObject({ added: true, identity: { token: 'first', serviceAccountId: 'sa-1' } });
    const second = await store.identities.add(
      input('T1', 'U1', { token: 'second', serviceAccountId: 'sa-2' }),
    );
    expect(second).toEqual({ added: false, identity: first.identity });
    // Two at once: one of them is stored, and both are told the same one.
    const raced = await Promise.all(
      ['a', 'b'].map((x) =>
        store.identities.add(input('T1', 'U2', { token: x, serviceAccountId: `sa-${x}` })),
      ),
    );
    expect(raced.filter((r) => r.added)).toHaveLength(1);
    expect(raced[0]?.identity).toEqual(raced[1]?.identity);
    expect(await store.identities.get('T1', 'U2')).toEqual(raced[0]?.identity);
  });

  it('rotates a token in place and marks it valid; markInvalid records why', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    await store.identities.save(input('T1', 'U1'));

    expect(await store.identities.markInvalid('T1', 'U1', '401 from the service')).toBe(true);
    expect(await store.identities.get('T1', 'U1')).toMatchObject({
      valid: false,
      invalidReason: '401 from the service',
    });
    expect(await store.identities.markInvalid('T1', 'U2')).toBe(false);

    clock.advance(1000);
    expect(await store.identities.rotateToken('T1', 'U1', 'rotated-token')).toBe(true);
    const rotated = await store.identities.get('T1', 'U1');
    expect(rotated).toMatchObject({ token: 'rotated-token', valid: true, serviceAccountId: 'sa-T1-U1' });
    expect(rotated?.invalidReason).toBeUndefined();
    expect(rotated?.updatedAt).toEqual(new Date(clock.t));
    expect(await store.identities.rotateToken('T1', 'U9', 'x')).toBe(false);
    expect(await store.identities.get('T1', 'U9')).toBeUndefined();

    await store.identities.markInvalid('T1', 'U1');
    const bare = await store.identities.get('T1', 'U1');
    expect(bare?.valid).toBe(false);
    expect(bare?.invalidReason).toBeUndefined();
  });

  it('records when Slack confirmed a full member, clears it, and touches nothing else', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    const saved = await store.identities.save(input('T1', 'U1'));
    await store.identities.save(input('T1', 'U2'));
    expect(saved.memberConfirmedAt).toBeUndefined();

    clock.advance(60_000);
    const at = new Date(clock.t - 5);
    expect(await store.identities.confirmMember('T1', 'U1', at)).toBe(true);
    expect(await store.identities.get('T1', 'U1')).toEqual({ ...saved, memberConfirmedAt: at });
    expect((await store.identities.get('T1', 'U2'))?.memberConfirmedAt).toBeUndefined();
    expect(await store.identities.confirmMember('T1', 'U9', at)).toBe(false);
    expect(await store.identities.get('T1', 'U9')).toBeUndefined();
    // A new token for the same Slack user: Slack's word about the person stands.
    const replaced = await store.identities.save(input('T1', 'U1', { token: 'new-token' }));
    expect(replaced.memberConfirmedAt).toEqual(at);
    expect((await store.identities.listByWorkspace('T1'))[0]?.memberConfirmedAt).toEqual(at);

    expect(await store.identities.confirmMember('T1', 'U1', undefined)).toBe(true);
    expect(await store.identities.get('T1', 'U1')).toEqual({ ...replaced, memberConfirmedAt: undefined });
    expect((await store.identities.get('T1', 'U1'))?.memberConfirmedAt).toBeUndefined();
    await expect(store.identities.confirmMember('T1', 'U1', new Date(Number.NaN))).rejects.toBeInstanceOf(
      StoreValidationError,
    );
  });

  it('finds by planning user, lists and deletes — within one workspace only', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.identities.save(input('T1', 'U2'));
    await store.identities.save(input('T1', 'U1'));
    await store.identities.save(input('T2', 'U1', { planningUserId: 'pu-T1-U1' })); // same ids elsewhere

    expect(await store.identities.findByPlanningUsers('T1', ['pu-T1-U1'])).toEqual([link('T1', 'U1')]);
    expect(await store.identities.findByPlanningUsers('T2', ['pu-T1-U1'])).toEqual([
      link('T2', 'U1', { planningUserId: 'pu-T1-U1' }),
    ]);
    expect(await store.identities.findByPlanningUsers('T2', ['pu-T1-U2'])).toEqual([]);
    expect((await store.identities.listByWorkspace('T1')).map((i) => i.slackUserId)).toEqual(['U1', 'U2']);
    expect((await store.identities.get('T2', 'U1'))?.token).toBe('token-T2-U1');

    expect(await store.identities.delete('T2', 'U2')).toBe(false);
    expect(await store.identities.delete('T1', 'U1')).toBe(true);
    expect(await store.identities.get('T1', 'U1')).toBeUndefined();
    expect(await store.identities.get('T2', 'U1')).toBeDefined();
    expect(await store.identities.listByWorkspace('T3')).toEqual([]);
  });

  it('finds the Slack users of many planning users with one query, this workspace only', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    for (const user of ['U1', 'U2', 'U3']) await store.identities.save(input('T1', user));
    // Another workspace with the very same planning users and Slack ids.
    for (const user of ['U1', 'U2', 'U3']) {
      await store.identities.save(input('T2', user, { planningUserId: `pu-T1-${user}` }));
    }
    const { repo, counter } = counted(store);

    const found = await repo.findByPlanningUsers('T1', ['pu-T1-U3', 'pu-T1-U1', 'unknown', 'pu-T1-U1']);
    expect(found).toEqual([link('T1', 'U1'), link('T1', 'U3')]);
    expect(counter.queries).toBe(1);
    // Tokens are not read: this repository's keyring is not the store's, so decrypting one would throw.
    expect(found.every((l) => !('token' in l))).toBe(true);

    expect(await repo.findByPlanningUsers('T1', ['unknown', 'pu-T9-U1'])).toEqual([]);
    expect(await repo.findByPlanningUsers('T3', ['pu-T1-U1'])).toEqual([]);
    counter.queries = 0;
    expect(await repo.findByPlanningUsers('T1', [])).toEqual([]);
    expect(counter.queries).toBe(0);
  });

  it('matches a service-account id too, and every Slack user acting as one account', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const shared = { serviceAccountId: 'sa-shared', planningUserId: 'pu-shared' };
    await store.identities.save(input('T1', 'U2', shared));
    await store.identities.save(input('T1', 'U1', shared)); // the same token pasted by two people
    await store.identities.save(input('T1', 'U3'));

    const both = [link('T1', 'U1', shared), link('T1', 'U2', shared)];
    expect(await store.identities.findByPlanningUsers('T1', ['pu-shared'])).toEqual(both);
    expect(await store.identities.findByPlanningUsers('T1', ['sa-shared'])).toEqual(both);
    expect(await store.identities.findByPlanningUsers('T1', ['sa-T1-U3', 'pu-shared'])).toEqual([
      ...both,
      link('T1', 'U3'),
    ]);
  });

  it('more ids than one query takes: one query per chunk, each identity once, in order', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    // U2 is found by its planning user id in the first chunk and its account id in the second.
    await store.identities.save(input('T1', 'U2', { planningUserId: 'p-0000', serviceAccountId: 'p-9999' }));
    await store.identities.save(input('T1', 'U1', { planningUserId: 'p-9998', serviceAccountId: 'sa-1' }));
    const ids = Array.from(
      { length: PLANNING_USERS_PER_QUERY + 2 },
      (_, i) => `p-${String(i).padStart(4, '0')}`,
    );
    ids.push('p-9999', 'p-9998');
    const { repo, counter } = counted(store);
    expect((await repo.findByPlanningUsers('T1', ids)).map((l) => l.slackUserId)).toEqual(['U1', 'U2']);
    expect(counter.queries).toBe(2);
  });

  it('refuses bad input with a clear error and writes nothing', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const bad = { ...input('T1', 'U1'), origin: 'stolen', token: '' } as unknown as IdentityInput;
    const error = await store.identities.save(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreValidationError);
    expect((error as Error).message).toMatch(/^Invalid identity: /);
    expect((error as StoreValidationError).problems.join(' ')).toMatch(/token.*origin|origin.*token/);
    await store.identities.save(input('T1', 'U1'));
    await expect(store.identities.rotateToken('T1', 'U1', '')).rejects.toThrow(StoreValidationError);
    expect((await store.identities.get('T1', 'U1'))?.token).toBe('token-T1-U1');
  });

  it('a token copied to another user’s row does not decrypt', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.identities.save(input('T1', 'U1'));
    await store.identities.save(input('T1', 'U2'));
    const victim = await store.db
      .selectFrom('identities')
      .select('token')
      .where('slack_user_id', '=', 'U1')
      .executeTakeFirstOrThrow();
    await store.db
      .updateTable('identities')
      .set({ token: victim.token })
      .where('slack_user_id', '=', 'U2')
      .execute();
    await expect(store.identities.get('T1', 'U2')).rejects.toThrow(/failed authentication/);
    expect((await store.identities.get('T1', 'U1'))?.token).toBe('token-T1-U1');
  });
});

forEachBackend('workspaces', (backend) => {
  it('stores the admin token encrypted, replaces it, and clears it keeping the org id', async () => {
    const clock = manualClock();
    const store = await backend.open({ keyring: newKeyring(), now: clock.now });
    expect(await store.workspaces.get('T1')).toBeUndefined();
    const created = await store.workspaces.setAdminToken('T1', 'admin-secret-1', 'org-1');
    expect(created).toEqual({
      workspaceId: 'T1',
      adminToken: 'admin-secret-1',
      planningOrgId: 'org-1',
      createdAt: new Date(clock.t),
      updatedAt: new Date(clock.t),
    });
    const [raw] = await store.db.selectFrom('workspaces').select('admin_token').execute();
    expect(raw!.admin_token).not.toContain('admin-secret-1');

    clock.advance(5000);
    const replaced = await store.workspaces.setAdminToken('T1', 'admin-secret-2', 'org-2');
    expect(replaced).toMatchObject({ adminToken: 'admin-secret-2', planningOrgId: 'org-2' });
    expect(replaced.createdAt).toEqual(created.createdAt);
    expect(replaced.updatedAt).toEqual(new Date(clock.t));

    await store.workspaces.setAdminToken('T2', 'admin-other', 'org-9');
    expect(await store.workspaces.clearAdminToken('T1')).toBe(true);
    const cleared = await store.workspaces.get('T1');
    expect(cleared?.adminToken).toBeUndefined();
    expect(cleared?.planningOrgId).toBe('org-2');
    expect((await store.workspaces.get('T2'))?.adminToken).toBe('admin-other');
    expect(await store.workspaces.clearAdminToken('T3')).toBe(false);
  });

  it('refuses an empty admin token or org id', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await expect(store.workspaces.setAdminToken('T1', '', 'org')).rejects.toThrow(
      /Invalid admin token: token/,
    );
    await expect(store.workspaces.setAdminToken('T1', 'tok', '')).rejects.toThrow(/orgId/);
    expect(await store.workspaces.get('T1')).toBeUndefined();
  });
});
