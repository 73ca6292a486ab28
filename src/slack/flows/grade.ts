/**
 * Recording a grade, shared by the grading form and `/plan grade`. Anonymous by design: the grader
 * gets a private confirmation, nobody else hears of it, and no log line pairs the grader with the
 * peer or the grade.
 */
import { z } from 'zod';
import { type Mrkdwn, md } from '../../blockkit/index.js';
import { LIMITS } from '../../planning/index.js';
import type { PlanningContext } from '../context/middleware.js';
import { slackUserId } from '../forms.js';

export const GradeInput = z.object({
  peer: slackUserId('Choose whom to grade.'),
  notionId: z.string({ error: 'Choose a notion.' }).min(1),
  notionName: z.string().optional(),
  grade: z.coerce
    .number({ error: 'Choose a grade.' })
    .int()
    .min(LIMITS.grade.min, `From ${LIMITS.grade.min} to ${LIMITS.grade.max}.`)
    .max(LIMITS.grade.max, `From ${LIMITS.grade.min} to ${LIMITS.grade.max}.`),
});
export type GradeInput = z.infer<typeof GradeInput>;

/** Records the grade as the acting user; returns the confirmation. */
export async function recordGrade(planning: PlanningContext, data: GradeInput): Promise<Mrkdwn> {
  const { planning: service } = await planning.acting();
  const notion = data.notionName ?? 'the notion';
  if (data.peer === planning.slackUserId) {
    await service.experiences.evaluate(data.notionId, data.grade);
    return md`:white_check_mark: Your self-evaluation of *${notion}* (${data.grade}) is recorded. Only your last one within 24 hours counts.`;
  }
  const peer = await planning.other(data.peer);
  await service.experiences.evaluatePeer(data.notionId, data.grade, peer.planningUserId);
  return md`:white_check_mark: Your grade of *${notion}* (${data.grade}) is recorded anonymously. They are not told who graded them; only your last grade within 24 hours counts.`;
}
