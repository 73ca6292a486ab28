import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/planning/index.js';
import { advanceToExecution, failure, featureIn, roles, useSandbox } from '../helpers/sandbox.js';

const ctx = useSandbox();
const { owner, admin, member } = roles(ctx);

async function newTask(heading = 'A task') {
  const f = await featureIn(owner(), member(), ctx.sandbox.memberId, `Feature of ${heading}`);
  const task = await member().tasks.create(...f.path, { heading, details: 'What to do' });
  return { ...f, taskId: task.id, taskPath: [...f.path, task.id] as const, task };
}

describe('tasks: create, states, assign, delete', () => {
  it('a new task is idle, unassigned, with an empty minute at iteration 1', async () => {
    const { task } = await newTask('Fresh');
    expect(task).toMatchObject({ heading: 'Fresh', details: 'What to do', state: 'idle', notions: [] });
    expect(task.assigneeUserId).toBeUndefined();
    expect(task.minute).toEqual({ iteration: 1, discoveries: [], feedback: [] });
  });

  it('moves through every state', async () => {
    const t = await newTask('Stateful');
    for (const state of ['in progress', 'in review', 'done', 'idle'] as const) {
      expect((await member().tasks.update(...t.taskPath, { state })).state).toBe(state);
    }
    expect((await member().tasks.list(...t.path)).tasks.map((x) => x.state)).toEqual(['idle']);
  });

  it('assigns to a member of the organization; an unknown user is 404', async () => {
    const t = await newTask('Assignable');
    expect((await member().tasks.assign(...t.taskPath, ctx.sandbox.adminId)).assigneeUserId).toBe(
      ctx.sandbox.adminId,
    );
    expect(await failure(member().tasks.assign(...t.taskPath, 'ffffffffffffffffffffffff'))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('notions on a task must exist in the organization', async () => {
    const t = await newTask('Skilled');
    const notion = await owner().notions.create({ value: 'graphql' });
    const updated = await member().tasks.update(...t.taskPath, { notionIds: [notion.id, notion.id] });
    expect(updated.notionIds).toEqual([notion.id]);
    expect((await member().tasks.read(...t.taskPath)).notions).toEqual([{ id: notion.id, value: 'graphql' }]);
    expect(await failure(member().tasks.update(...t.taskPath, { notionIds: ['nope'] }))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('a deleted task answers 404', async () => {
    const t = await newTask('Gone');
    expect(await member().tasks.delete(...t.taskPath)).toBe(true);
    expect(await failure(member().tasks.read(...t.taskPath))).toBeInstanceOf(NotFoundError);
  });
});

describe('the minute: discoveries and feedback in the current iteration', () => {
  it('records discoveries with author, iteration and time; update and delete', async () => {
    const t = await newTask('Discovering');
    const d = await member().tasks.discoveryCreate(...t.taskPath, { details: 'The API paginates' });
    expect(d).toMatchObject({
      iteration: 1,
      authorUserId: ctx.sandbox.memberId,
      details: 'The API paginates',
    });
    expect(d.iat).toBeGreaterThan(1_600_000_000);
    expect(
      (await member().tasks.discoveryUpdate(...t.taskPath, d.id, { details: 'Cursor paging' })).details,
    ).toBe('Cursor paging');
    expect((await member().tasks.read(...t.taskPath)).minute?.discoveries.map((x) => x.details)).toEqual([
      'Cursor paging',
    ]);
    expect(await member().tasks.discoveryDelete(...t.taskPath, d.id)).toBe(true);
    expect((await member().tasks.read(...t.taskPath)).minute?.discoveries).toEqual([]);
  });

  it('a task sent back from review starts the next iteration', async () => {
    const t = await newTask('Iterating');
    await member().tasks.update(...t.taskPath, { state: 'in review' });
    const first = await admin().tasks.feedbackCreate(...t.taskPath, {
      message: 'Needs tests',
      issue: 'testing',
    });
    expect(first.iteration).toBe(1);
    await member().tasks.update(...t.taskPath, { state: 'in progress' });
    const second = await member().tasks.discoveryCreate(...t.taskPath, { details: 'Tests found a bug' });
    expect(second.iteration).toBe(2);
    expect((await member().tasks.read(...t.taskPath)).minute?.iteration).toBe(2);
  });

  it('feedback defaults its issue, is replied to, updated and deleted', async () => {
    const t = await newTask('Reviewed');
    const fb = await admin().tasks.feedbackCreate(...t.taskPath, { message: 'Rename the flag' });
    expect(fb).toMatchObject({
      issue: 'value',
      message: 'Rename the flag',
      authorUserId: ctx.sandbox.adminId,
    });
    expect(fb.reply).toBeUndefined();
    const replied = await member().tasks.feedbackReply(...t.taskPath, fb.id, { reply: 'Renamed' });
    expect(replied.reply).toBe('Renamed');
    const updated = await admin().tasks.feedbackUpdate(...t.taskPath, fb.id, { issue: 'standards' });
    expect(updated).toMatchObject({ issue: 'standards', message: 'Rename the flag', reply: 'Renamed' });
    expect(await admin().tasks.feedbackDelete(...t.taskPath, fb.id)).toBe(true);
    expect(await failure(member().tasks.feedbackReply(...t.taskPath, fb.id, { reply: 'x' }))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it("a member cannot edit someone else's feedback or discovery; an admin can edit a member's", async () => {
    const t = await newTask('Guarded minute');
    const fb = await admin().tasks.feedbackCreate(...t.taskPath, { message: 'From the admin' });
    const d = await member().tasks.discoveryCreate(...t.taskPath, { details: 'From the member' });
    expect(
      await failure(member().tasks.feedbackUpdate(...t.taskPath, fb.id, { message: 'Hijack' })),
    ).toBeInstanceOf(ForbiddenError);
    expect(await failure(member().tasks.feedbackDelete(...t.taskPath, fb.id))).toBeInstanceOf(ForbiddenError);
    expect((await admin().tasks.discoveryUpdate(...t.taskPath, d.id, { details: 'Edited' })).details).toBe(
      'Edited',
    );
  });
});

describe('candidates: Yerkes-Dodson ranking of the channel members', () => {
  it('ranks the members of the channel with fields in range, best first', async () => {
    const t = await newTask('Who does it');
    const notion = await owner().notions.create({ value: 'rust' });
    await member().tasks.update(...t.taskPath, { notionIds: [notion.id] });
    await owner().teams.assign(t.teamId, ctx.sandbox.adminId);
    await member().experiences.evaluate(notion.id, 9);
    const { candidates } = await member().tasks.listCandidates(...t.taskPath);
    expect(candidates.map((c) => c.userId).sort()).toEqual(
      [ctx.sandbox.adminId, ctx.sandbox.memberId].sort(),
    );
    for (const c of candidates) {
      expect(c.ydScore).toBeGreaterThanOrEqual(0);
      expect(c.ydScore).toBeLessThanOrEqual(100);
      expect(c.ydStress).toBeGreaterThanOrEqual(0);
      expect(c.ydStress).toBeLessThanOrEqual(100);
    }
    const [best, other] = candidates;
    expect(best).toMatchObject({ userId: ctx.sandbox.memberId, ydPrecision: 100, userFeatures: 0 });
    expect(other).toMatchObject({ userId: ctx.sandbox.adminId, ydPrecision: 0 });
    expect(best?.ydScore).toBeGreaterThan(other?.ydScore ?? 100);
  });

  it('stress grows with the features a person is executing', async () => {
    const busy = await newTask('Busy work');
    await advanceToExecution(member(), busy.path);
    await member().tasks.assign(...busy.taskPath, ctx.sandbox.memberId);
    await member().tasks.update(...busy.taskPath, { state: 'in progress' });
    const { candidates } = await member().tasks.listCandidates(...busy.taskPath);
    expect(candidates.find((c) => c.userId === ctx.sandbox.memberId)).toMatchObject({
      userFeatures: 1,
      ydStress: 20,
    });
  });
});

describe('assumptions and experiments', () => {
  it('create, list, update, experiment (authors recorded), delete', async () => {
    const f = await featureIn(owner(), member(), ctx.sandbox.memberId, 'Assumed');
    const a = await member().assumptions.create(...f.path, { heading: 'Users read digests' });
    expect(a).toMatchObject({
      authorUserId: ctx.sandbox.memberId,
      experiment: { state: 'idle', confirmed: false, authorUserIds: [] },
    });
    await member().assumptions.update(...f.path, a.id, { heading: 'Users read daily digests' });
    const exp = await admin().assumptions.experiment(...f.path, a.id, {
      state: 'running',
      details: 'Count opens for a week',
    });
    expect(exp.experiment).toMatchObject({
      state: 'running',
      details: 'Count opens for a week',
      authorUserIds: [ctx.sandbox.adminId],
    });
    const listed = await member().assumptions.list(...f.path);
    expect(listed.assumptions.map((x) => x.heading)).toEqual(['Users read daily digests']);
    expect(await member().assumptions.delete(...f.path, a.id)).toBe(true);
    expect((await member().assumptions.list(...f.path)).total).toBe(0);
    expect(await failure(member().assumptions.update(...f.path, a.id, { heading: 'x' }))).toBeInstanceOf(
      NotFoundError,
    );
  });
});
