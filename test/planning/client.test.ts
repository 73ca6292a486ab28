import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { Response } from 'undici';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortedError,
  createPlanningClient,
  type FeatureLite,
  InvalidArgumentError,
  NetworkError,
  orgIdFromToken,
  type PageRequest,
  ResponseShapeError,
  TimeoutError,
  UnauthorizedError,
} from '../../src/planning/index.js';
import {
  BASE_URL,
  expectNoToken,
  type MockService,
  makePng,
  makeToken,
  mockService,
  ORG_ID,
  ORIGIN,
  rejectionOf,
} from '../helpers/planning-mock.js';

const F = '/v1/teams/team-1/channels/chan-1/features/feat-1';

let service: MockService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(options: Parameters<typeof mockService>[0] = {}): Promise<MockService> {
  service = await mockService(options);
  return service;
}

describe('authentication', () => {
  it('sends the Bearer token, the org id of the JWT, a versioned User-Agent and Accept', async () => {
    const { pool, client, calls, token } = await start();
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, { id: 'me' });
    await client.account.read();
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
    expect(calls()[0]?.headers).toMatchObject({
      authorization: `Bearer ${token}`,
      'x-org-id': ORG_ID,
      'user-agent': `team-planning-slack/${version} (+node)`,
      accept: 'application/json',
    });
  });

  it("two clients' methods each send their own token, whichever client used an area first", async () => {
    const { pool, agent, client, calls, token } = await start();
    const other = createPlanningClient({ baseUrl: BASE_URL, token: 'other-token', dispatcher: agent });
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, { id: 'me' }).times(3);
    await client.account.read();
    await other.account.read();
    await client.account.read();
    expect(calls().map((call) => call.headers?.authorization)).toEqual([
      `Bearer ${token}`,
      'Bearer other-token',
      `Bearer ${token}`,
    ]);
    // Nothing that prints a client shows its token, used or not.
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(token);
    expect(inspect(other, { depth: 10, showHidden: true })).not.toContain('other-token');
  });

  it('omits x-org-id when the token has no org_id claim', async () => {
    const { pool, client, calls } = await start({ token: 'not-a-jwt' });
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, { id: 'me' });
    await client.account.read();
    expect(calls()[0]?.headers).not.toHaveProperty('x-org-id');
  });

  it('orgIdFromToken decodes the claim without verifying, and tolerates junk', async () => {
    expect(orgIdFromToken(await makeToken('org-7'))).toBe('org-7');
    expect(orgIdFromToken('junk')).toBeUndefined();
    expect(orgIdFromToken('')).toBeUndefined();
  });

  it('refuses bad options with a message naming the option, never the token', async () => {
    const token = await makeToken();
    expect(() => createPlanningClient({ baseUrl: 'ftp://x', token })).toThrow(/option baseUrl/);
    expect(() => createPlanningClient({ baseUrl: BASE_URL, token: '' })).toThrow(/option token/);
    expect(() => createPlanningClient({ baseUrl: BASE_URL, token, retries: -1 })).toThrow(/option retries/);
    try {
      createPlanningClient({ baseUrl: token, token });
    } catch (error) {
      expectNoToken(error, token);
    }
  });
});

