/**
 * A feature in deep context is read-only. The rule lives in the endpoint table (`editsFeature`) and
 * the sandbox's engine applies it to every operation so marked: each one answers 403 and changes
 * nothing, and every operation that writes under a feature's path is marked (so a new one cannot
 * forget it).
 */
import { describe, expect, it } from 'vitest';
import { operations, pathParamNames } from '../../src/planning/endpoints.js';
import { ForbiddenError } from '../../src/planning/index.js';
import { inputOf, methodOf } from '../helpers/planning-mock.js';
import { advanceToExecution, failure, featureIn, roles, useSandbox } from '../helpers/sandbox.js';

const ctx = useSandbox();
const { owner, member } = roles(ctx);

/** What may still happen to a feature in deep context: advancing is refused by its own rule, deleting by role. */
const OWN_RULES = new Set(['features.advance', 'features.delete', 'deepContext.delete']);

describe('deep context is read-only, from the endpoint table', () => {
  it('marks every operation that writes under a feature', () => {
    const writes = operations.filter(
      (o) =>
        o.def.method !== 'GET' &&
        pathParamNames(o.def.path).includes('featureId') &&
        !OWN_RULES.has(o.operation),
    );
    expect(writes.filter((o) => !o.def.editsFeature).map((o) => o.operation)).toEqual([]);
    expect(operations.filter((o) => o.def.editsFeature).map((o) => o.operation)).toEqual(
      writes.map((o) => o.operation),
    );
  });

  it('refuses each marked operation with 403 and changes nothing', async () => {
    const f = await featureIn(owner(), member(), ctx.sandbox.memberId, 'Frozen');
    const task = await member().tasks.create(...f.path, { heading: 'Do it' });
    const discovery = await member().tasks.discoveryCreate(...f.path, task.id, { details: 'Found' });
    const feedback = await member().tasks.feedbackCreate(...f.path, task.id, { message: 'Nice' });
    const assm = await advanceToExecution(member(), f.path);
    await member().tasks.update(...f.path, task.id, { state: 'done' });
    expect((await member().features.advance(...f.path)).stage).toBe('deep context');
    const before = await member().tasks.read(...f.path, task.id);

    const ids: Record<string, string> = {
      teamId: f.teamId,
      channelId: f.channelId,
      featureId: f.featureId,
      taskId: task.id,
      discoveryId: discovery.id,
      feedbackId: feedback.id,
      assmId: assm.id,
      userId: ctx.sandbox.memberId,
    };
    for (const ref of operations.filter((o) => o.def.editsFeature)) {
      const path = pathParamNames(ref.def.path).map((name) => ids[name]);
      const error = await failure(methodOf(owner(), ref)(...path, ...inputOf(ref)));
      expect(error, ref.operation).toBeInstanceOf(ForbiddenError);
    }
    expect(await member().tasks.read(...f.path, task.id)).toEqual(before);
    expect((await member().features.read(...f.path)).assumptions).toHaveLength(1);
  });
});
