/** The grades topic's wire ids: the global shortcut, the Grade button and the grading form. */
import { field } from '../kit/ids.js';

export const GRADE_SHORTCUT = { gradePeer: 'grade_peer' } as const;

export const GRADE_ACTION = {
  /** *Grade* beside a peer (the assistant's peers you could grade): the form, prefilled. */
  gradePeer: 'grade_peer_open',
} as const;

export const GRADE_VIEW = { grade: 'grade' } as const;

export const GRADE_FIELD = {
  peer: field('peer'),
  notion: field('notion'),
  grade: field('grade'),
} as const;
