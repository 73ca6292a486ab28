/**
 * The endpoint table decides what is resent: for every one of the 77 operations, a failure after the
 * request may have reached the service (a 5xx, a timeout) is retried exactly when the operation is
 * marked idempotent. A non-idempotent one (a create, an advance) is sent once, whatever its method.
 */
import { describe, expect, it } from 'vitest';
import { type OperationRef, operations, pathParamNames } from '../../src/planning/endpoints.js';
import {
  closePlanningPools,
  createPlanningClient,
  ServiceError,
  TimeoutError,
} from '../../src/planning/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { inputOf, methodOf, mockService, rejectionOf } from '../helpers/planning-mock.js';

async function attempts(ref: OperationRef, failure: 'status' | 'timeout'): Promise<number> {
  const service = await mockService({ retries: 2, timeoutMs: 50 });
  try {
    const reply = service.pool.intercept({ path: () => true, method: ref.def.method });
    if (failure === 'status') reply.reply(503, { id: 'unavailable', message: 'busy' }).persist();
    else reply.reply(200, '{}').delay(200).persist();
    const path = pathParamNames(ref.def.path).map((name) => (name === 'grade' ? 7 : 'id-1'));
    const error = await rejectionOf(methodOf(service.client, ref)(...path, ...inputOf(ref)));
    expect(error).toBeInstanceOf(failure === 'status' ? ServiceError : TimeoutError);
    return service.calls().length;
  } finally {
    await service.agent.close();
  }
}

describe('retries follow the endpoint table', () => {
  it('marks the creates and the advance as not idempotent, and only those (and the counted invitation reads)', () => {
    const unsafe = operations.filter((o) => !o.def.idempotent).map((o) => o.operation);
    expect(unsafe.sort()).toEqual(
      [
        'assumptions.create',
        'channels.create',
        'features.advance',
        'features.create',
        'invitations.accept',
        'invitations.create',
        'invitations.read',
        'notions.create',
        'serviceAccounts.create',
        'tasks.create',
        'tasks.discoveryCreate',
        'tasks.feedbackCreate',
        'teams.create',
      ].sort(),
    );
  });

  it.each(operations.map((o) => [o.operation, o.def.idempotent ? 3 : 1, o] as const))(
    '%s after a 503: %i attempt(s)',
    async (_, expected, ref) => {
      expect(await attempts(ref, 'status')).toBe(expected);
    },
  );

  it.each(
    operations
      .filter((o) => o.def.method !== 'GET')
      .map((o) => [o.operation, o.def.idempotent ? 3 : 1, o] as const),
  )('%s after a timeout: %i attempt(s)', async (_, expected, ref) => {
    expect(await attempts(ref, 'timeout')).toBe(expected);
  });
});

describe('against the sandbox', () => {
  it('features.advance is sent once when the service applied it but answered after the timeout', async () => {
    const sandbox = await startSandbox({ seed: 'minimal' });
    try {
      const owner = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken });
      const team = await owner.teams.create({ teamName: 'Core' });
      const channelId = team.channels[0]!.id;
      const feature = await owner.features.create(team.id, channelId, { heading: 'Login' });
      await owner.assumptions.create(team.id, channelId, feature.id, { heading: 'People log in' });

      sandbox.inject({ operationId: 'features.advance', answerDelayMs: 2_000 });
      const impatient = createPlanningClient({
        baseUrl: sandbox.url,
        token: sandbox.ownerToken,
        timeoutMs: 200,
        retries: 2,
      });
      const error = await rejectionOf(impatient.features.advance(team.id, channelId, feature.id));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(sandbox.requests.count('features.advance')).toBe(1);
      // Applied once: validation, not execution.
      expect((await owner.features.read(team.id, channelId, feature.id)).stage).toBe('validation');
    } finally {
      await sandbox.close();
      await closePlanningPools();
    }
  });
});
