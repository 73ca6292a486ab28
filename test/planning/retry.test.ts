import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortedError,
  closePlanningPools,
  createPlanningClient,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  ResponseShapeError,
  ServiceError,
  TimeoutError,
} from '../../src/planning/index.js';
import { DEFAULT_BACKOFF, retryDelay } from '../../src/planning/retry.js';
import { type MockService, makeToken, mockService, rejectionOf } from '../helpers/planning-mock.js';

const TEAM = { id: 'team-1', teamName: 'Core', channels: [] };
const TEAM_PATH = '/v1/teams/team-1';

let service: MockService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

function answer(method: string, path: string) {
  if (!service) throw new Error('start the mock service first');
  return service.pool.intercept({ method, path });
}

describe('GET, PUT and DELETE are retried on transient failures', () => {
  it('GET: 503 then 200 succeeds on the second attempt', async () => {
    service = await mockService();
    answer('GET', TEAM_PATH).reply(503, { id: 'unavailable', message: 'busy' });
    answer('GET', TEAM_PATH).reply(200, TEAM);
    await expect(service.client.teams.read('team-1')).resolves.toMatchObject({ id: 'team-1' });
    expect(service.calls()).toHaveLength(2);
    expect(service.sleeps).toEqual([100]); // random 0.5 × base 200
    expect(service.events).toMatchObject([{ outcome: 'ok', status: 200, retryCount: 1 }]);
  });

  it('PUT: 429 then 200', async () => {
    service = await mockService();
    const path = '/v1/teams/team-1/users/user-1';
    answer('PUT', path).reply(429, { id: 'auth-api-limited', message: 'slow down' });
    answer('PUT', path).reply(200, { id: 'user-1' });
    await expect(service.client.teams.assign('team-1', 'user-1')).resolves.toMatchObject({ id: 'user-1' });
    expect(service.calls()).toHaveLength(2);
  });

  it('DELETE: a network error then 200', async () => {
    service = await mockService();
    answer('DELETE', TEAM_PATH).replyWithError(new Error('socket hang up'));
    answer('DELETE', TEAM_PATH).reply(200, 'true');
    await expect(service.client.teams.delete('team-1')).resolves.toBe(true);
    expect(service.calls()).toHaveLength(2);
  });

  it('GET: a timeout then 200', async () => {
    service = await mockService({ timeoutMs: 30 });
    answer('GET', TEAM_PATH).reply(200, TEAM).delay(2_000);
    answer('GET', TEAM_PATH).reply(200, TEAM);
    await expect(service.client.teams.read('team-1')).resolves.toMatchObject({ id: 'team-1' });
    expect(service.calls()).toHaveLength(2);
  });

  it('exhausted retries surface the last error with its retry count and exponential waits', async () => {
    service = await mockService({ retries: 3 });
    answer('GET', TEAM_PATH).reply(502, { id: 'bad-gateway', message: 'first' }).times(3);
    answer('GET', TEAM_PATH).reply(503, { id: 'unavailable', message: 'last' });
    const error = await rejectionOf(service.client.teams.read('team-1'));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 503, errorId: 'unavailable', retryCount: 3 });
    expect(service.calls()).toHaveLength(4);
    expect(service.sleeps).toEqual([100, 200, 400]);
    expect(service.events).toMatchObject([{ outcome: 'error', status: 503, retryCount: 3 }]);
  });

  it('per-call retries override the client default', async () => {
    service = await mockService({ retries: 5 });
    answer('GET', TEAM_PATH).reply(503, { id: 'unavailable', message: 'busy' }).times(2);
    const error = await rejectionOf(service.client.teams.read('team-1', { retries: 1 }));
    expect(error).toMatchObject({ status: 503, retryCount: 1 });
    expect(service.calls()).toHaveLength(2);
  });
});

/** A loopback port nothing listens on (yet). */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('a POST that never left', () => {
  it('connection refused: tried again, and the service creates the team once', async () => {
    // The "service" starts listening on it during the client's first backoff.
    const port = await unusedPort();
    const received: string[] = [];
    const server = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(TEAM));
    });
    const client = createPlanningClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      token: await makeToken(),
      retries: 2,
      backoff: {
        random: () => 0.5,
        sleep: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
      },
    });
    try {
      await expect(client.teams.create({ teamName: 'Core' })).resolves.toMatchObject({ id: 'team-1' });
      expect(received).toEqual(['POST /v1/teams']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await closePlanningPools();
    }
  });

  it('retries are bounded, and the error says nothing was sent', async () => {
    const port = await unusedPort();
    const sleeps: number[] = [];
    const client = createPlanningClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      token: await makeToken(),
      retries: 2,
      backoff: { random: () => 0.5, sleep: async (ms) => void sleeps.push(ms) },
    });
    const error = await rejectionOf(client.teams.create({ teamName: 'Core' }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ notSent: true, retryCount: 2, method: 'POST' });
    expect(sleeps).toEqual([100, 200]);
    await closePlanningPools();
  });
});