describe('arguments', () => {
  it('fills path parameters in order, encoded, with a numeric grade as a string', async () => {
    const { pool, client, calls } = await start();
    pool.intercept({ path: () => true, method: 'PUT' }).reply(200, { id: 'xp-1' });
    await client.experiences.evaluatePeer('notion/1 a', 7, 'user?1');
    expect(calls()[0]?.path).toBe('/v1/xp/notions/notion%2F1%20a/grade/7/users/user%3F1');
  });

  it('sends the JSON payload of a body operation', async () => {
    const { pool, client, calls } = await start();
    pool
      .intercept({ path: `${F}/tasks/task-1/feedback/fb-1/reply`, method: 'POST' })
      .reply(200, { id: 'fb-1' });
    await client.tasks.feedbackReply('team-1', 'chan-1', 'feat-1', 'task-1', 'fb-1', { reply: 'Done' });
    expect(calls()[0]?.headers).toMatchObject({ 'content-type': 'application/json' });
    expect(JSON.parse(calls()[0]?.body ?? '')).toEqual({ reply: 'Done' });
  });

  it('serialises queries on the wire spelling', async () => {
    const { pool, client, calls } = await start();
    pool.intercept({ path: () => true, method: 'GET' }).reply(200, { id: 'co-1', url: 'https://pay' });
    pool.intercept({ path: () => true, method: 'GET' }).reply(200, { features: [] });
    pool.intercept({ path: () => true, method: 'GET' }).reply(200, { events: [] });
    await client.billing.planCheckout('plan-1', { darkMode: true });
    await client.features.list('team-1', 'chan-1', { stage: 'deep context', pageSize: 100 });
    await client.account.eventsList({ aggregate: false });
    expect(calls().map((c) => [c.path, c.searchParams])).toEqual([
      ['/v1/billing/price-plans/plan-1', { darkMode: '1' }],
      ['/v1/teams/team-1/channels/chan-1/features', { stage: 'deep-context', pageSize: '100' }],
      ['/v1/account/events', { aggregate: '0' }],
    ]);
  });

  const bad: [string, (s: MockService) => PromiseLike<unknown>, string, RegExp][] = [
    [
      'a heading over 200 characters',
      (s) => s.client.features.create('team-1', 'chan-1', { heading: 'h'.repeat(201) }),
      'heading',
      /features\.create: invalid heading: .*200/,
    ],
    [
      'an empty heading',
      (s) => s.client.tasks.create('t', 'c', 'f', { heading: '' }),
      'heading',
      /tasks\.create/,
    ],
    [
      'an unknown key (a typo)',
      (s) => s.client.teams.create({ teamName: 'Core', teamname: 'x' } as never),
      'teamname',
      /teams\.create: invalid teamname/,
    ],
    [
      'a value outside an enum',
      (s) => s.client.tasks.feedbackCreate('t', 'c', 'f', 'k', { message: 'm', issue: 'taste' as never }),
      'issue',
      /tasks\.feedbackCreate: invalid issue/,
    ],
    [
      'a priority of 11',
      (s) => s.client.features.update('t', 'c', 'f', { priority: 11 }),
      'priority',
      /features\.update: invalid priority/,
    ],
    [
      'a missing required field',
      (s) => s.client.invitations.create({ inviteName: 'New people' } as never),
      'teamId',
      /invitations\.create: invalid teamId/,
    ],
    ['no payload at all', (s) => s.client.notions.create(undefined as never), 'input', /notions\.create/],
    ['an empty path parameter', (s) => s.client.teams.read(''), 'teamId', /teams\.read: invalid teamId/],
    ['a grade of 11', (s) => s.client.experiences.evaluate('n', 11), 'grade', /experiences\.evaluate/],
    ['a grade of 0', (s) => s.client.experiences.evaluate('n', '0'), 'grade', /experiences\.evaluate/],
    [
      'a grade that is not a number',
      (s) => s.client.experiences.evaluate('n', 'ten'),
      'grade',
      /invalid grade/,
    ],
    [
      'a page size over 1500',
      (s) => s.client.features.list('t', 'c', { pageSize: 2_000 }),
      'pageSize',
      /features\.list: invalid pageSize/,
    ],
    ['a page number of 0', (s) => s.client.teams.listAll({ pageNumber: 0 }), 'pageNumber', /pageNumber/],
    [
      'an unknown stage',
      (s) => s.client.features.list('t', 'c', { stage: 'done' as never }),
      'stage',
      /features\.list: invalid stage/,
    ],
  ];

  it.each(bad)(
    '%s is refused locally, naming the field, with no request',
    async (_, send, field, message) => {
      const s = await start();
      // An interceptor that would answer anything: it must still be pending afterwards.
      s.pool.intercept({ path: () => true, method: () => true }).reply(200, 'true');
      const error = await rejectionOf(send(s));
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error).toMatchObject({ field, local: true, status: undefined });
      expect(error.message).toMatch(message);
      expect(s.calls()).toHaveLength(0);
      expect(s.agent.pendingInterceptors()).toHaveLength(1);
      expect(s.events).toEqual([]);
      // And it was there to answer: a valid call gets it.
      await expect(s.client.notions.delete('n-1')).resolves.toBe(true);
    },
  );
});

