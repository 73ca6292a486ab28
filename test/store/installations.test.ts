import type { Installation } from '@slack/bolt';
import { expect, it } from 'vitest';
import {
  installationKeyFor,
  installationKeyOfWorkspace,
  type Store,
  workspaceIdFor,
} from '../../src/store/index.js';
import { forEachBackend, manualClock, newKeyring } from '../helpers/store-backends.js';

const bot = (team: string) => ({
  token: `xoxb-${team}-bot-secret`,
  scopes: ['chat:write', 'commands'],
  id: `B-${team}`,
  userId: `UBOT-${team}`,
});

function teamInstall(team: string, user: string, enterprise?: string): Installation<'v2', false> {
  return {
    team: { id: team, name: `Team ${team}` },
    enterprise: enterprise ? { id: enterprise, name: 'Acme Corp' } : undefined,
    user: { id: user, token: `xoxp-${team}-${user}-secret`, scopes: ['users:read'] },
    bot: bot(team),
    appId: 'A1',
    tokenType: 'bot',
    isEnterpriseInstall: false,
    authVersion: 'v2',
  };
}

function orgInstall(enterprise: string, user: string): Installation<'v2', true> {
  return {
    team: undefined,
    enterprise: { id: enterprise, name: 'Acme Corp' },
    user: { id: user, token: `xoxp-${enterprise}-${user}-secret`, scopes: ['users:read'] },
    bot: bot(enterprise),
    appId: 'A1',
    tokenType: 'bot',
    isEnterpriseInstall: true,
    enterpriseUrl: 'https://acme.enterprise.slack.com/',
    authVersion: 'v2',
  };
}

const byTeam = (teamId: string, userId?: string) => ({
  teamId,
  enterpriseId: undefined,
  isEnterpriseInstall: false as const,
  ...(userId ? { userId } : {}),
});

async function seedWorkspace(store: Store, ws: string, users: string[]) {
  await store.workspaces.setAdminToken(ws, `admin-${ws}`, `org-${ws}`);
  for (const user of users) {
    await store.identities.save({
      workspaceId: ws,
      slackUserId: user,
      serviceAccountId: `sa-${ws}-${user}`,
      planningUserId: `pu-${user}`,
      orgId: `org-${ws}`,
      token: `tok-${ws}-${user}`,
      origin: 'provisioned',
    });
  }
  await store.links.upsert({
    workspaceId: ws,
    slackChannelId: 'C1',
    teamId: 'tm',
    channelId: 'ch',
    createdBy: 'U1',
  });
  await store.digests.claim({
    workspaceId: ws,
    slackChannelId: 'C1',
    localDate: '2025-01-06',
    owner: 'o',
    leaseMs: 1000,
  });
}