describe('what is never retried', () => {
  it.each([
    ['503', () => answer('POST', '/v1/teams').reply(503, { id: 'x', message: 'busy' }), ServiceError],
    ['429', () => answer('POST', '/v1/teams').reply(429, { id: 'x', message: 'slow' }), RateLimitedError],
    [
      'a network error',
      () => answer('POST', '/v1/teams').replyWithError(new Error('socket hang up')),
      NetworkError,
    ],
    ['a timeout', () => answer('POST', '/v1/teams').reply(200, TEAM).delay(2_000), TimeoutError],
  ] as const)('POST after %s: one attempt, the error surfaces', async (_, arrange, type) => {
    service = await mockService({ timeoutMs: 30 });
    arrange();
    const error = await rejectionOf(service.client.teams.create({ teamName: 'Core' }));
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ retryCount: 0, method: 'POST' });
    expect(service.calls()).toHaveLength(1);
    expect(service.sleeps).toEqual([]);
  });

  it('a 4xx answer', async () => {
    service = await mockService();
    answer('GET', TEAM_PATH).reply(404, { id: 'not-found', message: 'Not found' });
    expect(await rejectionOf(service.client.teams.read('team-1'))).toBeInstanceOf(NotFoundError);
    expect(service.calls()).toHaveLength(1);
  });

  it('a 2xx answer of the wrong shape', async () => {
    service = await mockService();
    answer('GET', TEAM_PATH).reply(200, { teamName: 'no id' });
    expect(await rejectionOf(service.client.teams.read('team-1'))).toBeInstanceOf(ResponseShapeError);
    expect(service.calls()).toHaveLength(1);
  });

  it('a call the caller aborts in flight', async () => {
    service = await mockService();
    answer('GET', TEAM_PATH).reply(200, TEAM).delay(2_000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await rejectionOf(service.client.teams.read('team-1', { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ retryCount: 0 });
    expect(service.calls()).toHaveLength(1);
    expect(service.events).toMatchObject([{ outcome: 'error', errorName: 'AbortedError' }]);
  });

  it('a call whose signal is already aborted sends nothing', async () => {
    service = await mockService();
    const error = await rejectionOf(service.client.teams.read('team-1', { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(AbortedError);
    expect(service.calls()).toHaveLength(0);
  });

  it('an abort during the wait between retries ends the call there', async () => {
    // The real sleep this time: a 5 s wait that the abort must cut short.
    service = await mockService({ backoff: { ...DEFAULT_BACKOFF, baseMs: 5_000, random: () => 1 } });
    answer('GET', TEAM_PATH).reply(503, { id: 'unavailable', message: 'busy' });
    const controller = new AbortController();
    const call = service.client.teams.read('team-1', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    const error = await rejectionOf(call);
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ retryCount: 0 });
    expect(service.calls()).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  const limited = (retryAfter: string) =>
    answer('GET', TEAM_PATH).reply(
      429,
      { id: 'auth-api-limited', message: 'slow down' },
      { headers: { 'retry-after': retryAfter } },
    );

  it('in seconds sets the wait', async () => {
    service = await mockService();
    limited('2');
    answer('GET', TEAM_PATH).reply(200, TEAM);
    await service.client.teams.read('team-1');
    expect(service.sleeps).toEqual([2_000]);
  });

  it('as an HTTP date sets the wait', async () => {
    service = await mockService();
    const at = new Date(Date.now() + 3_000).toUTCString();
    limited(at);
    answer('GET', TEAM_PATH).reply(200, TEAM);
    await service.client.teams.read('team-1');
    expect(service.sleeps).toHaveLength(1);
    // HTTP dates have whole seconds, so the wait is between 2 and 3 seconds.
    expect(service.sleeps[0]).toBeGreaterThan(1_000);
    expect(service.sleeps[0]).toBeLessThanOrEqual(3_000);
  });

  it('longer than the cap: no retry, the caller learns when to come back', async () => {
    service = await mockService();
    limited('3600');
    const error = await rejectionOf(service.client.teams.read('team-1'));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ retryAfterMs: 3_600_000, retryCount: 0 });
    expect(service.calls()).toHaveLength(1);
  });
});

describe('retryDelay', () => {
  const busy = new ServiceError('x', { operation: 'teams.read', method: 'GET', path: '/teams', status: 503 });

  it('grows exponentially up to the cap, with full jitter', () => {
    const top = { ...DEFAULT_BACKOFF, random: () => 0.999_999 };
    const ceilings = [0, 1, 2, 3, 4, 5, 6].map((n) => Math.round(retryDelay(busy, true, n, 10, top) ?? -1));
    expect(ceilings).toEqual([200, 400, 800, 1_600, 3_200, 5_000, 5_000]);
    expect(retryDelay(busy, true, 0, 10, { ...DEFAULT_BACKOFF, random: () => 0 })).toBe(0);
  });

  it('stops once the retries are used', () => {
    expect(retryDelay(busy, true, 2, 2, DEFAULT_BACKOFF)).toBeUndefined();
  });
});