describe('answers', () => {
  it('parses results with the model (defaults applied, unknown fields dropped)', async () => {
    const { pool, client } = await start();
    pool
      .intercept({ path: `${F}/tasks/task-1`, method: 'GET' })
      .reply(200, { id: 'task-1', heading: 'Ship', surprise: 1, minute: { iteration: 2 } });
    const task = await client.tasks.read('team-1', 'chan-1', 'feat-1', 'task-1');
    expect(task).toEqual({
      id: 'task-1',
      heading: 'Ship',
      state: 'idle',
      notions: [],
      minute: { iteration: 2, discoveries: [], feedback: [] },
    });
  });

  it('a wrong shape names the operation and the field path', async () => {
    const { pool, client } = await start();
    const features = [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd', stage: 'launched' }];
    pool.intercept({ path: () => true, method: 'GET' }).reply(200, { total: 4, features });
    const error = await rejectionOf(client.features.list('team-1', 'chan-1'));
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toMatch(/^features\.list: response field features\.3\.stage: Invalid option/);
    expect(error).toMatchObject({ status: 200, operation: 'features.list' });
  });

  it('a 200 that is not JSON is a ResponseShapeError', async () => {
    const { pool, client } = await start();
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, '<html>');
    const error = await rejectionOf(client.account.read());
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.message).toBe('account.read: response is not JSON');
  });

  it('"returns a bool" operations answer true', async () => {
    const { pool, client } = await start();
    pool.intercept({ path: '/v1/notions/n-1', method: 'DELETE' }).reply(200, 'true');
    await expect(client.notions.delete('n-1')).resolves.toBe(true);
  });

  it('the null subscription is a result, not an error', async () => {
    const { pool, client } = await start();
    pool.intercept({ path: '/v1/billing/subscription', method: 'GET' }).reply(200, 'null');
    await expect(client.billing.subscriptionRead()).resolves.toBeNull();
  });
});

describe('timeouts and aborts', () => {
  it('an answer slower than timeoutMs is a TimeoutError', async () => {
    const { pool, client } = await start({ timeoutMs: 30, retries: 0 });
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, { id: 'me' }).delay(2_000);
    const error = await rejectionOf(client.account.read());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe('account.read: no complete answer within 30 ms');
  });

  it('a per-call timeoutMs overrides the client default', async () => {
    const { pool, client } = await start({ timeoutMs: 10_000, retries: 0 });
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, { id: 'me' }).delay(2_000);
    expect(await rejectionOf(client.account.read({ timeoutMs: 20 }))).toBeInstanceOf(TimeoutError);
  });

  it("the caller's abort is an AbortedError, not a timeout", async () => {
    const { pool, client } = await start({ timeoutMs: 10_000 });
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, { id: 'me' }).delay(2_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user closed the modal')), 10);
    expect(await rejectionOf(client.account.read({ signal: controller.signal }))).toBeInstanceOf(
      AbortedError,
    );
  });
});

