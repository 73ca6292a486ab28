/**
 * Local time in an IANA time zone, pure and shared: which local day an instant belongs to, the
 * instant a wall-clock time is reached on a local day (daylight-saving jumps included), and how a
 * moment is shown to people. The digest's schedule, quiet hours and the dates the app shows all
 * read time through here, so a skipped or repeated hour is handled the same way everywhere.
 */
import { TZDate, tzOffset } from '@date-fns/tz';
import { format } from 'date-fns';

/** `HH:MM`, 24-hour, zero-padded. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** `YYYY-MM-DD`. */
export const LOCAL_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

const MINUTE = 60_000;

/** True when `timeZone` is an IANA zone name this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone.includes('/') && timeZone !== 'UTC') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The local calendar date (`YYYY-MM-DD`) of `instant` in `timeZone`. */
export function localDateOf(instant: Date, timeZone: string): string {
  return format(new TZDate(instant.getTime(), timeZone), 'yyyy-MM-dd');
}

/**
 * The first instant at which the wall clock in `timeZone` reads `time` (`HH:MM`) or later on
 * `localDate`: a time that a spring-forward jump skips becomes the first minute that exists, and a
 * repeated hour (fall back) is its first pass.
 *
 * Walks from an instant certainly before the target, jumping by the zone's offset: an exact hit is
 * the earliest occurrence; an overshoot means the offset grew under us (spring forward), and the
 * answer is the first minute past the transition.
 */
export function wallClockInstant(localDate: string, time: string, timeZone: string): Date {
  const match = TIME_OF_DAY_PATTERN.exec(time);
  const day = LOCAL_DATE_PATTERN.exec(localDate);
  if (!match || !day) throw new RangeError(`Invalid local date/time: ${localDate} ${time}`);
  // The target wall-clock reading, written as if it were UTC.
  const wall = Date.UTC(
    Number(day[1]),
    Number(day[2]) - 1,
    Number(day[3]),
    Number(match[1]),
    Number(match[2]),
  );
  const wallAt = (t: number) => t + offsetMs(timeZone, t);
  // Offsets lie within −12h…+14h, so 15 hours before the wall reading is always earlier.
  let before = wall - 15 * 60 * MINUTE;
  for (let step = 0; step < 8; step += 1) {
    const candidate = wall - offsetMs(timeZone, before);
    const reading = wallAt(candidate);
    if (reading === wall) return new Date(candidate);
    if (reading > wall) return new Date(firstMinuteReaching(before, candidate, wall, wallAt));
    before = candidate;
  }
  throw new RangeError(`Cannot place ${localDate} ${time} in ${timeZone}`);
}

/** Binary search, in whole minutes, for the first instant in (lo, hi] whose wall clock reaches `wall`. */
function firstMinuteReaching(lo: number, hi: number, wall: number, wallAt: (t: number) => number): number {
  let low = Math.floor(lo / MINUTE);
  let high = Math.ceil(hi / MINUTE);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (wallAt(mid * MINUTE) >= wall) high = mid;
    else low = mid;
  }
  return high * MINUTE;
}

function offsetMs(timeZone: string, t: number): number {
  const minutes = tzOffset(timeZone, new Date(t));
  if (Number.isNaN(minutes)) throw new RangeError(`Unknown time zone: ${timeZone}`);
  return Math.round(minutes * MINUTE);
}

/** A moment shown to people in a zone, e.g. `Mon 9 Mar 2026, 09:00 (Europe/Berlin)`. */
export function formatLocal(instant: Date, timeZone: string): string {
  return `${format(new TZDate(instant.getTime(), timeZone), 'EEE d MMM yyyy, HH:mm')} (${timeZone})`;
}
