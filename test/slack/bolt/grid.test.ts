import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from '../../helpers/slack-harness.js';

const ORG = 'E0ORG';

describe('Enterprise Grid: an org-wide install', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ oauth: true });
  });
  afterEach(() => h.close());

  /** Installs the app org-wide through /slack/install and the redirect; resolves with the redirect page. */
  function installOrgWide() {
    return h.install({ enterprise: { id: ORG, name: 'Org' }, user: 'UADMIN' });
  }

  /** `/plan <text>` as Slack sends it from a workspace of the org-wide install. */
  function orgCommand(text: string, team: string, user = 'U1', channel = 'C1') {
    return h.command(text, user, channel, team, {
      team_domain: team.toLowerCase(),
      enterprise_id: ORG,
      enterprise_name: 'Org',
      is_enterprise_install: 'true',
    });
  }

  async function replyTo(since: number) {
    return JSON.stringify((await h.slack.waitFor('respond', () => true, { since })).body);
  }

  it('is stored by enterprise id, and sends the admin on to add the app to workspaces', async () => {
    const { status, page } = await installOrgWide();
    expect(status).toBe(200);
    // Bolt's success page for an org install leads to the organization's "add to workspaces" page.
    expect(page).toContain('manage/organization/apps/profile/A1/workspaces/add');
    expect(h.slack.called('oauth.v2.access')[0]?.answer).toMatchObject({
      ok: true,
      team: null,
      is_enterprise_install: true,
    });
    const installation = await h.store.installations.installationStore.fetchInstallation({
      enterpriseId: ORG,
      teamId: 'T0ANY',
      isEnterpriseInstall: true,
    });
    expect(installation.isEnterpriseInstall).toBe(true);
    expect(installation.bot?.token).toMatch(/^xoxb-/);
    // A workspace-level lookup of the same id finds nothing: the two key spaces do not mix.
    await expect(
      h.store.installations.installationStore.fetchInstallation({
        teamId: 'T0ANY',
        enterpriseId: ORG,
        isEnterpriseInstall: false,
      }),
    ).rejects.toThrow(/No installation/);
  });

  it('two workspaces of the org act with the org’s installation and keep their own identities and links', async () => {
    await installOrgWide();
    const installation = await h.store.installations.installationStore.fetchInstallation({
      enterpriseId: ORG,
      teamId: undefined,
      isEnterpriseInstall: true,
    });
    const orgToken = installation.bot?.token;
    h.slack.users.set('U1', { id: 'U1', name: 'ada', teamId: 'T0A', enterpriseId: ORG });
    // U1 connected in workspace A only; channel C1 linked in workspace A only.
    await h.store.identities.save({
      workspaceId: `${ORG}:T0A`,
      slackUserId: 'U1',
      serviceAccountId: h.sandbox.memberId,
      planningUserId: h.sandbox.memberId,
      orgId: h.sandbox.orgId,
      token: h.sandbox.memberToken,
      origin: 'brought',
    });
    const { teamId, channelId } = h.fixture;
    await h.store.links.upsert({
      workspaceId: `${ORG}:T0A`,
      slackChannelId: 'C1',
      teamId,
      channelId,
      createdBy: 'U1',
    });
    const firstCall = h.slack.calls.length;

    let since = h.slack.calls.length;
    expect((await orgCommand('whoami', 'T0A')).status).toBe(200);
    expect(await replyTo(since)).not.toContain('not connected');
    since = h.slack.calls.length;
    await orgCommand('whoami', 'T0B');
    expect(await replyTo(since)).toContain('not connected');

    since = h.slack.calls.length;
    await orgCommand('digest', 'T0A');
    expect(await replyTo(since)).toContain('Daily digest in <#C1>');
    since = h.slack.calls.length;
    await orgCommand('digest', 'T0B');
    expect(await replyTo(since)).toContain('not linked');

    // Every Web API call those requests made carried the org's bot token.
    const apiCalls = h.slack.calls.slice(firstCall).filter((c) => c.method !== 'respond');
    expect(apiCalls.length).toBeGreaterThan(0);
    expect(new Set(apiCalls.map((c) => c.token))).toEqual(new Set([orgToken]));
    // The digest, which starts outside any request, finds the org's bot token from the workspace id.
    expect(await h.store.installations.botToken(`${ORG}:T0A`)).toBe(orgToken);
    expect(await h.store.links.listByWorkspace(`${ORG}:T0B`)).toEqual([]);
  });

  it('an uninstall at org level removes every workspace’s data', async () => {
    await installOrgWide();
    for (const ws of [`${ORG}:T0A`, `${ORG}:T0B`, 'T0OTHER']) {
      await h.store.identities.save({
        workspaceId: ws,
        slackUserId: 'U1',
        serviceAccountId: h.sandbox.memberId,
        planningUserId: h.sandbox.memberId,
        orgId: h.sandbox.orgId,
        token: h.sandbox.memberToken,
        origin: 'brought',
      });
    }
    const uninstalled = await h.event(
      { type: 'app_uninstalled' },
      {},
      { team_id: 'T0A', enterprise_id: ORG, is_enterprise_install: true, event_id: 'EvUNINSTALL' },
    );
    expect(uninstalled.status).toBe(200);
    await expect.poll(() => h.store.identities.get(`${ORG}:T0B`, 'U1'), { timeout: 10_000 }).toBeUndefined();
    expect(await h.store.identities.get(`${ORG}:T0A`, 'U1')).toBeUndefined();
    expect(await h.store.installations.botToken(`${ORG}:T0A`)).toBeUndefined();
    expect(await h.store.identities.get('T0OTHER', 'U1')).toBeDefined();
  });
});
