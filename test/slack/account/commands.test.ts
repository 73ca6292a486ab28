import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_FIELD, ACCOUNT_VIEW } from '../../../src/slack/account/ids.js';
import { eventually, Harness, TEAM, text, viewIdOf } from '../../helpers/slack-harness.js';

const everything = (h: Harness) => JSON.stringify(h.slack.calls) + h.logs.join('');

describe('/plan', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    h.slack.users.set('U1', { id: 'U1', name: 'ana' });
    h.slack.users.set('UADMIN', { id: 'UADMIN', name: 'root', isAdmin: true, tz: 'America/New_York' });
  });
  afterEach(() => h.close());

  it.each(['', 'help'])('"/plan %s" lists every subcommand', async (input) => {
    await h.command(input);
    const reply = JSON.stringify((await h.slack.waitFor('respond')).body);
    for (const sub of [
      'help',
      'connect',
      'whoami',
      'disconnect',
      'grade',
      'grades',
      'link',
      'unlink',
      'digest',
      'admin',
    ]) {
      expect(reply).toContain(`/plan ${sub}`);
    }
  });

  it('answers an unknown subcommand with "I don\'t know" and the help — never silence', async () => {
    await h.command('frobnicate <!channel>');
    const reply = await h.slack.waitFor('respond');
    expect(reply.body.response_type).toBe('ephemeral');
    expect(String(reply.body.text)).toContain("I don't know `/plan frobnicate &lt;!channel&gt;`");
    expect(JSON.stringify(reply.body)).toContain('/plan connect');
  });

  it("echoes what the person typed, escaped once: Slack's entities are decoded where the text enters (issue 23 item 1)", async () => {
    // Typed: `/plan frobnicate R&D <!channel>`; Slack escapes the person's own `&`, `<` and `>`.
    await h.command('frobnicate R&amp;D &lt;!channel&gt;');
    const said = String((await h.slack.waitFor('respond')).body.text);
    expect(said).toContain("I don't know `/plan frobnicate R&amp;D &lt;!channel&gt;`");
    expect(said).not.toContain('&amp;amp;');
    expect(said).not.toContain('<!channel>');
  });

  describe('connect', () => {
    it('checks a pasted token with account.read and stores it, never echoing it', async () => {
      await h.command('connect');
      const open = await h.slack.waitFor('views.open');
      expect((open.body.view as { callback_id: string }).callback_id).toBe(ACCOUNT_VIEW.connect);
      await h.submit(viewIdOf(open), [[ACCOUNT_FIELD.token, text(` ${h.sandbox.memberToken} `)]]);
      await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('You now act as'));
      const identity = await h.store.identities.get(TEAM, 'U1');
      expect(identity).toMatchObject({
        origin: 'brought',
        planningUserId: h.sandbox.memberId,
        orgId: h.sandbox.orgId,
        token: h.sandbox.memberToken,
        valid: true,
      });
      expect(everything(h)).not.toContain(h.sandbox.memberToken);
    });

    it('refuses a malformed token on its field, and a refused token under the form', async () => {
      await h.command('connect');
      const viewId = viewIdOf(await h.slack.waitFor('views.open'));
      const bad = await h.submit(viewId, [[ACCOUNT_FIELD.token, text('not a token')]]);
      expect(bad.json()).toMatchObject({
        response_action: 'errors',
        errors: { [ACCOUNT_FIELD.token.block]: expect.stringContaining('not a service-account token') },
      });

      const expired = await h.sandbox.issueToken(h.sandbox.memberId, { expiresAt: Date.now() - 60_000 });
      await h.submit(viewId, [[ACCOUNT_FIELD.token, text(expired)]]);
      const view = await h.slack.waitFor('views.update', (b) =>
        JSON.stringify(b.view).includes('refused this token'),
      );
      expect(JSON.stringify(view.body.view)).not.toContain(expired);
      expect(await h.store.identities.get(TEAM, 'U1')).toBeUndefined();
      expect(everything(h)).not.toContain(expired);
    });

    it('connect admin: admins only, an owner/admin token only; then members are provisioned on first use', async () => {
      await h.command('connect admin', 'U1');
      expect(JSON.stringify((await h.slack.waitFor('respond')).body)).toContain('Only workspace admins');

      await h.command('connect admin', 'UADMIN');
      const open = await h.slack.waitFor('views.open');
      expect((open.body.view as { callback_id: string }).callback_id).toBe(ACCOUNT_VIEW.connectAdmin);
      await h.submit(viewIdOf(open), [[ACCOUNT_FIELD.token, text(h.sandbox.memberToken)]], {
        user: 'UADMIN',
      });
      await h.slack.waitFor('views.update', (b) => JSON.stringify(b.view).includes('not an owner or admin'));
      expect((await h.store.workspaces.get(TEAM))?.adminToken).toBeUndefined();

      await h.submit(viewIdOf(open), [[ACCOUNT_FIELD.token, text(h.sandbox.adminToken)]], {
        user: 'UADMIN',
        hash: 'again',
      });
      await h.slack.waitFor('views.update', (b) =>
        JSON.stringify(b.view).includes('Members get a service account'),
      );
      expect((await h.store.workspaces.get(TEAM))?.adminToken).toBe(h.sandbox.adminToken);

      // U1 now acts without connecting: an account named after their profile is created.
      await h.command('whoami', 'U1');
      const who = JSON.stringify(
        (await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('You act as'))).body,
      );
      expect(who).toContain('*ana*');
      expect(who).toContain('a service account the app created for you');
      expect(await h.store.identities.get(TEAM, 'U1')).toMatchObject({ origin: 'provisioned' });
      expect(everything(h)).not.toContain(h.sandbox.adminToken);
    });
  });

  it('whoami without a connection offers Connect', async () => {
    await h.command('whoami');
    const reply = JSON.stringify((await h.slack.waitFor('respond')).body);
    expect(reply).toContain('connect_open');
    expect(reply).toContain('not connected');
  });

  it('the Connect button opens the token form', async () => {
    await h.press({}, 'connect_open');
    const open = await h.slack.waitFor('views.open');
    expect((open.body.view as { callback_id: string }).callback_id).toBe(ACCOUNT_VIEW.connect);
  });

  it('whoami says who you act as, in which organization and role — never the token', async () => {
    await h.connect('U1', 'member');
    await h.command('whoami');
    const reply = JSON.stringify((await h.slack.waitFor('respond')).body);
    expect(reply).toContain('as member');
    expect(reply).toContain('a token you pasted');
    expect(reply).not.toContain(h.sandbox.memberToken);
  });
});

