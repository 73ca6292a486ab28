/** The grades topic's wire ids: the global shortcut and the grading form. */
import { field } from '../kit/ids.js';

export const GRADE_SHORTCUT = { gradePeer: 'grade_peer' } as const;

export const GRADE_VIEW = { grade: 'grade' } as const;

export const GRADE_FIELD = {
  peer: field('peer'),
  notion: field('notion'),
  grade: field('grade'),
} as const;