describe('request events', () => {
  it('one event per call, with the template path and no token or body', async () => {
    const { pool, client, events, token } = await start({ retries: 0 });
    pool.intercept({ path: `${F}/tasks`, method: 'POST' }).reply(200, { id: 'task-9' });
    pool.intercept({ path: `${F}/tasks`, method: 'POST' }).reply(403, { id: 'not-allowed', message: 'No' });
    await client.tasks.create('team-1', 'chan-1', 'feat-1', { heading: 'Secret plan' });
    await rejectionOf(client.tasks.create('team-1', 'chan-1', 'feat-1', { heading: 'Secret plan' }));
    const common = {
      operation: 'tasks.create',
      method: 'POST',
      path: '/teams/{teamId}/channels/{channelId}/features/{featureId}/tasks',
    };
    expect(events).toEqual([
      { ...common, status: 200, outcome: 'ok', retryCount: 0, durationMs: expect.any(Number) },
      {
        ...common,
        status: 403,
        outcome: 'error',
        retryCount: 0,
        errorId: 'not-allowed',
        errorName: 'ForbiddenError',
        durationMs: expect.any(Number),
      },
    ]);
    const text = JSON.stringify(events);
    expect(text).not.toContain(token);
    expect(text).not.toContain('Secret plan');
    expect(text).not.toContain('team-1');
  });

  it('a listener that throws does not break the call', async () => {
    const { pool, client } = await start({
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, { id: 'me' });
    await expect(client.account.read()).resolves.toMatchObject({ id: 'me' });
  });
});

describe('the token never leaks', () => {
  it('from a library error that prints the request headers', async () => {
    const { agent, pool, client, token } = await start({ retries: 0 });
    // undici's mock answers a mismatch with an error whose message holds every request header.
    pool.intercept({ path: '/v1/teams', method: 'POST', headers: { 'x-never': 'sent' } }).reply(200, {});
    const error = await rejectionOf(client.teams.create({ teamName: 'Core' }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('Bearer [REDACTED]');
    expect(error.cause).toBeInstanceOf(Error);
    expectNoToken(error, token);
    // Consume the interceptor so the mock ends clean.
    await agent.request({
      origin: ORIGIN,
      path: '/v1/teams',
      method: 'POST',
      headers: { 'x-never': 'sent' },
    });
  });

  it('from a service message that echoes it', async () => {
    const { pool, client, token } = await start({ retries: 0 });
    const body = { id: 'auth-api-expired', message: `token ${token} is no longer valid` };
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(401, body);
    const error = await rejectionOf(client.account.read());
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.message).toBe(
      'account.read: token [REDACTED] is no longer valid (HTTP 401 auth-api-expired)',
    );
    expect((error as UnauthorizedError).serviceMessage).toBe('token [REDACTED] is no longer valid');
    expectNoToken(error, token);
  });

  it('from timeouts, aborts, retries and local refusals', async () => {
    const { pool, client, token } = await start({ timeoutMs: 20, retries: 1 });
    pool.intercept({ path: '/v1/account', method: 'GET' }).reply(200, {}).delay(1_000).times(2);
    pool
      .intercept({ path: '/v1/teams/t', method: 'GET' })
      .replyWithError(new Error(`Bearer ${token}`))
      .times(2);
    const errors = [
      await rejectionOf(client.account.read()),
      await rejectionOf(client.teams.read('t')),
      await rejectionOf(client.account.read({ signal: AbortSignal.abort(new Error(token)) })),
      await rejectionOf(client.account.update({ userName: token.repeat(3) })),
    ];
    expect(errors.map((e) => e.name)).toEqual([
      'TimeoutError',
      'NetworkError',
      'AbortedError',
      'InvalidArgumentError',
    ]);
    for (const error of errors) expectNoToken(error, token);
  });
});

describe('types', () => {
  it('are derived from the table', () => {
    const client = createPlanningClient({ baseUrl: BASE_URL, token: 't' });
    expectTypeOf(client.tasks.feedbackReply).parameters.toEqualTypeOf<
      [
        string,
        string,
        string,
        string,
        string,
        { reply: string },
        options?: import('../../src/planning/index.js').CallOptions,
      ]
    >();
    expectTypeOf(client.experiences.evaluatePeer).parameter(1).toEqualTypeOf<string | number>();
    expectTypeOf(client.features.list).returns.toExtend<PageRequest<unknown, FeatureLite>>();
    expectTypeOf(client.teams.delete).returns.toEqualTypeOf<Promise<boolean>>();
    // @ts-expect-error the payload of a body operation is required
    expectTypeOf(client.tasks.create).toBeCallableWith('t', 'c', 'f');
    // @ts-expect-error a misspelt payload key
    expectTypeOf(client.teams.create).toBeCallableWith({ teamNme: 'Core' });
    // The same facts at run time: one method per operation, lists lazy and awaitable.
    const list = client.features.list('t', 'c');
    expect(typeof list.then).toBe('function');
    expect(typeof list[Symbol.asyncIterator]).toBe('function');
  });
});

describe('avatar', () => {
  it('a 256×256 PNG goes as multipart with one avatar field', async () => {
    const { pool, client, calls } = await start();
    pool.intercept({ path: '/v1/account/avatar', method: 'POST' }).reply(200, { id: 'me' });
    const png = makePng(256, 256);
    await client.account.avatar({ avatar: png });
    const body = calls()[0]?.body as unknown as import('undici').FormData;
    // Render the body exactly as undici puts it on the wire, then read it back.
    const wire = new Response(body);
    expect(wire.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await wire.formData();
    expect([...form.keys()]).toEqual(['avatar']);
    const file = form.get('avatar') as File;
    expect(file.name).toBe('avatar.png');
    expect(file.type).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
  });

  it.each([
    ['a 64×64 PNG', () => makePng(64, 64), /exactly 256x256 pixels, got 64x64/],
    ['a file that is not a PNG', () => Buffer.from('GIF89a not a png at all, sorry'), /must be a PNG/],
    ['a PNG of 200 KB or more', () => makePng(256, 256, true), /smaller than 200 KB/],
  ])('%s is refused before sending', async (_, bytes, why) => {
    const { client, calls } = await start();
    const avatar = bytes();
    const error = await rejectionOf(client.account.avatar({ avatar }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ field: 'avatar', local: true });
    expect(error.message).toMatch(why);
    expect(calls()).toHaveLength(0);
  });

  it('the noisy fixture really is over the limit', () => {
    expect(makePng(256, 256, true).byteLength).toBeGreaterThanOrEqual(200 * 1024);
    expect(makePng(256, 256).byteLength).toBeLessThan(200 * 1024);
  });
});
