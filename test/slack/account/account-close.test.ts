/** `/plan disconnect --close`: after a confirmation, the person's own pasted account is closed. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPlanningClient, UnauthorizedError } from '../../../src/planning/index.js';
import { ACCOUNT_ACTION } from '../../../src/slack/account/ids.js';
import { Harness, TEAM } from '../../helpers/slack-harness.js';

describe('/plan disconnect --close', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
  });
  afterEach(() => h.close());

  /** Close, pressed on the ephemeral question. */
  const pressClose = () => h.press({ ephemeral: true }, ACCOUNT_ACTION.close, { user: 'UMEM' });

  it('asks first, then closes the account with the person’s own token and forgets it; a second press changes nothing', async () => {
    await h.connect('UMEM', 'member');
    await h.command('disconnect --close', 'UMEM');
    const ask = await h.slack.waitFor('respond');
    const asked = JSON.stringify(ask.body);
    expect(asked).toContain(ACCOUNT_ACTION.close);
    expect(asked).toContain('"confirm"');
    // Nothing happened yet.
    expect(await h.store.identities.get(TEAM, 'UMEM')).toBeDefined();
    expect(h.sandbox.requests.count('accountClose')).toBe(0);

    await pressClose();
    const done = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('Disconnected'));
    expect(done.body.replace_original).toBe(true);
    expect(JSON.stringify(done.body)).toContain('Your account in the planning service is closed');
    expect(await h.store.identities.get(TEAM, 'UMEM')).toBeUndefined();
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken, retries: 0 });
    await expect(member.account.read()).rejects.toBeInstanceOf(UnauthorizedError);

    await pressClose();
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('nothing to forget'));
    expect(h.sandbox.requests.count('accountClose')).toBe(1);
  });

  it('keeps the identity when the service refuses to close, and says why', async () => {
    await h.connect('UMEM', 'member');
    h.sandbox.inject({ operationId: 'accountClose', status: 503 });
    await pressClose();
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('not answering right now'));
    expect(await h.store.identities.get(TEAM, 'UMEM')).toBeDefined();
  });

  it('without --close only forgets a pasted account', async () => {
    await h.connect('UMEM', 'member');
    await h.command('disconnect', 'UMEM');
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('Disconnected'));
    expect(h.sandbox.requests.count('accountClose')).toBe(0);
    const member = createPlanningClient({ baseUrl: h.sandbox.url, token: h.sandbox.memberToken });
    expect((await member.account.read()).id).toBe(h.sandbox.memberId);
  });
});
