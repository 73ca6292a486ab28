/**
 * `/plan grades`: the person's own experience per notion — their self-grades and the average of
 * their peers' grades. Peer grades are anonymous: averages and counts only, never who or when.
 */
import type { Experience } from '../../planning/models.js';
import { COMMAND } from '../ids.js';
import { context, escapeMrkdwn, message, SLACK_LIMITS, section } from './kit.js';
import type { Reply } from './messages.js';

export const GRADES_PRIVACY =
  'Peer grades are anonymous: you see their average and how many there are, never who graded you or when.';

const average = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
const grades = (count: number) => (count === 1 ? '1 grade' : `${count} grades`);

function line(experience: Experience): string {
  const notion = escapeMrkdwn(experience.notion?.value ?? experience.notion?.id ?? experience.id);
  const peer = experience.peerEval?.count
    ? `peers *${average(experience.peerEval.average)}* (${grades(experience.peerEval.count)})`
    : 'no peer grades yet';
  const self = experience.selfEval?.count
    ? `you *${average(experience.selfEval.average)}* (${grades(experience.selfEval.count)})`
    : 'not self-graded';
  return `• *${notion}* — ${peer} · ${self}`;
}

/** Lines packed into as few sections as Slack's 3,000-character limit allows. */
function packLines(lines: string[]): string[] {
  const texts: string[] = [];
  let current = '';
  for (const text of lines) {
    if (current && current.length + 1 + text.length > SLACK_LIMITS.sectionText) {
      texts.push(current);
      current = '';
    }
    current = current ? `${current}\n${text}` : text;
  }
  if (current) texts.push(current);
  return texts;
}

/** Pure: the private reply listing every notion the person has been graded on, by name. */
export function gradesMessage(experiences: readonly Experience[]): Reply {
  const graded = experiences
    .filter((e) => (e.peerEval?.count ?? 0) + (e.selfEval?.count ?? 0) > 0)
    .sort((a, b) =>
      (a.notion?.value ?? '').localeCompare(b.notion?.value ?? '', 'en', { sensitivity: 'base' }),
    );
  if (graded.length === 0) {
    const text = `You have no grades yet. Grade yourself or a peer with \`${COMMAND} grade\` or the *Grade a peer* shortcut.`;
    return message(text, [section(text), context(GRADES_PRIVACY)]);
  }
  const intro = `*Your experience* — ${graded.length === 1 ? '1 notion' : `${graded.length} notions`}, grades 1–10`;
  return message(intro, [
    section(`:bar_chart: ${intro}`),
    ...packLines(graded.map(line)).map((text) => section(text)),
    context(GRADES_PRIVACY),
  ]);
}