forEachBackend('installations', (backend) => {
  it('stores and fetches a team install by team id, also when the team is part of an enterprise', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const { installationStore } = store.installations;
    const plain = teamInstall('T1', 'U1');
    const inGrid = teamInstall('T2', 'U9', 'E1');
    await installationStore.storeInstallation(plain);
    await installationStore.storeInstallation(inGrid);

    expect(await installationStore.fetchInstallation(byTeam('T1'))).toEqual(plain);
    expect(
      await installationStore.fetchInstallation({
        teamId: 'T2',
        enterpriseId: 'E1',
        isEnterpriseInstall: false,
      }),
    ).toEqual(inGrid);
    await expect(installationStore.fetchInstallation(byTeam('T3'))).rejects.toThrow(
      'No installation for workspace T3',
    );
    // An org-wide query for E1 must not find the per-team install inside it.
    await expect(
      installationStore.fetchInstallation({
        teamId: undefined,
        enterpriseId: 'E1',
        isEnterpriseInstall: true,
      }),
    ).rejects.toThrow(/No installation/);
  });

  it('keys an org-wide install by enterprise id, whatever workspace of the org asks', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const { installationStore } = store.installations;
    const org = orgInstall('E1', 'U1');
    await installationStore.storeInstallation(org);
    const query = { enterpriseId: 'E1', teamId: 'T-any', isEnterpriseInstall: true } as const;
    expect(await installationStore.fetchInstallation(query as never)).toEqual(org);
    await expect(installationStore.fetchInstallation(byTeam('E1'))).resolves.toEqual(org); // same key space
    await expect(installationStore.fetchInstallation(byTeam('T-any'))).rejects.toThrow(/No installation/);
    expect(installationKeyFor(query)).toBe('E1');
    // Each workspace of the organization keeps its own data, served by the org's installation.
    expect(workspaceIdFor(query)).toBe('E1:T-any');
    expect(installationKeyOfWorkspace('E1:T-any')).toBe('E1');
    expect(workspaceIdFor({ teamId: 'T1', enterpriseId: 'E1', isEnterpriseInstall: false })).toBe('T1');
  });

  it('an org-wide uninstall removes every workspace of the organization, and nothing else', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const { installationStore } = store.installations;
    await installationStore.storeInstallation(orgInstall('E1', 'U1'));
    await installationStore.storeInstallation(orgInstall('E10', 'U1'));
    await installationStore.storeInstallation(teamInstall('T1', 'U1', 'E1'));
    // Two workspaces of E1, a workspace of E10 (its id starts like E1's), and T1 installed on its own.
    for (const ws of ['E1:T1', 'E1:T2', 'E10:T1', 'T1']) await seedWorkspace(store, ws, ['U1']);
    expect(await store.installations.botToken('E1:T2')).toBe('xoxb-E1-bot-secret');

    const forgotten = await store.installations.deleteWorkspace('E1');
    expect(forgotten.workspaceIds).toEqual(['E1', 'E1:T1', 'E1:T2']);
    expect(forgotten.identities.map((i) => i.workspaceId).sort()).toEqual(['E1:T1', 'E1:T2']);
    expect(await store.installations.botToken('E1:T1')).toBeUndefined();
    for (const ws of ['E1:T1', 'E1:T2']) {
      expect(await store.identities.listByWorkspace(ws)).toEqual([]);
      expect(await store.links.listByWorkspace(ws)).toEqual([]);
      expect(await store.workspaces.get(ws)).toBeUndefined();
    }
    for (const ws of ['E10:T1', 'T1']) {
      expect(await store.identities.listByWorkspace(ws)).toHaveLength(1);
      expect(await store.links.listByWorkspace(ws)).toHaveLength(1);
    }
    expect(await store.installations.botToken('E10:T1')).toBe('xoxb-E10-bot-secret');
    expect(await store.installations.botToken('T1')).toBe('xoxb-T1-bot-secret');
  });

  it('tokens_revoked at org level forgets the user in every workspace of the organization', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.installations.installationStore.storeInstallation(orgInstall('E1', 'U1'));
    for (const ws of ['E1:T1', 'E1:T2', 'T3']) await seedWorkspace(store, ws, ['U1', 'U2']);
    const removed = await store.installations.deleteUserTokens('E1', ['U1']);
    expect(removed.map((r) => r.workspaceId).sort()).toEqual(['E1:T1', 'E1:T2']);
    expect(await store.identities.get('E1:T1', 'U2')).toBeDefined();
    expect(await store.identities.get('T3', 'U1')).toBeDefined();
  });

  it('botToken reads a team or an org-wide install by the store’s workspace id', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.installations.installationStore.storeInstallation(teamInstall('T1', 'U1', 'E9'));
    await store.installations.installationStore.storeInstallation(orgInstall('E1', 'U1'));
    expect(await store.installations.botToken('T1')).toBe('xoxb-T1-bot-secret');
    expect(await store.installations.botToken('E1')).toBe('xoxb-E1-bot-secret');
    // A team inside an org-wide install has no row of its own, and its enterprise's team install is not it.
    expect(await store.installations.botToken('E9')).toBeUndefined();
    expect(await store.installations.botToken('T404')).toBeUndefined();
  });

  it("gives each user their own user token, and no one else's", async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const { installationStore } = store.installations;
    await installationStore.storeInstallation(teamInstall('T1', 'U1'));
    await installationStore.storeInstallation(teamInstall('T1', 'U2')); // U2 authorizes later

    const forU1 = await installationStore.fetchInstallation(byTeam('T1', 'U1'));
    expect(forU1.user).toMatchObject({ id: 'U1', token: 'xoxp-T1-U1-secret' });
    const forU2 = await installationStore.fetchInstallation(byTeam('T1', 'U2'));
    expect(forU2.user).toMatchObject({ id: 'U2', token: 'xoxp-T1-U2-secret' });
    const forU3 = await installationStore.fetchInstallation(byTeam('T1', 'U3'));
    expect(forU3.user.token).toBeUndefined();
    expect(forU3.user.scopes).toBeUndefined();
    expect(forU3.bot?.token).toBe('xoxb-T1-bot-secret');
  });

  it('deleteInstallation removes one user grant, or the whole installation', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const { installationStore } = store.installations;
    await installationStore.storeInstallation(teamInstall('T1', 'U1'));
    await installationStore.storeInstallation(teamInstall('T1', 'U2'));
    await installationStore.storeInstallation(teamInstall('T2', 'U1'));

    await installationStore.deleteInstallation!(byTeam('T1', 'U2'));
    const afterUser = await installationStore.fetchInstallation(byTeam('T1', 'U2'));
    expect(afterUser.user.token).toBeUndefined();
    expect(afterUser.bot?.token).toBe('xoxb-T1-bot-secret');
    expect((await installationStore.fetchInstallation(byTeam('T1', 'U1'))).user.token).toBe(
      'xoxp-T1-U1-secret',
    );

    await installationStore.deleteInstallation!(byTeam('T1'));
    await expect(installationStore.fetchInstallation(byTeam('T1', 'U1'))).rejects.toThrow(/No installation/);
    const rows = await store.db.selectFrom('installation_users').select('workspace_id').execute();
    expect(rows.map((r) => r.workspace_id)).toEqual(['T2']);
    expect((await installationStore.fetchInstallation(byTeam('T2'))).user.token).toBe('xoxp-T2-U1-secret');
  });

  it('keeps installations encrypted at rest', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    await store.installations.installationStore.storeInstallation(teamInstall('T1', 'U1'));
    const raw = [
      ...(await store.db.selectFrom('installations').select('data').execute()),
      ...(await store.db.selectFrom('installation_users').select('data').execute()),
    ];
    expect(raw).toHaveLength(2);
    for (const { data } of raw) {
      expect(data).toMatch(/^v1\./);
      expect(data).not.toContain('secret');
    }
  });

  it('app_uninstalled: deleteWorkspace removes everything of that workspace and nothing else', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    for (const ws of ['T1', 'T2']) {
      await store.installations.installationStore.storeInstallation(teamInstall(ws, 'U1'));
      await seedWorkspace(store, ws, ['U1', 'U2']);
    }
    await store.installations.deleteWorkspace('T1');

    await expect(store.installations.installationStore.fetchInstallation(byTeam('T1'))).rejects.toThrow();
    expect(await store.workspaces.get('T1')).toBeUndefined();
    expect(await store.identities.listByWorkspace('T1')).toEqual([]);
    expect(await store.links.listByWorkspace('T1')).toEqual([]);
    for (const table of ['installation_users', 'digest_claims'] as const) {
      const left = await store.db.selectFrom(table).select('workspace_id').distinct().execute();
      expect(left.map((r) => r.workspace_id)).toEqual(['T2']);
    }

    expect((await store.installations.installationStore.fetchInstallation(byTeam('T2'))).bot?.token).toBe(
      'xoxb-T2-bot-secret',
    );
    expect((await store.workspaces.get('T2'))?.adminToken).toBe('admin-T2');
    expect(await store.identities.listByWorkspace('T2')).toHaveLength(2);
    expect(await store.links.listByWorkspace('T2')).toHaveLength(1);
  });

  it('tokens_revoked: deleteUserTokens drops those users’ Slack tokens and identities only', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const { installationStore } = store.installations;
    await installationStore.storeInstallation(teamInstall('T1', 'U2'));
    await installationStore.storeInstallation(teamInstall('T1', 'U1')); // U1 is the latest installer
    await installationStore.storeInstallation(teamInstall('T2', 'U1'));
    await seedWorkspace(store, 'T1', ['U1', 'U2', 'U3']);
    await seedWorkspace(store, 'T2', ['U1']);

    const removed = await store.installations.deleteUserTokens('T1', ['U1', 'U2']);
    expect(removed.map((r) => r.slackUserId).sort()).toEqual(['U1', 'U2']);
    expect(removed[0]).toEqual({
      workspaceId: 'T1',
      slackUserId: removed[0]!.slackUserId,
      serviceAccountId: `sa-T1-${removed[0]!.slackUserId}`,
      planningUserId: `pu-${removed[0]!.slackUserId}`,
      orgId: 'org-T1',
      origin: 'provisioned',
    });

    for (const user of ['U1', 'U2']) {
      const installation = await installationStore.fetchInstallation(byTeam('T1', user));
      expect(installation.user.token).toBeUndefined();
      expect(installation.bot?.token).toBe('xoxb-T1-bot-secret');
      expect(await store.identities.get('T1', user)).toBeUndefined();
    }
    // The installation itself (fetched without a user) no longer carries U1's token either.
    expect((await installationStore.fetchInstallation(byTeam('T1'))).user.token).toBeUndefined();
    expect(await store.identities.get('T1', 'U3')).toBeDefined();
    expect((await installationStore.fetchInstallation(byTeam('T2', 'U1'))).user.token).toBe(
      'xoxp-T2-U1-secret',
    );
    expect(await store.identities.get('T2', 'U1')).toBeDefined();
    expect(await store.installations.deleteUserTokens('T1', [])).toEqual([]);
  });

  it('token rotation: one claim at a time, taken over only after its lease; a lapse blocks claims until a reinstall', async () => {
    const clock = manualClock();
    const keyring = newKeyring();
    // Two replicas: two connections to one database.
    const a = await backend.open({ keyring, now: clock.now });
    const b = await backend.open({ keyring, now: clock.now });
    const rotating = {
      ...teamInstall('T1', 'U1'),
      bot: { ...bot('T1'), refreshToken: 'xoxe-1-refresh-secret', expiresAt: 1_000 },
    };
    await a.installations.installationStore.storeInstallation(rotating);
    expect(await a.installations.claimRefresh('T9', 'a', 60_000)).toBe(false); // no such installation

    const claims = await Promise.all([
      a.installations.claimRefresh('T1', 'a', 60_000),
      b.installations.claimRefresh('T1', 'b', 60_000),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const [winner, loser] = claims[0] ? (['a', b] as const) : (['b', a] as const);
    expect(await loser.installations.claimRefresh('T1', 'late', 60_000)).toBe(false);
    // The refresh token and expiry are stored encrypted, bound to the row, like every token.
    const row = await a.db.selectFrom('installations').select('data').executeTakeFirstOrThrow();
    expect(row.data).not.toContain('refresh-secret');
    expect((await a.installations.read('T1'))?.installation.bot?.refreshToken).toBe('xoxe-1-refresh-secret');

    // A claimant that vanished is taken over once its lease ran out; it can then save nothing.
    clock.advance(60_000);
    expect(await loser.installations.claimRefresh('T1', 'late', 60_000)).toBe(true);
    const stale = { ...rotating, bot: { ...rotating.bot, token: 'xoxb-stale' } };
    expect(await a.installations.saveRefreshed('T1', winner, stale)).toBe(false);
    const fresh = { ...rotating, bot: { ...rotating.bot, token: 'xoxb-fresh', refreshToken: 'xoxe-1-next' } };
    expect(await b.installations.saveRefreshed('T1', 'late', fresh)).toBe(true);
    expect((await a.installations.read('T1'))?.installation.bot?.token).toBe('xoxb-fresh');

    // Slack refused a refresh: no claim until the app is reinstalled.
    expect(await a.installations.claimRefresh('T1', 'a', 60_000)).toBe(true);
    await a.installations.markLapsed('T1', 'a', 'invalid_refresh_token');
    expect((await b.installations.read('T1'))?.lapsed).toEqual({
      at: new Date(clock.t),
      reason: 'invalid_refresh_token',
    });
    clock.advance(120_000);
    expect(await b.installations.claimRefresh('T1', 'b', 60_000)).toBe(false);
    await b.installations.installationStore.storeInstallation(rotating);
    expect((await a.installations.read('T1'))?.lapsed).toBeUndefined();
    expect(await a.installations.claimRefresh('T1', 'a', 60_000)).toBe(true);
  });

  it('refuses an installation without the id it is keyed by', async () => {
    const store = await backend.open({ keyring: newKeyring() });
    const broken = { ...orgInstall('E1', 'U1'), enterprise: undefined } as unknown as Installation;
    await expect(store.installations.installationStore.storeInstallation(broken)).rejects.toThrow(
      'an org-wide installation needs an enterprise id',
    );
    expect(await store.db.selectFrom('installations').selectAll().execute()).toEqual([]);
  });
});
