import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/planning/index.js';
import { advanceToExecution, failure, featureIn, roles, useSandbox } from '../helpers/sandbox.js';

const ctx = useSandbox();
const { owner, admin, member } = roles(ctx);
const newFeature = (heading: string) => featureIn(owner(), member(), ctx.sandbox.memberId, heading);

/** Walks a feature to deep context: one assumption done, one task done. */
async function toDeepContext(heading: string) {
  const f = await newFeature(heading);
  const assm = await advanceToExecution(member(), f.path);
  const task = await member().tasks.create(...f.path, { heading: 'Do it' });
  await member().tasks.update(...f.path, task.id, { state: 'done' });
  const deep = await member().features.advance(...f.path);
  expect(deep.stage).toBe('deep context');
  return { ...f, assmId: assm.id, taskId: task.id };
}

describe('features: any member plans', () => {
  it('a member creates, reads and updates a feature; defaults are set', async () => {
    const f = await newFeature('Search');
    const created = await member().features.read(...f.path);
    expect(created).toMatchObject({
      heading: 'Search',
      stage: 'planning',
      canAdvance: false,
      priority: 1,
      authorUserId: ctx.sandbox.memberId,
      teamId: f.teamId,
      channelId: f.channelId,
    });
    const updated = await member().features.update(...f.path, {
      details: 'Full text',
      priority: 5,
      focus: 'venustas',
    });
    expect(updated).toMatchObject({ details: 'Full text', priority: 5, focus: 'venustas' });
  });

  it('a deleted feature answers 404', async () => {
    const f = await newFeature('Short-lived');
    expect(await member().features.delete(...f.path)).toBe(true);
    const error = await failure(member().features.read(...f.path));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.errorId).toBe('not-found');
  });

  it('a feature must be addressed through its own team and channel', async () => {
    const f = await newFeature('Located');
    const other = await owner().teams.create({ teamName: 'Elsewhere' });
    const error = await failure(
      member().features.read(other.id, other.channels[0]?.id as string, f.featureId),
    );
    expect(error).toBeInstanceOf(NotFoundError);
  });
});

describe('stages: planning → validation → execution → deep context', () => {
  it('planning needs at least one assumption (403 with the reason)', async () => {
    const f = await newFeature('Unfounded');
    const error = await failure(member().features.advance(...f.path));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({
      errorId: 'not-allowed',
      message: expect.stringContaining('at least 1 Assumption'),
    });
    expect((await member().features.read(...f.path)).stage).toBe('planning');
  });

  it('one assumption: canAdvance, then validation', async () => {
    const f = await newFeature('Founded');
    await member().assumptions.create(...f.path, { heading: 'Users want it' });
    expect((await member().features.read(...f.path)).canAdvance).toBe(true);
    expect((await member().features.advance(...f.path)).stage).toBe('validation');
  });

  it('validation needs every experiment done', async () => {
    const f = await newFeature('Validated');
    const a1 = await member().assumptions.create(...f.path, { heading: 'One' });
    const a2 = await member().assumptions.create(...f.path, { heading: 'Two' });
    await member().features.advance(...f.path);
    await member().assumptions.experiment(...f.path, a1.id, { state: 'done' });
    await member().assumptions.experiment(...f.path, a2.id, { state: 'running' });
    expect((await member().features.read(...f.path)).canAdvance).toBe(false);
    expect(await failure(member().features.advance(...f.path))).toBeInstanceOf(ForbiddenError);
    await member().assumptions.experiment(...f.path, a2.id, { state: 'done' });
    expect((await member().features.read(...f.path)).canAdvance).toBe(true);
    expect((await member().features.advance(...f.path)).stage).toBe('execution');
  });

  it('execution needs every task done', async () => {
    const f = await newFeature('Executed');
    await advanceToExecution(member(), f.path);
    const task = await member().tasks.create(...f.path, { heading: 'Build' });
    await member().tasks.update(...f.path, task.id, { state: 'in review' });
    const error = await failure(member().features.advance(...f.path));
    expect(error.message).toContain('Tasks');
    await member().tasks.update(...f.path, task.id, { state: 'done' });
    expect((await member().features.read(...f.path)).canAdvance).toBe(true);
    expect((await member().features.advance(...f.path)).stage).toBe('deep context');
  });

  it('deep context cannot advance further', async () => {
    const f = await toDeepContext('Finished');
    expect((await member().features.read(...f.path)).canAdvance).toBe(false);
    expect(await failure(member().features.advance(...f.path))).toBeInstanceOf(ForbiddenError);
  });
});

