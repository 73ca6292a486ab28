/**
 * Grade submission: experiences.evaluatePeer as the grader (or experiences.evaluate for oneself).
 * Anonymous by design: the grader gets a private confirmation, nobody else hears of it, and no log
 * line pairs the grader with the peer or the grade.
 */
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { LIMITS } from '../../../planning/index.js';
import { gradeModal } from '../../blocks/grade.js';
import { md } from '../../blocks/kit.js';
import { noticeView } from '../../blocks/views.js';
import { type PlanningContext, planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { fieldLabel, fieldValue, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import { handleSubmission, type SubmitArgs } from './submission.js';

const TITLE = 'Grade a peer';

export const GradeInput = z.object({
  peer: z.string({ error: 'Choose whom to grade.' }).min(1),
  notionId: z.string({ error: 'Choose a notion.' }).min(1),
  notionName: z.string().optional(),
  grade: z.coerce
    .number({ error: 'Choose a grade.' })
    .int()
    .min(LIMITS.grade.min, `From ${LIMITS.grade.min} to ${LIMITS.grade.max}.`)
    .max(LIMITS.grade.max, `From ${LIMITS.grade.min} to ${LIMITS.grade.max}.`),
});
export type GradeInput = z.infer<typeof GradeInput>;

/** Records the grade as the acting user; returns the confirmation text (mrkdwn). */
export async function recordGrade(
  svc: Services,
  planning: PlanningContext,
  client: WebClient,
  data: GradeInput,
) {
  const { planning: service } = await planning.acting();
  const notion = data.notionName ?? 'the notion';
  if (data.peer === planning.slackUserId) {
    await service.experiences.evaluate(data.notionId, data.grade);
    return md`:white_check_mark: Your self-evaluation of *${notion}* (${data.grade}) is recorded. Only your last one within 24 hours counts.`;
  }
  const peer = await svc.identities.other(planning.workspaceId, data.peer, client);
  await service.experiences.evaluatePeer(data.notionId, data.grade, peer.planningUserId);
  return md`:white_check_mark: Your grade of *${notion}* (${data.grade}) is recorded anonymously. They are not told who graded them; only your last grade within 24 hours counts.`;
}

export function gradeSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<GradeInput>(svc, args, {
      action: 'grade',
      title: TITLE,
      working: 'Recording your grade…',
      parse: (values: StateValues) =>
        validateForm(
          GradeInput,
          {
            peer: fieldValue(values, FIELD.peer),
            notionId: fieldValue(values, FIELD.notion),
            notionName: fieldLabel(values, FIELD.notion),
            grade: fieldValue(values, FIELD.grade),
          },
          values,
          { peer: FIELD.peer, notionId: FIELD.notion, grade: FIELD.grade },
        ),
      retry: (data, problem) =>
        gradeModal({
          peer: data.peer,
          notion: { id: data.notionId, value: data.notionName },
          grade: String(data.grade),
          problem,
        }),
      run: async (data) =>
        noticeView(TITLE, await recordGrade(svc, planningOf(args.context), args.client, data)),
    });
}
