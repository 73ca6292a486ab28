import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRetryAfter, redactText } from '../../src/planning/errors.js';
import {
  ConflictError,
  errorFromResponse,
  ForbiddenError,
  InvalidArgumentError,
  isPlanningError,
  NotFoundError,
  PaymentRequiredError,
  PlanningError,
  RateLimitedError,
  ServiceError,
  UnauthorizedError,
} from '../../src/planning/index.js';
import { type MockService, mockService, rejectionOf } from '../helpers/planning-mock.js';

let service: MockService;
beforeEach(async () => {
  // No retries here: these tests are about which error a status becomes.
  service = await mockService({ retries: 0 });
});
afterEach(() => service.close());

/** `teams.read('team-1')` answered with `status` and `body`; returns what it threw. */
async function failWith(status: number, body: string | object, headers: Record<string, string> = {}) {
  const data = typeof body === 'string' ? body : JSON.stringify(body);
  service.pool.intercept({ path: '/v1/teams/team-1', method: 'GET' }).reply(status, data, { headers });
  return rejectionOf(service.client.teams.read('team-1'));
}

// The 401 ids listed in the service's OpenAPI `info.description`.
const UNAUTHORIZED_IDS = [
  'jwt-missing',
  'jwt-format',
  'jwt-format-header',
  'jwt-format-body',
  'jwt-payload',
  'jwt-issuer',
  'jwt-public-key',
  'auth-missing',
  'auth-invalid',
  'auth-api-invalid',
  'auth-api-expired',
];

describe('errors from service answers', () => {
  it('400 invalid-argument-<field> is an InvalidArgumentError naming the field', async () => {
    const error = await failWith(400, { id: 'invalid-argument-inviteName', message: 'Invalid name' });
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({
      status: 400,
      errorId: 'invalid-argument-inviteName',
      field: 'inviteName',
      local: false,
      operation: 'teams.read',
      method: 'GET',
      path: '/teams/{teamId}',
      retryCount: 0,
    });
    expect(error.message).toBe('teams.read: Invalid name (HTTP 400 invalid-argument-inviteName)');
  });

  it('400 without a field in its id has no field', async () => {
    const error = await failWith(400, { id: 'invalid-argument-*', message: 'Invalid arguments provided' });
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).field).toBeUndefined();
  });

  it.each(UNAUTHORIZED_IDS)('401 %s is an UnauthorizedError carrying the id', async (id) => {
    const error = await failWith(401, { id, message: 'Authorization error' });
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, errorId: id });
  });

  it.each([
    [402, 'payment-required', PaymentRequiredError],
    [403, 'not-allowed', ForbiddenError],
    [404, 'not-found', NotFoundError],
    [409, 'cluster-not-configured', ConflictError],
    [429, 'auth-api-limited', RateLimitedError],
  ] as const)('%i %s is a %O', async (status, id, type) => {
    const error = await failWith(status, { id, message: `refused: ${id}` });
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(PlanningError);
    expect(error).toMatchObject({ status, errorId: id });
    expect(error.message).toContain(`refused: ${id}`);
  });

  it('403 keeps the business reason the service gave', async () => {
    const error = await failWith(403, { id: 'not-allowed', message: 'You must add at least 1 Assumption' });
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toContain('You must add at least 1 Assumption');
  });

  it.each([500, 502, 503, 504])('%i is a ServiceError', async (status) => {
    const error = await failWith(status, { id: 'internal', message: 'boom' });
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status, errorId: 'internal' });
  });

  it('a status the contract does not list is a ServiceError', async () => {
    const error = await failWith(418, { id: 'teapot', message: 'short and stout' });
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 418, errorId: 'teapot' });
  });

  it('a body that is not JSON (a proxy page) is a ServiceError whatever the status', async () => {
    const error = await failWith(404, '<html><body>Bad gateway</body></html>');
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 404, errorId: undefined });
    expect(error.message).toBe("teams.read: HTTP 404 with a body that is not the service's JSON");
  });

  it('an empty body leaves the status to decide', async () => {
    const notFound = await failWith(404, '');
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound).toMatchObject({ status: 404, errorId: undefined });
    expect(notFound.message).toBe('teams.read: no details given (HTTP 404)');
    const unavailable = await failWith(503, '');
    expect(unavailable).toBeInstanceOf(ServiceError);
  });

  it('JSON of another shape leaves the status to decide', async () => {
    const error = await failWith(401, { error: 'expired' });
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as PlanningError).errorId).toBeUndefined();
  });

  it('429 reads Retry-After', async () => {
    const error = await failWith(429, { id: 'auth-api-limited', message: 'limit' }, { 'retry-after': '120' });
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(120_000);
  });

  it('is recognised by isPlanningError; a plain error is not', async () => {
    const error = await failWith(404, { id: 'not-found', message: 'Not found' });
    expect(isPlanningError(error)).toBe(true);
    expect(isPlanningError(new Error('x'))).toBe(false);
    expect(isPlanningError({ status: 404 })).toBe(false);
  });

  it('serialises to JSON with its context and without its cause', async () => {
    const error = await failWith(400, { id: 'invalid-argument-teamName', message: 'bad' });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'InvalidArgumentError',
      message: 'teams.read: bad (HTTP 400 invalid-argument-teamName)',
      status: 400,
      errorId: 'invalid-argument-teamName',
      operation: 'teams.read',
      method: 'GET',
      path: '/teams/{teamId}',
      retryCount: 0,
      field: 'teamName',
      local: false,
      serviceMessage: 'bad',
    });
  });
});

describe('errorFromResponse', () => {
  const context = { operation: 'tasks.create', method: 'POST', path: '/x' } as const;

  it('reads Retry-After as an HTTP date against the given clock', () => {
    const now = new Date('2025-03-01T10:00:00Z');
    const error = errorFromResponse({
      ...context,
      status: 429,
      body: '{"id":"auth-api-limited","message":"slow down"}',
      headers: { 'retry-after': 'Sat, 01 Mar 2025 10:00:03 GMT' },
      now,
    });
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(3_000);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2025-03-01T10:00:00Z');
  it.each([
    ['0', 0],
    ['7', 7_000],
    [' 2 ', 2_000],
    ['Sat, 01 Mar 2025 10:01:00 GMT', 60_000],
    ['Sat, 01 Mar 2025 09:00:00 GMT', 0],
  ])('%j → %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([undefined, '', 'soon', '-5'])('%j is unusable', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});

describe('redactText', () => {
  it('removes the given secrets and any Bearer credential', () => {
    const text = 'auth "Bearer abc.def.ghi" and raw s3cr3t, authorization: bearer other-token';
    const out = redactText(text, ['s3cr3t']);
    expect(out).toBe('auth "Bearer [REDACTED]" and raw [REDACTED], authorization: bearer [REDACTED]');
  });
});
