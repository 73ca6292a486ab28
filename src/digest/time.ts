/**
 * Pure time-zone logic of the daily digest: which local day a moment belongs to, when a link's
 * digest is due that day, and when it runs next.
 *
 * A digest is keyed on the channel's LOCAL DATE, never on an instant, so daylight-saving changes
 * can neither skip nor double it: a digest time that does not exist (spring-forward gap) becomes
 * due at the first minute that does, and a repeated hour (fall back) is due from its first pass —
 * the claim on the local date makes the second pass a no-op.
 */
import { TZDate, tzOffset } from '@date-fns/tz';
import { addDays, format, isWeekend, parseISO } from 'date-fns';

/** `HH:MM`, 24-hour, zero-padded. */
export const DIGEST_TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The part of a channel link that decides when its digest runs. */
export interface DigestTiming {
  /** Local time of day, `HH:MM`. */
  digestTime: string;
  /** IANA time zone, e.g. `Europe/Berlin`. */
  timeZone: string;
  /** Skip Saturdays and Sundays (local). */
  weekdaysOnly: boolean;
}

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

/** Whether a digest runs on this local date: weekends only count when the link includes them. */
export function runsOn(localDate: string, weekdaysOnly: boolean): boolean {
  return !weekdaysOnly || !isWeekend(parseISO(localDate));
}

/**
 * The first instant at which the wall clock in `timeZone` reads `time` or later on `localDate`.
 *
 * Walks from an instant certainly before the target, jumping by the zone's offset: an exact hit is
 * the earliest occurrence (fall back: the first pass of the repeated hour); an overshoot means the
 * offset grew under us (spring forward), and the answer is the first minute past the transition.
 */
export function digestInstant(localDate: string, time: string, timeZone: string): Date {
  const match = DIGEST_TIME_PATTERN.exec(time);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(localDate);
  if (!match || !day) throw new RangeError(`Invalid digest date/time: ${localDate} ${time}`);
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

/**
 * The local date whose digest is due at `now`, or `undefined` when none is: the local day must be
 * one the link runs on and `now` must have reached that day's digest instant.
 */
export function dueLocalDate(timing: DigestTiming, now: Date): string | undefined {
  const localDate = localDateOf(now, timing.timeZone);
  if (!runsOn(localDate, timing.weekdaysOnly)) return undefined;
  return now.getTime() >= digestInstant(localDate, timing.digestTime, timing.timeZone).getTime()
    ? localDate
    : undefined;
}

/**
 * When the link's digest runs next, seen from `now`: today's if it is still ahead (or due and not
 * yet posted — then `now`), otherwise the next local day it runs on.
 *
 * @param lastPostedDate the local date of the last posted digest, so that a posted today is skipped.
 */
export function nextRun(timing: DigestTiming, now: Date, lastPostedDate?: string): Date {
  const today = localDateOf(now, timing.timeZone);
  // A week ahead always holds a weekday; the extra day covers dates shifted by the zone.
  for (let days = 0; days <= 8; days += 1) {
    const localDate = days === 0 ? today : format(addDays(parseISO(today), days), 'yyyy-MM-dd');
    if (!runsOn(localDate, timing.weekdaysOnly) || localDate === lastPostedDate) continue;
    const at = digestInstant(localDate, timing.digestTime, timing.timeZone);
    if (days === 0 && at.getTime() <= now.getTime()) return now;
    return at;
  }
  throw new RangeError('No digest day within a week');
}

/** A moment shown to people in the channel's zone, e.g. `Mon 9 Mar 2026, 09:00 (Europe/Berlin)`. */
export function formatLocal(instant: Date, timeZone: string): string {
  return `${format(new TZDate(instant.getTime(), timeZone), 'EEE d MMM yyyy, HH:mm')} (${timeZone})`;
}

/** The instant the local day `localDate` begins in `timeZone` (for searching a day's messages). */
export function startOfLocalDay(localDate: string, timeZone: string): Date {
  return digestInstant(localDate, '00:00', timeZone);
}
