/**
 * `/plan grades`: the person's own experience per notion — their self-grades and the average of
 * their peers' grades. Peer grades are anonymous: averages and counts only, never who or when.
 */
import { context, md, message, packSections, plural, section } from '../../blockkit/index.js';
import type { Experience } from '../../planning/models.js';
import { COMMAND } from '../ids.js';
import type { Reply } from './messages.js';

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
