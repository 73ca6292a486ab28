/**
 * A person's experience on a notion in words: their self grade beside their peers' average and how
 * many peers graded — as the service gives it, never who graded or when (peer grades are
 * anonymous). The Home tab, a planning profile, who knows a notion and the Assign form's fit all
 * say it the same way.
 */
import { type Mrkdwn, md, plural } from '../../blockkit/index.js';
import type { Experience } from '../../planning/index.js';

/** An experience reduced to what may be shown. */
export interface ExperienceFigures {
  self?: number;
  peerAverage?: number;
  peerCount: number;
}

/** A grade average as people write it: `7`, `6.5`. */
export const gradeText = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

/** The figures of an experience (none for a notion nobody graded them on). */
export function figuresOf(experience: Experience | undefined): ExperienceFigures {
  return {
    ...(experience?.selfEval?.count ? { self: experience.selfEval.average } : {}),
    ...(experience?.peerEval?.count ? { peerAverage: experience.peerEval.average } : {}),
    peerCount: experience?.peerEval?.count ?? 0,
  };
}

/**
 * `you *7* · peers *6.5* (2 grades)`; `selfLabel` names the person (`you`, `self`). Says so when
 * nobody graded them.
 */
export function experiencePhrase(f: ExperienceFigures, selfLabel = 'self'): Mrkdwn {
  if (f.self === undefined && f.peerAverage === undefined) return md`not graded yet`;
  const self = f.self === undefined ? md`not self-graded` : md`${selfLabel} *${gradeText(f.self)}*`;
  const peers =
    f.peerAverage === undefined
      ? md`no peer grades yet`
      : md`peers *${gradeText(f.peerAverage)}* (${plural(f.peerCount, 'grade')})`;
  return md`${self} · ${peers}`;
}
