/**
 * Bad input over raw HTTP (the project's client refuses most of it before sending): every field
 * limit answers 400 `invalid-argument-<field>`, nothing is created, and the server keeps serving.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { LIMITS } from '../../src/planning/models.js';
import { expectError, featureIn, raw, roles, useSandbox } from '../helpers/sandbox.js';

const logLines: string[] = [];
const ctx = useSandbox({
  logger: createLogger({ level: 'warn', destination: { write: (line) => logLines.push(line) } }),
});
const { owner, member } = roles(ctx);
const long = (n: number) => 'x'.repeat(n);

async function paths() {
  const f = await featureIn(owner(), member(), ctx.sandbox.memberId, 'Validated feature');
  const task = await member().tasks.create(...f.path, { heading: 'Validated task' });
  const fb = await member().tasks.feedbackCreate(...f.path, task.id, { message: 'ok' });
  const F = `/teams/${f.teamId}/channels/${f.channelId}/features/${f.featureId}`;
  return { f, F, T: `${F}/tasks/${task.id}`, feedbackId: fb.id };
}

describe('field limits → 400 invalid-argument-<field>', () => {
  it('every limited field, one request each, and nothing is created', async () => {
    const { f, F, T, feedbackId } = await paths();
    const cases: [string, string, unknown, string][] = [
      ['POST', '/teams', { teamName: 'ab' }, 'teamName'],
      ['POST', '/teams', { teamName: long(LIMITS.teamName.max + 1) }, 'teamName'],
      ['POST', '/teams', {}, 'teamName'],
      ['POST', `/teams/${f.teamId}/channels`, { channelName: 'ab' }, 'channelName'],
      ['POST', `/teams/${f.teamId}/channels`, { channelName: 'Okay', channelDesc: long(257) }, 'channelDesc'],
      ['POST', `/teams/${f.teamId}/channels/${f.channelId}/features`, { heading: '' }, 'heading'],
      ['POST', `/teams/${f.teamId}/channels/${f.channelId}/features`, { heading: long(201) }, 'heading'],
      ['POST', F, { details: long(2049) }, 'details'],
      ['POST', F, { priority: 11 }, 'priority'],
      ['POST', F, { priority: 0 }, 'priority'],
      ['POST', F, { focus: 'beauty' }, 'focus'],
      ['POST', `${F}/tasks`, { heading: long(201) }, 'heading'],
      ['POST', T, { state: 'blocked' }, 'state'],
      ['POST', `${T}/discoveries`, { details: long(513) }, 'details'],
      ['POST', `${T}/feedback`, { message: long(513) }, 'message'],
      ['POST', `${T}/feedback`, { message: 'ok', issue: 'style' }, 'issue'],
      ['POST', `${T}/feedback/${feedbackId}/reply`, { reply: long(513) }, 'reply'],
      ['POST', `${F}/assms`, { heading: long(201) }, 'heading'],
      ['POST', '/notions', { value: long(65) }, 'value'],
      ['POST', '/notions', { value: '' }, 'value'],
      ['POST', '/service-accounts', { roleOrg: 'owner', userName: 'Bot one' }, 'roleOrg'],
      ['POST', '/service-accounts', { roleOrg: 'member', userName: 'ab' }, 'userName'],
      ['POST', '/account', { userName: long(65) }, 'userName'],
      ['POST', '/invitations', { teamId: f.teamId, inviteName: 'ab' }, 'inviteName'],
      [
        'POST',
        '/invitations',
        { teamId: f.teamId, inviteName: 'Okay', inviteExpireDays: 31 },
        'inviteExpireDays',
      ],
      ['POST', '/invitations', { teamId: f.teamId, inviteName: 'Okay', inviteUsesMax: 501 }, 'inviteUsesMax'],
      ['POST', '/invitations', { inviteName: 'No team' }, 'teamId'],
      ['POST', '/teams', { teamName: 'Fine', extra: true }, 'extra'],
    ];
    const before = await owner().teams.listAll();
    for (const [method, path, json, field] of cases) {
      const answer = await raw(ctx.sandbox, method, path, { token: ctx.sandbox.ownerToken, json });
      expect({ path, field, answer: answer.body }).toEqual({
        path,
        field,
        answer: { id: `invalid-argument-${field}`, message: expect.any(String) },
      });
      expect(answer.status).toBe(400);
    }
    expect((await owner().teams.listAll()).total).toBe(before.total);
    expect((await owner().invitations.list()).total).toBe(0);
  });
});

describe('paging and query arguments', () => {
  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=1501', 'pageSize'],
    ['pageSize=ten', 'pageSize'],
    ['pageNumber=0', 'pageNumber'],
    ['page_size=10', 'page_size'],
  ])('%s → invalid-argument-%s', async (query, field) => {
    expectError(
      await raw(ctx.sandbox, 'GET', `/teams?${query}`, { token: ctx.sandbox.ownerToken }),
      400,
      `invalid-argument-${field}`,
    );
  });

  it('pageSize 1 and 1500 are fine; pages slice the list', async () => {
    for (const name of ['Paged A', 'Paged B']) await owner().teams.create({ teamName: name });
    const first = await raw(ctx.sandbox, 'GET', '/teams?pageSize=1&pageNumber=2', {
      token: ctx.sandbox.ownerToken,
    });
    expect(first.body).toMatchObject({ pageNumber: 2, pageSize: 1, teams: [expect.any(Object)] });
    const all = await raw(ctx.sandbox, 'GET', '/teams?pageSize=1500', { token: ctx.sandbox.ownerToken });
    expect(all.status).toBe(200);
  });

  it('a bad stage filter and a bad aggregate are refused', async () => {
    const { f } = await paths();
    const token = ctx.sandbox.memberToken;
    const stage = await raw(
      ctx.sandbox,
      'GET',
      `/teams/${f.teamId}/channels/${f.channelId}/features?stage=done`,
      { token },
    );
    expectError(stage, 400, 'invalid-argument-stage');
    expectError(
      await raw(ctx.sandbox, 'GET', '/account/events?aggregate=2', { token }),
      400,
      'invalid-argument-aggregate',
    );
  });
});

describe('unknown ids, routes and methods', () => {
  it('unknown ids → 404 not-found', async () => {
    const token = ctx.sandbox.ownerToken;
    for (const path of [
      '/teams/nope',
      '/notions/nope',
      '/service-accounts/nope',
      '/invitations/nope',
      '/deep-context/nope',
    ]) {
      expectError(await raw(ctx.sandbox, 'GET', path, { token }), 404, 'not-found');
    }
  });

  it('an unknown route → 404 JSON; a wrong method → 405 JSON with Allow', async () => {
    const token = ctx.sandbox.ownerToken;
    expectError(await raw(ctx.sandbox, 'GET', '/nothing/here', { token }), 404, 'not-found');
    const wrong = await raw(ctx.sandbox, 'PATCH', '/teams', { token });
    expectError(wrong, 405, 'method-not-allowed');
    expect(wrong.headers.allow).toBe('GET, POST');
  });
});

describe('garbage never crashes the server', () => {
  it('malformed JSON → 400 invalid-argument-body; a JSON array → 400', async () => {
    const token = ctx.sandbox.ownerToken;
    const headers = { 'content-type': 'application/json' };
    expectError(
      await raw(ctx.sandbox, 'POST', '/teams', { token, body: '{"teamName": ', headers }),
      400,
      'invalid-argument-body',
    );
    expectError(
      await raw(ctx.sandbox, 'POST', '/teams', { token, body: '[1,2]', headers }),
      400,
      'invalid-argument-body',
    );
    expectError(
      await raw(ctx.sandbox, 'POST', '/teams', { token, body: '\u0000\u0001garbage', headers }),
      400,
      'invalid-argument-body',
    );
  });

  it('a body over the size limit is drained and refused', async () => {
    const answer = await raw(ctx.sandbox, 'POST', '/teams', {
      token: ctx.sandbox.ownerToken,
      body: Buffer.alloc(3 * 1024 * 1024, 0x20),
      headers: { 'content-type': 'application/json' },
    });
    expectError(answer, 400, 'invalid-argument-body');
  });

  it('a bug in a handler → 500 JSON, logged without the token, and the server keeps serving', async () => {
    const team = await owner().teams.create({ teamName: 'Broken on purpose' });
    const stored = ctx.sandbox.state().teams[team.id];
    if (!stored) throw new Error('team not stored');
    stored.channels = null as unknown as typeof stored.channels;
    const broken = await raw(ctx.sandbox, 'GET', `/teams/${team.id}`, { token: ctx.sandbox.ownerToken });
    expectError(broken, 500, 'internal-error');
    const logged = logLines.find((line) => line.includes('handler failed'));
    expect(logged).toContain('teams.read');
    expect(logLines.join('\n')).not.toContain(ctx.sandbox.ownerToken);
    delete ctx.sandbox.state().teams[team.id];
    expect((await owner().account.read()).id).toBe(ctx.sandbox.ownerId);
  });

  it('a path with a broken escape is a 404, not a crash', async () => {
    const answer = await request(`${ctx.sandbox.url}/teams/%E0%A4%A`, {
      headers: { authorization: `Bearer ${ctx.sandbox.ownerToken}` },
    });
    expect(answer.statusCode).toBe(404);
    expect(await answer.body.json()).toMatchObject({ id: 'not-found' });
  });
});
