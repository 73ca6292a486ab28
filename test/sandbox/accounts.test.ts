import { FormData, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, PaymentRequiredError, UnauthorizedError } from '../../src/planning/index.js';
import { makePng } from '../helpers/planning-mock.js';
import { clientFor, expectError, failure, roles, useSandbox } from '../helpers/sandbox.js';

const ctx = useSandbox();
const { owner, admin, member } = roles(ctx);

describe('service accounts: open → closed → regenerated', () => {
  it('create (admin) returns a working token; a member cannot create', async () => {
    const created = await admin().serviceAccounts.create({ roleOrg: 'member', userName: 'Deploy bot' });
    expect(created).toMatchObject({
      userName: 'Deploy bot',
      roleOrg: 'member',
      serviceAccount: true,
      closedTime: 0,
    });
    expect((await clientFor(ctx.sandbox, created.serviceToken as string).account.read()).id).toBe(created.id);
    expect(
      await failure(member().serviceAccounts.create({ roleOrg: 'member', userName: 'Nope bot' })),
    ).toBeInstanceOf(ForbiddenError);
  });

  it('regenerate replaces the token: the old one is refused with auth-api-expired', async () => {
    const bot = await admin().serviceAccounts.create({ roleOrg: 'member', userName: 'Rotating bot' });
    const regenerated = await admin().serviceAccounts.regenerate(bot.id);
    expect(regenerated.serviceToken).not.toBe(bot.serviceToken);
    const error = await failure(clientFor(ctx.sandbox, bot.serviceToken as string).account.read());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.errorId).toBe('auth-api-expired');
    expect((await clientFor(ctx.sandbox, regenerated.serviceToken as string).account.read()).id).toBe(bot.id);
  });

  it('close sets closedTime and replaces the token; closed accounts stay listed; regenerate re-opens', async () => {
    const bot = await admin().serviceAccounts.create({ roleOrg: 'member', userName: 'Closing bot' });
    const closed = await admin().serviceAccounts.close(bot.id);
    expect(closed.closedTime).toBeGreaterThan(0);
    expect(closed.serviceToken).not.toBe(bot.serviceToken);
    for (const token of [bot.serviceToken, closed.serviceToken]) {
      expect((await failure(clientFor(ctx.sandbox, token as string).account.read())).errorId).toBe(
        'auth-api-expired',
      );
    }
    const listed = (await admin().serviceAccounts.list()).serviceAccounts.find((s) => s.id === bot.id);
    expect(listed?.closedTime).toBeGreaterThan(0);
    const reopened = await admin().serviceAccounts.regenerate(bot.id);
    expect(reopened.closedTime).toBe(0);
    expect((await clientFor(ctx.sandbox, reopened.serviceToken as string).account.read()).id).toBe(bot.id);
  });

  it('an admin cannot close or regenerate the owner', async () => {
    expect(await failure(admin().serviceAccounts.close(ctx.sandbox.ownerId))).toBeInstanceOf(ForbiddenError);
    expect(await failure(admin().serviceAccounts.regenerate(ctx.sandbox.ownerId))).toBeInstanceOf(
      ForbiddenError,
    );
    expect((await owner().account.read()).id).toBe(ctx.sandbox.ownerId);
  });

  it('the owner changes a role; the owner role itself cannot change', async () => {
    const bot = await owner().serviceAccounts.create({ roleOrg: 'member', userName: 'Promoted bot' });
    expect((await owner().serviceAccounts.update(bot.id, { roleOrg: 'admin' })).roleOrg).toBe('admin');
    expect(
      await failure(owner().serviceAccounts.update(ctx.sandbox.ownerId, { roleOrg: 'admin' })),
    ).toBeInstanceOf(ForbiddenError);
  });

  it('over the free plan limit, creating an account answers 402', async () => {
    const org = await ctx.sandbox.createOrganization('Crowded Org');
    const crowded = clientFor(ctx.sandbox, org.ownerToken);
    const { total } = await crowded.serviceAccounts.list();
    const limit = (await crowded.account.read()).orgs[0]?.orgUsersMax ?? 0;
    for (let i = total ?? 0; i < limit; i++) {
      await crowded.serviceAccounts.create({ roleOrg: 'member', userName: `Seat ${i}` });
    }
    const error = await failure(
      crowded.serviceAccounts.create({ roleOrg: 'member', userName: 'One too many' }),
    );
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect(error.errorId).toBe('payment-users-max');
  });
});

describe('the current account', () => {
  it('update renames it', async () => {
    const bot = await admin().serviceAccounts.create({ roleOrg: 'member', userName: 'Renaming bot' });
    const self = clientFor(ctx.sandbox, bot.serviceToken as string);
    expect((await self.account.update({ userName: 'Renamed bot' })).userName).toBe('Renamed bot');
  });

  it('close (by itself) refuses its token; only an owner or admin re-opens it', async () => {
    const bot = await admin().serviceAccounts.create({ roleOrg: 'member', userName: 'Leaving bot' });
    const self = clientFor(ctx.sandbox, bot.serviceToken as string);
    expect(await self.account.close()).toBe(true);
    expect((await failure(self.account.read())).errorId).toBe('auth-api-expired');
    expect(await failure(member().serviceAccounts.regenerate(bot.id))).toBeInstanceOf(ForbiddenError);
    const reopened = await admin().serviceAccounts.regenerate(bot.id);
    expect(reopened.closedTime).toBe(0);
    expect((await clientFor(ctx.sandbox, reopened.serviceToken as string).account.read()).closedTime).toBe(0);
  });

  it('the owner cannot close their own account', async () => {
    expect(await failure(owner().account.close())).toBeInstanceOf(ForbiddenError);
  });

  it('the avatar: a 256×256 PNG is taken', async () => {
    const before = await member().account.read();
    const after = await member().account.avatar({ avatar: makePng(256, 256) });
    expect(after.userAvatarId).toBeDefined();
    expect(after.userAvatarId).not.toBe(before.userAvatarId);
  });

  const upload = async (bytes: Buffer | string) => {
    const form = new FormData();
    if (typeof bytes === 'string') form.set('avatar', bytes);
    else form.set('avatar', new Blob([bytes], { type: 'image/png' }), 'avatar.png');
    const answer = await request(`${ctx.sandbox.url}/account/avatar`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.sandbox.memberToken}` },
      body: form,
    });
    return { status: answer.statusCode, headers: answer.headers, body: await answer.body.json() };
  };

  it.each([
    ['the wrong size', makePng(128, 128)],
    ['not a PNG', Buffer.from('GIF89a not a png at all, sorry')],
    ['200 KB or more', makePng(256, 256, true)],
    ['a text field', 'not a file'],
  ])('the avatar: %s → 400 invalid-argument-avatar, account unchanged', async (_name, bytes) => {
    const before = await member().account.read();
    expectError(await upload(bytes), 400, 'invalid-argument-avatar');
    expect((await member().account.read()).userAvatarId).toBe(before.userAvatarId);
  });
});
