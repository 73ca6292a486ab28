import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { RateLimitedError, ServiceError, TimeoutError, UnauthorizedError } from '../../src/planning/index.js';
import { clientFor, failure, raw, useSandbox } from '../helpers/sandbox.js';

const ctx = useSandbox();
const owner = (options = {}) => clientFor(ctx.sandbox, ctx.sandbox.ownerToken, options);

describe('inject: the next matching request fails or stalls', () => {
  it('503 once, then the operation works again', async () => {
    ctx.sandbox.inject({ operationId: 'teamListAll', status: 503 });
    const error = await failure(owner().teams.listAll());
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.status).toBe(503);
    expect((await owner().teams.listAll()).teams.length).toBeGreaterThan(0);
  });

  it('a retrying client gets through a 500 (GET is safe to retry)', async () => {
    ctx.sandbox.requests.reset();
    ctx.sandbox.inject({ operationId: 'accountRead', status: 500 });
    const client = owner({ retries: 2, backoff: { baseMs: 1, maxMs: 5 } });
    expect((await client.account.read()).id).toBe(ctx.sandbox.ownerId);
    expect(ctx.sandbox.requests.count('accountRead')).toBe(2);
    expect(ctx.sandbox.requests.entries.map((e) => e.status)).toEqual([500, 200]);
  });

  it('a failed create is never sent twice (the request log shows one)', async () => {
    ctx.sandbox.requests.reset();
    ctx.sandbox.inject({ operationId: 'teams.create', status: 503 });
    const client = owner({ retries: 3, backoff: { baseMs: 1, maxMs: 5 } });
    expect(await failure(client.teams.create({ teamName: 'Only once' }))).toBeInstanceOf(ServiceError);
    expect(ctx.sandbox.requests.count('teamCreate')).toBe(1);
  });

  it('429 carries Retry-After and the contract id', async () => {
    ctx.sandbox.inject({ operationId: 'notionSearch', status: 429 });
    const answer = await raw(ctx.sandbox, 'GET', '/notions', { token: ctx.sandbox.ownerToken });
    expect(answer).toMatchObject({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { id: 'auth-api-limited' },
    });
    ctx.sandbox.inject({ operationId: 'notionSearch', status: 429 });
    expect(await failure(owner().notions.search())).toBeInstanceOf(RateLimitedError);
  });

  it('401 for a method, `times` requests', async () => {
    ctx.sandbox.inject({ method: 'GET', status: 401, times: 2 });
    expect((await failure(owner().account.read())).errorId).toBe('auth-api-expired');
    expect(await failure(owner().teams.listAll())).toBeInstanceOf(UnauthorizedError);
    expect((await owner().account.read()).id).toBe(ctx.sandbox.ownerId);
  });

  it('a hang: the client times out, the sandbox stays up', async () => {
    ctx.sandbox.inject({ operationId: 'accountRead', hang: true });
    const error = await failure(owner({ timeoutMs: 200 }).account.read());
    expect(error).toBeInstanceOf(TimeoutError);
    expect((await owner().account.read()).id).toBe(ctx.sandbox.ownerId);
  });

  it('a delay without a status only slows the request down', async () => {
    ctx.sandbox.inject({ operationId: 'accountRead', delayMs: 300 });
    expect(await failure(owner({ timeoutMs: 100 }).account.read())).toBeInstanceOf(TimeoutError);
    ctx.sandbox.inject({ operationId: 'accountRead', delayMs: 50 });
    expect((await owner({ timeoutMs: 2_000 }).account.read()).id).toBe(ctx.sandbox.ownerId);
  });

  it('clearFaults drops unused rules', async () => {
    ctx.sandbox.inject({ status: 503, times: 10 });
    ctx.sandbox.clearFaults();
    expect((await owner().account.read()).id).toBe(ctx.sandbox.ownerId);
  });
});

describe('setLatency', () => {
  it('delays every response until set back to 0', async () => {
    ctx.sandbox.setLatency(400);
    expect(await failure(owner({ timeoutMs: 150 }).account.read())).toBeInstanceOf(TimeoutError);
    ctx.sandbox.setLatency(0);
    expect((await owner({ timeoutMs: 150 }).account.read()).id).toBe(ctx.sandbox.ownerId);
  });
});

describe('close', () => {
  it('ends a hanging request instead of waiting for it', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.js');
    const own = await startSandbox();
    own.inject({ hang: true });
    // Settled at once into a value: its rejection (during close) never goes unheard.
    const hanging = request(`${own.url}/account`, {
      headers: { authorization: `Bearer ${own.ownerToken}` },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await expect.poll(() => own.requests.count('accountRead')).toBe(1);
    await own.close();
    expect(await hanging).toBeInstanceOf(Error);
  });
});
