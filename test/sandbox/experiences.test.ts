import { describe, expect, it } from 'vitest';
import { ForbiddenError, InvalidArgumentError, NotFoundError } from '../../src/planning/index.js';
import { expectError, FakeClock, failure, raw, roles, useSandbox } from '../helpers/sandbox.js';

const clock = new FakeClock();
const ctx = useSandbox({ clock: clock.now });
const { owner, admin, member } = roles(ctx);

let notionCount = 0;
const newNotion = async (value = `skill-${++notionCount}`) => owner().notions.create({ value });

describe('notions', () => {
  it('search is a case-insensitive substring, sorted', async () => {
    for (const value of ['PostgreSQL', 'postgis', 'TypeScript']) await owner().notions.create({ value });
    const found = await member().notions.search({ searchTerm: 'POST' });
    expect(found.notions.map((n) => n.value)).toEqual(['postgis', 'PostgreSQL']);
    expect(found.total).toBe(2);
  });

  it('only owners and admins create, rename and delete; values are unique', async () => {
    expect(await failure(member().notions.create({ value: 'member-made' }))).toBeInstanceOf(ForbiddenError);
    const n = await admin().notions.create({ value: 'Kotlin' });
    expect((await admin().notions.update(n.id, { value: 'kotlin' })).value).toBe('kotlin');
    const duplicate = await failure(admin().notions.create({ value: 'KOTLIN' }));
    expect(duplicate).toBeInstanceOf(InvalidArgumentError);
    expect(duplicate.field).toBe('value');
    expect(await failure(member().notions.delete(n.id))).toBeInstanceOf(ForbiddenError);
  });

  it('deleting a notion removes every experience on it and answers 404 after', async () => {
    const n = await newNotion();
    await member().experiences.evaluate(n.id, 6);
    await admin().experiences.evaluatePeer(n.id, 7, ctx.sandbox.memberId);
    expect(await owner().notions.delete(n.id)).toBe(true);
    expect(await failure(member().notions.read(n.id))).toBeInstanceOf(NotFoundError);
    expect(await failure(member().experiences.read(n.id))).toBeInstanceOf(NotFoundError);
    const mine = await member().experiences.list();
    expect(mine.experiences.map((e) => e.notion?.id)).not.toContain(n.id);
  });
});

describe('evaluations: count and average', () => {
  it('after one self evaluation the experience shows count 1, average = grade', async () => {
    const n = await newNotion();
    const exp = await member().experiences.evaluate(n.id, 7);
    expect(exp).toMatchObject({
      userId: ctx.sandbox.memberId,
      notion: { id: n.id },
      selfEval: { count: 1, average: 7, recent: [7] },
      peerEval: { count: 0, average: 0, recent: [] },
    });
    expect((await member().experiences.read(n.id)).selfEval).toEqual(exp.selfEval);
  });

  it('after one peer evaluation the peer experience shows count 1, average = grade', async () => {
    const n = await newNotion();
    const exp = await admin().experiences.evaluatePeer(n.id, 4, ctx.sandbox.memberId);
    expect(exp.peerEval).toEqual({ count: 1, average: 4, recent: [4] });
    expect((await owner().experiences.readPeer(n.id, ctx.sandbox.memberId)).peerEval?.count).toBe(1);
    expect(
      (await owner().experiences.listPeer(ctx.sandbox.memberId)).experiences.map((e) => e.notion?.id),
    ).toContain(n.id);
  });

  it('grades outside 1–10 are refused with invalid-argument-grade', async () => {
    const n = await newNotion();
    for (const grade of ['0', '11', 'ten', '5.5']) {
      const answer = await raw(ctx.sandbox, 'PUT', `/xp/notions/${n.id}/grade/${grade}`, {
        token: ctx.sandbox.memberToken,
      });
      expectError(answer, 400, 'invalid-argument-grade');
    }
    expect(await failure(member().experiences.read(n.id))).toBeInstanceOf(NotFoundError);
  });

  it('grading yourself as a peer is refused', async () => {
    const n = await newNotion();
    expect(await failure(member().experiences.evaluatePeer(n.id, 9, ctx.sandbox.memberId))).toBeInstanceOf(
      ForbiddenError,
    );
  });
});

describe("only a grader's last evaluation within 24 hours is kept", () => {
  it('self: a second grade inside the window replaces the first; after 24 h it adds', async () => {
    const n = await newNotion();
    await member().experiences.evaluate(n.id, 5);
    clock.advanceHours(23);
    const replaced = await member().experiences.evaluate(n.id, 8);
    expect(replaced.selfEval).toEqual({ count: 1, average: 8, recent: [8] });
    clock.advanceHours(24);
    const added = await member().experiences.evaluate(n.id, 6);
    expect(added.selfEval).toEqual({ count: 2, average: 7, recent: [8, 6] });
  });

  it('peer: per grader — two graders count twice, one grader re-grading replaces', async () => {
    const n = await newNotion();
    await admin().experiences.evaluatePeer(n.id, 3, ctx.sandbox.memberId);
    await owner().experiences.evaluatePeer(n.id, 9, ctx.sandbox.memberId);
    const regraded = await admin().experiences.evaluatePeer(n.id, 5, ctx.sandbox.memberId);
    expect(regraded.peerEval).toEqual({ count: 2, average: 7, recent: [9, 5] });
    clock.advanceHours(25);
    const later = await admin().experiences.evaluatePeer(n.id, 8, ctx.sandbox.memberId);
    expect(later.peerEval?.count).toBe(3);
  });
});

describe('peer evaluations are anonymous', () => {
  it('nothing the graded person can read names the grader', async () => {
    const n = await newNotion();
    await admin().experiences.evaluatePeer(n.id, 6, ctx.sandbox.memberId);
    const token = ctx.sandbox.memberToken;
    const seen = await Promise.all([
      raw(ctx.sandbox, 'GET', `/xp/notions/${n.id}`, { token }),
      raw(ctx.sandbox, 'GET', '/xp', { token }),
      raw(ctx.sandbox, 'GET', '/account/events?aggregate=0', { token }),
      raw(ctx.sandbox, 'GET', `/xp/notions/${n.id}/users/${ctx.sandbox.memberId}`, {
        token: ctx.sandbox.ownerToken,
      }),
    ]);
    for (const answer of seen) {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain(ctx.sandbox.adminId);
    }
    const { events } = seen[2].body as { events: { type: string; notionId?: string }[] };
    expect(events).toContainEqual(expect.objectContaining({ type: 'peer evaluation', notionId: n.id }));
  });

  it("the grader's own events name only whom they graded", async () => {
    const n = await newNotion();
    await admin().experiences.evaluatePeer(n.id, 6, ctx.sandbox.memberId);
    const { events } = await admin().account.eventsList({ aggregate: 0 });
    expect(events[0]).toMatchObject({
      type: 'peer evaluation',
      notionId: n.id,
      peerUserId: ctx.sandbox.memberId,
    });
  });
});
