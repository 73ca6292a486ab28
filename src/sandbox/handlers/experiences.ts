/**
 * Experiences: a person's graded experience on notions, graded by themselves (evaluate) or
 * anonymously by peers (evaluatePeer). For each grader, only their last grade within 24 hours is
 * kept (an earlier one inside the window is replaced), for self and for peer grades alike — the
 * window follows the injectable clock. Reading an experience that has no grade yet answers 404.
 * Nobody can see who graded: not in the Experience, not in any event.
 */
import { addHours } from 'date-fns';
import { Grade, type PageQuery } from '../../planning/models.js';
import type { AreaHandlers, Ctx } from '../context.js';
import { invalidArgument, notAllowed, notFound, raise } from '../errors.js';
import type { ExperienceRec } from '../state.js';
import { experienceView, page } from '../views.js';
import { findExperience } from '../yerkes-dodson.js';

const GRADING_WINDOW_HOURS = 24;

function parseGrade(raw: string): number {
  const parsed = Grade.safeParse(raw);
  if (!parsed.success) throw invalidArgument('grade', 'grade must be a whole number between 1 and 10');
  return Number(parsed.data);
}

function experiencesOf(ctx: Ctx<string, unknown, PageQuery | undefined>, userId: string) {
  const list = Object.values(ctx.store.state.experiences).filter(
    (exp) => exp.orgId === ctx.org.id && exp.userId === userId,
  );
  return page(
    'experiences',
    list.map((exp) => experienceView(ctx.store, exp)),
    ctx.query,
  );
}

function readExperience(ctx: Ctx, notionId: string, userId: string) {
  const notion = ctx.store.notion(ctx.org.id, notionId);
  const exp = findExperience(ctx.store, ctx.org.id, userId, notion.id) ?? raise(notFound('Experience'));
  return experienceView(ctx.store, exp);
}

/** Records a grade: the grader's earlier grade within the window is replaced. */
function grade(ctx: Ctx, notionId: string, userId: string, kind: 'self' | 'peer', value: number) {
  const notion = ctx.store.notion(ctx.org.id, notionId);
  const now = ctx.store.now();
  let exp = findExperience(ctx.store, ctx.org.id, userId, notion.id);
  if (!exp) {
    exp = {
      id: ctx.store.nextId(),
      orgId: ctx.org.id,
      userId,
      notionId: notion.id,
      self: [],
      peer: [],
      createdAt: now,
      updatedAt: now,
    };
    ctx.store.state.experiences[exp.id] = exp;
  }
  const graders: ExperienceRec['self'] = exp[kind];
  exp[kind] = graders.filter(
    (g) => g.graderId !== ctx.actor.id || addHours(g.at, GRADING_WINDOW_HOURS).getTime() <= now,
  );
  exp[kind].push({ graderId: ctx.actor.id, grade: value, at: now });
  exp.updatedAt = now;
  return exp;
}

export const experiences: AreaHandlers<'experiences'> = {
  list: (ctx) => experiencesOf(ctx, ctx.actor.id),

  listPeer: (ctx) => experiencesOf(ctx, ctx.store.member(ctx.org.id, ctx.params.userId).id),

  read: (ctx) => readExperience(ctx, ctx.params.notionId, ctx.actor.id),

  readPeer: (ctx) =>
    readExperience(ctx, ctx.params.notionId, ctx.store.member(ctx.org.id, ctx.params.userId).id),

  evaluate: (ctx) => {
    const exp = grade(ctx, ctx.params.notionId, ctx.actor.id, 'self', parseGrade(ctx.params.grade));
    ctx.store.emit({
      orgId: ctx.org.id,
      type: 'self-evaluation',
      recipients: [ctx.actor.id],
      notionId: exp.notionId,
      diff: ['selfEval'],
    });
    return experienceView(ctx.store, exp);
  },

  evaluatePeer: (ctx) => {
    const value = parseGrade(ctx.params.grade);
    const peer = ctx.store.member(ctx.org.id, ctx.params.userId);
    if (peer.id === ctx.actor.id) throw notAllowed('Grade your own experience with evaluate, not as a peer');
    const exp = grade(ctx, ctx.params.notionId, peer.id, 'peer', value);
    const event = {
      orgId: ctx.org.id,
      type: 'peer evaluation' as const,
      notionId: exp.notionId,
      diff: ['peerEval'],
    };
    // The graded person learns that a peer graded them, never who; the grader sees whom they graded.
    ctx.store.emit({ ...event, recipients: [peer.id] });
    ctx.store.emit({ ...event, recipients: [ctx.actor.id], peerUserId: peer.id });
    return experienceView(ctx.store, exp);
  },
};
