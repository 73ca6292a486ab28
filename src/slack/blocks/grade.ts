/** The peer-grading form: a peer, a notion, a grade 1–10; anonymous, last grade in 24 h counts. */
import type { ModalView, PlainTextOption } from '@slack/types';
import { context, input, type Mrkdwn, md, modal, option, section } from '../../blockkit/index.js';
import { LIMITS, type Notion } from '../../planning/models.js';
import { FIELD, VIEW } from '../ids.js';
import { formProblem } from './views.js';

export const GRADE_RULES = md`Grades of a peer are anonymous: they are not told who graded them. Only your last grade for a person and notion within 24 hours counts. Choose yourself to grade your own experience.`;

export function notionOption(notion: Notion): PlainTextOption {
  return option(notion.value ?? notion.id, notion.id);
}

const GRADES = Array.from({ length: LIMITS.grade.max - LIMITS.grade.min + 1 }, (_, i) =>
  String(LIMITS.grade.min + i),
);

export interface GradeForm {
  peer?: string;
  notion?: Notion;
  grade?: string;
  problem?: Mrkdwn;
}

export const GRADE_TITLE = 'Grade a peer';

export function gradeModal(form: GradeForm = {}): ModalView {
  const grades = GRADES.map((g) => option(g, g));
  const grade = grades.find((o) => o.value === form.grade);
  return modal({
    callbackId: VIEW.grade,
    title: GRADE_TITLE,
    submit: 'Grade',
    close: 'Cancel',
    blocks: [
      section(md`How experienced is your teammate with a notion (a skill)?`),
      input('Peer', FIELD.peer.block, {
        type: 'users_select',
        action_id: FIELD.peer.action,
        ...(form.peer ? { initial_user: form.peer } : {}),
      }),
      input('Notion', FIELD.notion.block, {
        type: 'external_select',
        action_id: FIELD.notion.action,
        min_query_length: 0,
        placeholder: { type: 'plain_text', text: 'Search the notions' },
        ...(form.notion ? { initial_option: notionOption(form.notion) } : {}),
      }),
      input('Grade', FIELD.grade.block, {
        type: 'static_select',
        action_id: FIELD.grade.action,
        placeholder: { type: 'plain_text', text: `${LIMITS.grade.min}–${LIMITS.grade.max}` },
        options: grades,
        ...(grade ? { initial_option: grade } : {}),
      }),
      context(GRADE_RULES),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}
