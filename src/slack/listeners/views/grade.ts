/** Grade submission: the grading form, recorded by the grade flow (anonymously). */
import { GRADE_TITLE, gradeModal } from '../../blocks/grade.js';
import { planningOf } from '../../context/middleware.js';
import type { Services } from '../../context/services.js';
import { handleSubmission } from '../../context/submission.js';
import { GradeInput, recordGrade } from '../../flows/grade.js';
import { fieldLabel, fieldValue, type StateValues, validateForm } from '../../forms.js';
import { FIELD } from '../../ids.js';
import type { SubmitArgs } from '../router.js';

export function gradeSubmission(svc: Services) {
  return (args: SubmitArgs) =>
    handleSubmission<GradeInput>(svc, args, {
      action: 'grade',
      title: GRADE_TITLE,
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
      run: async (data) => ({ text: await recordGrade(planningOf(args.context), data) }),
    });
}
