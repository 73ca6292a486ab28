/**
 * The grades topic's blocks: the peer-grading form (a peer, a notion, a grade 1–10; anonymous, the
 * last grade in 24 h counts) and one's own grades — never who graded whom, or when.
 */
import type { ModalView, PlainTextOption } from '@slack/types';
import {
  context,
  input,
  type Mrkdwn,
  md,
  message,
  modal,
  option,
  packSections,
  plural,
  section,
} from '../../blockkit/index.js';
import { type Experience, LIMITS, type Notion } from '../../planning/models.js';
import { COMMAND } from '../kit/ids.js';
import type { Reply } from '../kit/messages.js';
import { formProblem } from '../kit/modal.js';
import { GRADE_FIELD, GRADE_VIEW } from './ids.js';

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
    callbackId: GRADE_VIEW.grade,
    title: GRADE_TITLE,
    submit: 'Grade',
    close: 'Cancel',
    blocks: [
      section(md`How experienced is your teammate with a notion (a skill)?`),
      input('Peer', GRADE_FIELD.peer.block, {
        type: 'users_select',
        action_id: GRADE_FIELD.peer.action,
        ...(form.peer ? { initial_user: form.peer } : {}),
      }),
      input('Notion', GRADE_FIELD.notion.block, {
        type: 'external_select',
        action_id: GRADE_FIELD.notion.action,
        min_query_length: 0,
        placeholder: { type: 'plain_text', text: 'Search the notions' },
        ...(form.notion ? { initial_option: notionOption(form.notion) } : {}),
      }),
      input('Grade', GRADE_FIELD.grade.block, {
        type: 'static_select',
        action_id: GRADE_FIELD.grade.action,
        placeholder: { type: 'plain_text', text: `${LIMITS.grade.min}–${LIMITS.grade.max}` },
        options: grades,
        ...(grade ? { initial_option: grade } : {}),
      }),
      context(GRADE_RULES),
      ...(form.problem ? [formProblem(form.problem)] : []),
    ],
  });
}

export const GRADES_PRIVACY = md`Peer grades are anonymous: you see their average and how many there are, never who graded you or when.`;

const average = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

const grades = (count: number) => plural(count, 'grade');

function line(experience: Experience) {
  const notion = experience.notion?.value ?? experience.notion?.id ?? experience.id;
  const peer = experience.peerEval?.count
    ? md`peers *${average(experience.peerEval.average)}* (${grades(experience.peerEval.count)})`
    : md`no peer grades yet`;
  const self = experience.selfEval?.count
    ? md`you *${average(experience.selfEval.average)}* (${grades(experience.selfEval.count)})`
    : md`not self-graded`;
  return md`• *${notion}* — ${peer} · ${self}`;
}

/** Pure: the private reply listing every notion the person has been graded on, by name. */
export function gradesMessage(experiences: readonly Experience[]): Reply {
  const graded = experiences
    .filter((e) => (e.peerEval?.count ?? 0) + (e.selfEval?.count ?? 0) > 0)
    .sort((a, b) =>
      (a.notion?.value ?? '').localeCompare(b.notion?.value ?? '', 'en', { sensitivity: 'base' }),
    );
  if (graded.length === 0) {
    const text = md`You have no grades yet. Grade yourself or a peer with \`${COMMAND} grade\` or the *Grade a peer* shortcut.`;
    return message(text, [section(text), context(GRADES_PRIVACY)]);
  }
  const intro = md`*Your experience* — ${plural(graded.length, 'notion')}, grades 1–10`;
  return message(intro, [
    section(md`:bar_chart: ${intro}`),
    ...packSections(graded.map(line)),
    context(GRADES_PRIVACY),
  ]);
}
