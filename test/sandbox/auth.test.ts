import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../src/planning/index.js';
import { clientFor, expectError, failure, raw, roles, useSandbox } from '../helpers/sandbox.js';

const ctx = useSandbox({ seed: 'minimal', jwtSecret: 'test-secret-for-the-auth-suite-0123456789' });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('401 ids', () => {
  const cases: [string, () => Record<string, string>, string][] = [
    ['no Authorization header → auth-missing', () => ({}), 'auth-missing'],
    [
      'a scheme other than Bearer → auth-invalid',
      () => ({ authorization: 'Basic dXNlcjpwYXNz' }),
      'auth-invalid',
    ],
    ['Bearer without a token → jwt-missing', () => ({ authorization: 'Bearer ' }), 'jwt-missing'],
    ['not three parts → jwt-format', () => ({ authorization: 'Bearer abc.def' }), 'jwt-format'],
    [
      'an unreadable header → jwt-format-header',
      () => ({ authorization: `Bearer %%%.${b64({ sub: 'x' })}.sig` }),
      'jwt-format-header',
    ],
    [
      'an algorithm other than HS256 → jwt-format-header',
      () => ({ authorization: `Bearer ${b64({ alg: 'none' })}.${b64({ org_id: 'o', sub: 's', ver: 1 })}.` }),
      'jwt-format-header',
    ],
    [
      'an unreadable payload → jwt-format-body',
      () => ({ authorization: `Bearer ${b64({ alg: 'HS256' })}.%%%.sig` }),
      'jwt-format-body',
    ],
    [
      'claims missing → jwt-payload',
      () => ({ authorization: `Bearer ${b64({ alg: 'HS256' })}.${b64({ sub: 'x' })}.sig` }),
      'jwt-payload',
    ],
  ];
  for (const [name, headers, id] of cases) {
    it(name, async () => {
      expectError(await raw(ctx.sandbox, 'GET', '/account', { headers: headers() }), 401, id);
    });
  }

  it('a token signed with another secret → jwt-issuer', async () => {
    const { orgId, memberId } = ctx.sandbox;
    const forged = await new SignJWT({ org_id: orgId, ver: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(memberId)
      .sign(new TextEncoder().encode('someone-elses-secret-0123456789abcdef'));
    expectError(await raw(ctx.sandbox, 'GET', '/account', { token: forged }), 401, 'jwt-issuer');
  });

  it('x-org-id different from the token org_id → jwt-payload', async () => {
    const answer = await raw(ctx.sandbox, 'GET', '/account', {
      token: ctx.sandbox.memberToken,
      headers: { 'x-org-id': 'another-org' },
    });
    expectError(answer, 401, 'jwt-payload');
  });

  it('a well-signed token of an account that does not exist → auth-api-invalid', async () => {
    const { orgId } = ctx.sandbox;
    const ghost = await new SignJWT({ org_id: orgId, ver: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('ffffffffffffffffffffffff')
      .sign(new TextEncoder().encode('test-secret-for-the-auth-suite-0123456789'));
    expectError(await raw(ctx.sandbox, 'GET', '/account', { token: ghost }), 401, 'auth-api-invalid');
  });

  it('an expired token → auth-api-expired', async () => {
    const expired = await ctx.sandbox.issueToken(ctx.sandbox.memberId, { expiresAt: Date.now() - 60_000 });
    expectError(await raw(ctx.sandbox, 'GET', '/account', { token: expired }), 401, 'auth-api-expired');
  });

  it('the client turns a 401 into UnauthorizedError with the id', async () => {
    const expired = await ctx.sandbox.issueToken(ctx.sandbox.memberId, { expiresAt: Date.now() - 60_000 });
    const error = await failure(clientFor(ctx.sandbox, expired).account.read());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, errorId: 'auth-api-expired' });
  });

  it('a valid token reads its own account', async () => {
    const me = await clientFor(ctx.sandbox, ctx.sandbox.memberToken).account.read();
    expect(me.id).toBe(ctx.sandbox.memberId);
    expect(me.roleOrg).toEqual([{ orgId: ctx.sandbox.orgId, role: 'member' }]);
  });
});

describe('RBAC: owner → r/w everyone; admin → read owners, r/w admins and members; member → read only', () => {
  const { owner } = roles(ctx);
  const admin = () => clientFor(ctx.sandbox, ctx.sandbox.adminToken);
  const member = () => clientFor(ctx.sandbox, ctx.sandbox.memberToken);

  it('a member cannot create a team (403 not-allowed)', async () => {
    const error = await failure(member().teams.create({ teamName: 'Not mine' }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.errorId).toBe('not-allowed');
    const { teams } = await member().teams.listAll();
    expect(teams.map((t) => t.teamName)).not.toContain('Not mine');
  });

  it('a member cannot write on another account, but reads it (without its token)', async () => {
    const error = await failure(
      member().serviceAccounts.update(ctx.sandbox.adminId, { userName: 'Renamed' }),
    );
    expect(error).toBeInstanceOf(ForbiddenError);
    const seen = await member().serviceAccounts.read(ctx.sandbox.adminId);
    expect(seen.userName).not.toBe('Renamed');
    expect(seen.serviceToken).toBeUndefined();
  });

  it('an admin reads the owner but cannot write on them', async () => {
    const seen = await admin().serviceAccounts.read(ctx.sandbox.ownerId);
    expect(seen.roleOrg).toBe('owner');
    expect(seen.serviceToken).toBeUndefined();
    const error = await failure(admin().serviceAccounts.update(ctx.sandbox.ownerId, { userName: 'Demoted' }));
    expect(error).toBeInstanceOf(ForbiddenError);
  });

  it('an admin writes on a member', async () => {
    const updated = await admin().serviceAccounts.update(ctx.sandbox.memberId, {
      userName: 'Sandbox Member 2',
    });
    expect(updated.userName).toBe('Sandbox Member 2');
    expect(updated.serviceToken).toBe(ctx.sandbox.memberToken);
    await admin().serviceAccounts.update(ctx.sandbox.memberId, { userName: 'Sandbox Member' });
  });

  it('the owner writes on an admin', async () => {
    const updated = await owner().serviceAccounts.update(ctx.sandbox.adminId, { userName: 'Chief Admin' });
    expect(updated.userName).toBe('Chief Admin');
  });

  it('every account reads and writes itself', async () => {
    const self = await member().serviceAccounts.update(ctx.sandbox.memberId, { userName: 'Myself' });
    expect(self.userName).toBe('Myself');
    expect((await member().account.update({ userName: 'Sandbox Member' })).userName).toBe('Sandbox Member');
  });

  it('a member cannot raise their own role', async () => {
    const error = await failure(member().serviceAccounts.update(ctx.sandbox.memberId, { roleOrg: 'admin' }));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((await member().account.read()).roleOrg).toEqual([{ orgId: ctx.sandbox.orgId, role: 'member' }]);
  });

  it('a member may join a team themselves but not assign someone else', async () => {
    const team = await owner().teams.create({ teamName: 'Self service' });
    const joined = await member().teams.assign(team.id, ctx.sandbox.memberId);
    expect(joined.teams.map((t) => t.teamId)).toContain(team.id);
    expect(await failure(member().teams.assign(team.id, ctx.sandbox.adminId))).toBeInstanceOf(ForbiddenError);
  });
});

describe('organizations are isolated', () => {
  it("org B's token gets 404 for org A's ids and never sees A's lists", async () => {
    const a = clientFor(ctx.sandbox, ctx.sandbox.ownerToken);
    const orgB = await ctx.sandbox.createOrganization('Other Company');
    const b = clientFor(ctx.sandbox, orgB.ownerToken);
    const team = await a.teams.create({ teamName: 'Secret team' });
    const channelId = team.channels[0]?.id as string;
    const feature = await a.features.create(team.id, channelId, { heading: 'Secret feature' });
    const notion = await a.notions.create({ value: 'secret-notion' });

    // One after another: calls started together would reject before the loop awaits them.
    for (const attempt of [
      () => b.teams.read(team.id),
      () => b.features.read(team.id, channelId, feature.id),
      () => b.notions.read(notion.id),
      () => b.serviceAccounts.read(ctx.sandbox.memberId),
      () => b.teams.assign(team.id, orgB.memberId),
      () => b.features.list(team.id, channelId),
    ]) {
      const error = await failure(attempt());
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.errorId).toBe('not-found');
    }
    const teamsOfB = (await b.teams.listAll()).teams.map((t) => t.id);
    expect(teamsOfB).not.toContain(team.id);
    expect((await b.notions.search()).notions.map((n) => n.id)).not.toContain(notion.id);
    const accountsOfB = (await b.serviceAccounts.list()).serviceAccounts.map((s) => s.id);
    expect(accountsOfB).toEqual(expect.arrayContaining([orgB.ownerId, orgB.adminId, orgB.memberId]));
    expect(accountsOfB).not.toContain(ctx.sandbox.memberId);
  });
});