describe('deep context is read-only; only an owner or admin deletes', () => {
  it('updates to the feature, its tasks and assumptions answer 403 and change nothing', async () => {
    const f = await toDeepContext('Frozen');
    // One after another: each refusal is awaited before the next call starts (started together,
    // a later rejection had no listener yet and surfaced as an unhandled rejection).
    const attempts: (() => Promise<unknown>)[] = [
      () => member().features.update(...f.path, { heading: 'Thawed' }),
      () => member().tasks.create(...f.path, { heading: 'More' }),
      () => member().tasks.update(...f.path, f.taskId, { heading: 'Changed' }),
      () => member().tasks.discoveryCreate(...f.path, f.taskId, { details: 'Late' }),
      () => member().tasks.feedbackCreate(...f.path, f.taskId, { message: 'Late' }),
      () => member().assumptions.create(...f.path, { heading: 'Late' }),
      () => member().assumptions.update(...f.path, f.assmId, { heading: 'Changed' }),
      () => member().assumptions.experiment(...f.path, f.assmId, { state: 'idle' }),
      () => owner().features.update(...f.path, { heading: 'Even the owner' }),
    ];
    for (const attempt of attempts) expect(await failure(attempt())).toBeInstanceOf(ForbiddenError);
    const after = await member().features.read(...f.path);
    expect(after.heading).toBe('Frozen');
    expect(after.tasks.map((t) => t.heading)).toEqual(['Do it']);
    expect(after.assumptions.map((a) => [a.heading, a.experiment?.state])).toEqual([
      ['It is worth doing', 'done'],
    ]);
  });

  it('a member cannot delete it; an admin can (features.delete)', async () => {
    const f = await toDeepContext('Archived');
    expect(await failure(member().features.delete(...f.path))).toBeInstanceOf(ForbiddenError);
    expect(await admin().features.delete(...f.path)).toBe(true);
    expect(await failure(member().features.read(...f.path))).toBeInstanceOf(NotFoundError);
  });
});

describe('list: FeatureLite, filtered by stage (deep-context on the wire)', () => {
  it('filters by stage and leaves out details', async () => {
    const f = await toDeepContext('Listed deep');
    await member().features.create(f.teamId, f.channelId, {
      heading: 'Listed planning',
      details: 'Hidden in lists',
    });
    const deep = await member().features.list(f.teamId, f.channelId, { stage: 'deep-context' });
    expect(deep.features.map((x) => x.heading)).toEqual(['Listed deep']);
    const planning = await member().features.list(f.teamId, f.channelId, { stage: 'planning' });
    expect(planning.features.map((x) => x.heading)).toEqual(['Listed planning']);
    expect(planning.features[0]).not.toHaveProperty('details');
    const all = [];
    for await (const feature of member().features.list(f.teamId, f.channelId, { pageSize: 1 }))
      all.push(feature.heading);
    expect(all).toEqual(['Listed deep', 'Listed planning']);
  });
});

describe('deep context area: search, read expanded, delete', () => {
  it('searches by term (case-insensitive), reads FeatureExpanded, deletes as admin', async () => {
    const f = await toDeepContext('Quantum Billing');
    await newFeature('Quantum planning only');
    const found = await member().deepContext.search({ searchTerm: 'quantum' });
    expect(found.features.map((x) => x.id)).toEqual([f.featureId]);
    const expanded = await member().deepContext.read(f.featureId);
    expect(expanded).toMatchObject({
      teamName: expect.stringContaining('Quantum Billing'),
      channelName: 'General',
    });
    expect(expanded.tasks[0]?.minute).toBeDefined();
    expect(await failure(member().deepContext.delete(f.featureId))).toBeInstanceOf(ForbiddenError);
    expect(await owner().deepContext.delete(f.featureId)).toBe(true);
    expect(await failure(member().deepContext.read(f.featureId))).toBeInstanceOf(NotFoundError);
  });

  it('a feature not in deep context is not found there', async () => {
    const f = await newFeature('Still planning');
    expect(await failure(member().deepContext.read(f.featureId))).toBeInstanceOf(NotFoundError);
  });
});
