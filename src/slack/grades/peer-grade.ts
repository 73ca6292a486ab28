/**
 * Grading a peer, from the form (the Grade a peer shortcut, `/plan grade` alone) or in one line
 * (`/plan grade @user <notion> <1-10>`). Anonymous by design: the grader gets a private
 * confirmation, nobody else hears of it, and no log line pairs the grader with the peer or the grade.
 */
import { z } from 'zod';
import { button, joinMd, type Mrkdwn, md, SLACK_USER_ID, showsNothing } from '../../blockkit/index.js';
import { LIMITS } from '../../planning/index.js';
import { type ActionArgs, actionValue, type GlobalShortcutArgs, type Subcommand } from '../bolt/routes.js';
import { type PlanningContext, planningOf } from '../kit/acting.js';
import { type FormOutput, form, read, slackUserId } from '../kit/form.js';
import { notice } from '../kit/messages.js';
import { modalRequest, openModal } from '../kit/modal.js';
import { parseCarried, toWire, wireValue } from '../kit/round-trip.js';
import type { Services } from '../kit/services.js';
import { submission } from '../kit/submission.js';
import { connectBeforeForm, viewSurface } from '../kit/surfaces.js';
import { GRADE_TITLE, gradeModal } from './blocks.js';
import { GRADE_ACTION, GRADE_FIELD } from './ids.js';

/** A grade, picked in the form or typed after `/plan grade`. */
const Grade = z.coerce
  .number({ error: 'Choose a grade.' })
  .int()
  .min(LIMITS.grade.min, `From ${LIMITS.grade.min} to ${LIMITS.grade.max}.`)
  .max(LIMITS.grade.max, `From ${LIMITS.grade.min} to ${LIMITS.grade.max}.`);

const GradeInput = form({
  peer: read.value(GRADE_FIELD.peer, slackUserId('Choose whom to grade.')),
  notionId: read.value(GRADE_FIELD.notion, z.string({ error: 'Choose a notion.' }).min(1)),
  notionName: read.label(GRADE_FIELD.notion, z.string().optional()),
  grade: read.value(GRADE_FIELD.grade, Grade),
});
export type GradeInput = FormOutput<typeof GradeInput>;

/** Records the grade as the acting user; returns the confirmation. */
export async function recordGrade(planning: PlanningContext, data: GradeInput): Promise<Mrkdwn> {
  const { planning: service } = await planning.acting();
  const notion = data.notionName ?? 'the notion';
  if (data.peer === planning.slackUserId) {
    await service.experiences.evaluate(data.notionId, data.grade);
    return md`:white_check_mark: Your self-evaluation of *${notion}* (${data.grade}) is recorded. Only your last one within 24 hours counts.`;
  }
  // The peer may need an account: made for this grade only, and closed when the service refuses it
  // (a notion of another organization, or deleted meanwhile): only the service knows whether it takes it.
  const peer = await planning.named([data.peer]);
  await peer.apply(([person]) =>
    service.experiences.evaluatePeer(data.notionId, data.grade, person.planningUserId),
  );
  return md`:white_check_mark: Your grade of *${notion}* (${data.grade}) is recorded anonymously. They are not told who graded them; only your last grade within 24 hours counts.`;
}

export const gradeSubmission = submission<GradeInput>({
  action: 'grade',
  title: GRADE_TITLE,
  working: 'Recording your grade…',
  parse: GradeInput.parse,
  retry: (data, problem) =>
    gradeModal({
      peer: data.peer,
      notion: { id: data.notionId, value: data.notionName },
      grade: String(data.grade),
      problem,
    }),
  run: async (_svc, data, args) => ({ text: await recordGrade(planningOf(args.context), data) }),
});

/**
 * The *Grade* button's value: the peer (a Slack user) and the notion to prefill, its name shown as
 * the select's choice. Short keys on the wire; nothing about a grade is carried.
 */