describe('/plan disconnect with provisioning', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ provisioning: true });
    h.slack.users.set('U1', { id: 'U1', name: 'ana' });
  });
  afterEach(() => h.close());

  it('forgets the identity and leaves the provisioned account open, to come back to (see come-back.test.ts)', async () => {
    await h.command('whoami');
    await h.slack.waitFor('respond');
    const identity = (await h.store.identities.get(TEAM, 'U1'))!;
    expect(identity.origin).toBe('provisioned');
    await h.command('disconnect');
    const reply = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('Disconnected'));
    expect(JSON.stringify(reply.body)).toContain('stays open with your tasks and grades');
    expect(await h.store.identities.get(TEAM, 'U1')).toBeUndefined();
    const account = await h.owner().serviceAccounts.read(identity.serviceAccountId);
    expect(account.closedTime).toBe(0);
  });

  it('says so when there is nothing to forget', async () => {
    await h.command('disconnect', 'UNOBODY');
    expect(JSON.stringify((await h.slack.waitFor('respond')).body)).toContain('nothing to forget');
  });
});

describe('a provisioned account whose token stopped working', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start({ provisioning: true });
    h.slack.users.set('U1', { id: 'U1', name: 'ana' });
  });
  afterEach(() => h.close());

  it('is renewed on the next use, without asking the user for a token', async () => {
    await h.command('whoami');
    await h.slack.waitFor('respond');
    const first = (await h.store.identities.get(TEAM, 'U1'))!;
    // Someone regenerates the account: the stored token dies.
    await h.owner().serviceAccounts.regenerate(first.serviceAccountId);

    await h.command('whoami');
    const expired = await h.slack.waitFor('respond', (b) =>
      JSON.stringify(b).includes('renewed on your next try'),
    );
    expect(JSON.stringify(expired.body)).not.toContain('connect_open');
    expect((await h.store.identities.get(TEAM, 'U1'))?.valid).toBe(false);

    await h.command('whoami');
    await eventually(
      () =>
        h.slack.called('respond').filter((c) => JSON.stringify(c.body).includes('You act as')).length === 2,
      'a second whoami answer',
    );
    const renewed = (await h.store.identities.get(TEAM, 'U1'))!;
    expect(renewed).toMatchObject({
      valid: true,
      serviceAccountId: first.serviceAccountId,
      origin: 'provisioned',
    });
    expect(renewed.token).not.toBe(first.token);
  });
});
