import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOT_SCOPES } from '../../../src/slack/bolt/manifest.js';
import { Harness } from '../../helpers/slack-harness.js';

describe('OAuth install for many workspaces', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ oauth: true });
  });
  afterEach(() => h.close());

  it('installs through /slack/install and /slack/oauth_redirect, stores the installation, then serves that workspace', async () => {
    const begun = await h.beginInstall();
    const { authorize, page } = begun;
    // SLACK_API_URL's host serves the authorize page too (GovSlack, the fake here).
    expect(authorize.origin + authorize.pathname).toBe(`${h.slack.url}/oauth/v2/authorize`);
    expect(authorize.searchParams.get('scope')?.split(',')).toEqual([...BOT_SCOPES]);
    // The landing page states every scope with why, what is kept, and how to delete it.
    for (const scope of BOT_SCOPES) expect(page).toContain(`<code>${scope}</code> — `);
    expect(page).toContain('What it keeps, and for how long');
    expect(page).toContain('Deleting a workspace’s data');

    // Slack issues the bot token as it answers the code exchange.
    h.slack.acceptToken('xoxb-installed-token');
    h.slack.on('oauth.v2.access', () => ({
      ok: true,
      app_id: 'A1',
      access_token: 'xoxb-installed-token',
      token_type: 'bot',
      scope: BOT_SCOPES.join(','),
      bot_user_id: 'UBOT2',
      team: { id: 'T0OAUTH', name: 'Installed' },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: 'UINSTALLER' },
    }));
    const redirect = await h.finishInstall('the-code', begun);
    expect(redirect.status).toBe(200);
    expect(h.slack.called('oauth.v2.access')[0]?.body).toMatchObject({
      code: 'the-code',
      client_id: '111.222',
    });

    const installation = await h.store.installations.installationStore.fetchInstallation({
      teamId: 'T0OAUTH',
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(installation.bot?.token).toBe('xoxb-installed-token');

    // The installed workspace is served with its own bot token.
    await h.command('help', 'U1', 'C1', 'T0OAUTH');
    const reply = await h.slack.waitFor('respond');
    expect(JSON.stringify(reply.body)).toContain('/plan connect');
  });

  it('refuses a redirect whose state it did not issue, and stores nothing', async () => {
    const redirect = await h.finishInstall('x', { state: 'forged', cookie: '' });
    expect(redirect.status).toBeGreaterThanOrEqual(400);
    expect(h.slack.called('oauth.v2.access')).toEqual([]);
  });
});

describe('OAuth mode with PLANNING_ADMIN_TOKEN set', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ oauth: true, provisioning: true });
  });
  afterEach(() => h.close());

  it('never provisions an installed workspace with the environment’s admin token', async () => {
    await h.store.installations.installationStore.storeInstallation({
      team: { id: 'T0OTHER', name: 'Another company' },
      enterprise: undefined,
      user: { id: 'UINSTALLER', token: undefined, scopes: undefined },
      bot: { token: 'xoxb-other', scopes: ['commands'], id: 'B2', userId: 'UBOT2' },
      tokenType: 'bot',
      isEnterpriseInstall: false,
      authVersion: 'v2',
    });
    const accountsBefore = (await h.owner().serviceAccounts.list()).serviceAccounts.length;

    await h.command('whoami', 'U1', 'C1', 'T0OTHER');
    const reply = JSON.stringify((await h.slack.waitFor('respond')).body);
    expect(reply).toContain('not connected');
    expect(await h.store.identities.get('T0OTHER', 'U1')).toBeUndefined();
    expect((await h.owner().serviceAccounts.list()).serviceAccounts).toHaveLength(accountsBefore);

    // Nor does the digest read another organization's channel with it.
    const { teamId, channelId } = h.fixture;
    await h.store.links.upsert({
      workspaceId: 'T0OTHER',
      slackChannelId: 'C9',
      teamId,
      channelId,
      createdBy: 'U1',
    });
    await h.command('digest now', 'U1', 'C9', 'T0OTHER');
    const answer = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('planning account'));
    expect(JSON.stringify(answer.body)).toContain('No planning account can read this channel');
    expect(h.slack.called('chat.postMessage')).toEqual([]);
  });
});

describe('OAuth install with link previews configured', () => {
  it('asks for links:read and links:write too, and the landing page says why', async () => {
    const h = await Harness.start({
      oauth: true,
      env: { PLANNING_WEB_TASK_URL: 'https://plan.example.test/t/{teamId}/{channelId}/{featureId}/{taskId}' },
    });
    try {
      const { authorize, page } = await h.beginInstall();
      expect(authorize.searchParams.get('scope')?.split(',')).toEqual([
        ...BOT_SCOPES,
        'links:read',
        'links:write',
      ]);
      expect(page).toContain('<code>links:read</code> — ');
      expect(page).toContain('<code>links:write</code> — ');
    } finally {
      await h.close();
    }
  });
});
