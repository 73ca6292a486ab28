/**
 * `/plan digest …` arguments → one action, or an error that carries the usage. Pure: the Slack
 * subcommand turns the action into store updates and replies.
 */
import { joinMd, type Mrkdwn, md } from '../blockkit/index.js';
import { DIGEST_TIME_PATTERN, isValidTimeZone } from './time.js';

export type DigestCommand =
  | { kind: 'show' }
  | { kind: 'time'; time: string; timeZone?: string }
  | { kind: 'enable'; enabled: boolean }
  | { kind: 'weekends'; include: boolean }
  | { kind: 'now' }
  | { kind: 'help'; usage: Mrkdwn }
  | { kind: 'error'; message: Mrkdwn; usage: Mrkdwn };

/** One line per form of the command. */
export const DIGEST_USAGE_LINES: readonly Mrkdwn[] = [
  md`\`/plan digest\` — show this channel’s digest settings and the next run`,
  md`\`/plan digest HH:MM [Area/City]\` — post daily at that local time (24-hour), optionally in another time zone`,
  md`\`/plan digest on\` / \`/plan digest off\` — turn the daily digest on or off`,
  md`\`/plan digest weekends on|off\` — include or skip Saturdays and Sundays (skipped by default)`,
  md`\`/plan digest now\` — post a digest right away (today’s scheduled one still comes)`,
];
export const DIGEST_USAGE = joinMd(DIGEST_USAGE_LINES);

const ON = new Set(['on', 'yes', 'true', 'enable', 'enabled']);
const OFF = new Set(['off', 'no', 'false', 'disable', 'disabled']);

/** Parses what follows `/plan digest`. Never throws: bad input is an `error` action with the usage. */
export function parseDigestCommand(args: string): DigestCommand {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const [first, second, ...rest] = words;
  const error = (message: Mrkdwn): DigestCommand => ({ kind: 'error', message, usage: DIGEST_USAGE });
  if (first === undefined) return { kind: 'show' };
  const head = first.toLowerCase();

  if (head === 'help') return { kind: 'help', usage: DIGEST_USAGE };
  if (head === 'now')
    return second === undefined ? { kind: 'now' } : error(md`\`now\` takes nothing after it.`);
  if (ON.has(head) || OFF.has(head)) {
    return second === undefined
      ? { kind: 'enable', enabled: ON.has(head) }
      : error(md`\`${first}\` takes nothing after it.`);
  }
  if (head === 'weekends' || head === 'weekend') {
    const value = second?.toLowerCase();
    if (value === undefined || rest.length > 0 || !(ON.has(value) || OFF.has(value))) {
      return error(md`Say \`weekends on\` or \`weekends off\`.`);
    }
    return { kind: 'weekends', include: ON.has(value) };
  }
  if (/^\d{1,2}:\d{2}$/.test(first)) {
    const time = first.padStart(5, '0');
    if (!DIGEST_TIME_PATTERN.test(time)) return error(md`\`${first}\` is not a time of day (00:00–23:59).`);
    if (second === undefined) return { kind: 'time', time };
    if (rest.length > 0 || !isValidTimeZone(second)) {
      return error(
        md`\`${[second, ...rest].join(' ')}\` is not a time zone; use a name like \`Europe/Berlin\`.`,
      );
    }
    return { kind: 'time', time, timeZone: second };
  }
  return error(md`I don’t know \`${first}\`.`);
}