export const GradePeerValue = wireValue(
  z.object({
    u: z.string().regex(SLACK_USER_ID),
    n: z.string().min(1).optional(),
    v: z.string().min(1).max(LIMITS.notion).optional(),
  }),
  (w) => ({ peer: w.u, ...(w.n ? { notion: { id: w.n, ...(w.v ? { value: w.v } : {}) } } : {}) }),
  (v: { peer: string; notion?: { id: string; value?: string } }) => ({
    u: v.peer,
    ...(v.notion ? { n: v.notion.id, ...(v.notion.value ? { v: v.notion.value } : {}) } : {}),
  }),
);

/** A *Grade* button for `peer` (and `notion`): its press opens the grading form prefilled. */
export function gradePeerButton(peer: string, notion?: { id: string; value?: string }) {
  return button('Grade', GRADE_ACTION.gradePeer, {
    value: toWire(GradePeerValue, { peer, ...(notion ? { notion } : {}) }),
  });
}

/** *Grade* pressed: the form with the peer and the notion chosen (an unreadable value: the form empty). */
export async function gradePeerAction(svc: Services, args: ActionArgs) {
  const carried = parseCarried(GradePeerValue, actionValue(args.action));
  const opened = await openModal(
    modalRequest(svc, args, args.body.trigger_id, 'grade peer'),
    gradeModal(carried ?? {}),
  );
  if (opened) {
    await connectBeforeForm(planningOf(args.context), viewSurface(args.client, opened.id, GRADE_TITLE));
  }
}

export async function gradePeerShortcut(svc: Services, args: GlobalShortcutArgs) {
  const opened = await openModal(
    modalRequest(svc, args, args.shortcut.trigger_id, 'grade peer'),
    gradeModal(),
  );
  if (opened) {
    await connectBeforeForm(planningOf(args.context), viewSurface(args.client, opened.id, GRADE_TITLE));
  }
}

const USAGE = md`\`/plan grade @user <notion> <1-10>\` — or \`/plan grade\` alone for the form.`;

/** `@user notion words 7` (mentions arrive escaped as `<@U…|name>`). */
export function parseGradeArgs(args: string): { peer: string; notion: string; grade: string } | undefined {
  const match = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>\s+(.+?)\s+(\S+)$/.exec(args.trim());
  if (!match) return undefined;
  const [, peer, notion, grade] = match as unknown as [string, string, string, string];
  // A notion name that shows nothing names nothing.
  if (showsNothing(notion)) return undefined;
  return { peer, notion, grade };
}

/**
 * `/plan grade`: the form, or a grade in one line. The notion must exist (matched by name): a typo
 * must not create a new notion in the organization's vocabulary.
 */
export const gradeSubcommand: Subcommand<Services> = {
  name: 'grade',
  usage: 'grade @user <notion> <1-10>',
  summary: "grade a peer's notion, anonymously (or yourself)",
  async run(svc, ctx) {
    const { text: args, command, client, reply } = ctx;
    const planning = planningOf(ctx.context);
    if (args === '') {
      const opened = await openModal(modalRequest(svc, ctx, command.trigger_id, '/plan grade'), gradeModal());
      if (opened) await connectBeforeForm(planning, viewSurface(client, opened.id, GRADE_TITLE));
      return;
    }
    const parsed = parseGradeArgs(args);
    if (!parsed) {
      await reply(notice(md`I could not read that. ${USAGE}`));
      return;
    }
    const gradeCheck = Grade.safeParse(parsed.grade);
    if (!gradeCheck.success) {
      await reply(notice(md`\`${parsed.grade}\` is not a grade: give a whole number from 1 to 10.`));
      return;
    }
    const { planning: service } = await planning.acting();
    const { notions } = await service.notions.search({ searchTerm: parsed.notion, pageSize: 100 });
    const wanted = parsed.notion.toLowerCase();
    const notion = notions.find((n) => (n.value ?? '').toLowerCase() === wanted);
    if (!notion) {
      const close = notions.slice(0, 5).map((n) => md`\`${n.value ?? n.id}\``);
      const hint = close.length > 0 ? md` Did you mean ${joinMd(close, ', ')}?` : md` Check its spelling.`;
      await reply(notice(md`There is no notion named “${parsed.notion}”.${hint}`));
      return;
    }
    const text = await recordGrade(planning, {
      peer: parsed.peer,
      notionId: notion.id,
      notionName: notion.value,
      grade: gradeCheck.data,
    });
    await reply(notice(text));
  },
};
