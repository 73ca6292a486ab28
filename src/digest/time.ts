/**
 * Pure time-zone logic of the daily digest: when a link's digest is due on a local day, and when it
 * runs next. Local days and wall-clock instants come from the shared src/time.ts.
 *
 * A digest is keyed on the channel's LOCAL DATE, never on an instant, so daylight-saving changes
 * can neither skip nor double it: a digest time that does not exist (spring-forward gap) becomes
 * due at the first minute that does, and a repeated hour (fall back) is due from its first pass —
 * the claim on the local date makes the second pass a no-op.
 */
import { addDays, format, isWeekend, parseISO } from 'date-fns';
import { LOCAL_DATE_PATTERN, localDateOf, TIME_OF_DAY_PATTERN, wallClockInstant } from '../time.js';

export { formatLocal, isValidTimeZone, localDateOf } from '../time.js';

/** `HH:MM`, 24-hour, zero-padded. */
export const DIGEST_TIME_PATTERN = TIME_OF_DAY_PATTERN;

/** The part of a channel link that decides when its digest runs. */
export interface DigestTiming {
  /** Local time of day, `HH:MM`. */
  digestTime: string;
  /** IANA time zone, e.g. `Europe/Berlin`. */
  timeZone: string;
  /** Skip Saturdays and Sundays (local). */
  weekdaysOnly: boolean;
  /**
   * When this schedule took effect (linked, turned on, changed): a day whose digest time came
   * before it had no digest expected, so none is caught up. Absent: no bound.
   */
  digestFrom?: Date;
}

/**
 * How long after its time a missed digest (the app was down, or a post failed) is still posted:
 * later than this, or past the end of its local day, the day is skipped rather than surprising the
 * channel with yesterday's or this morning's digest in the evening. Covers a day's retries of
 * lasting failures (5 attempts from 5 minutes apart, doubling: about 75 minutes); passing ones
 * (overload) are retried, at most 15 minutes apart, until it ends.
 */
export const DIGEST_CATCH_UP_MS = 4 * 60 * 60 * 1000;

/** Whether a digest runs on this local date: weekends only count when the link includes them. */
export function runsOn(localDate: string, weekdaysOnly: boolean): boolean {
  return !weekdaysOnly || !isWeekend(parseISO(localDate));
}

/**
 * The instant a digest time is reached on `localDate` in `timeZone`: the first pass of a repeated
 * hour, or the first minute past a skipped one (see `wallClockInstant` in src/time.ts).
 */
export function digestInstant(localDate: string, time: string, timeZone: string): Date {
  if (!DIGEST_TIME_PATTERN.test(time) || !LOCAL_DATE_PATTERN.test(localDate))
    throw new RangeError(`Invalid digest date/time: ${localDate} ${time}`);
  return wallClockInstant(localDate, time, timeZone);
}

/**
 * The local date whose digest is due at `now`, or `undefined` when none is: the local day must be
 * one the link runs on, `now` must have reached that day's digest instant, the instant must fall
 * within the schedule (not before `digestFrom`) and no more than `catchUpMs` ago.
 */
export function dueLocalDate(
  timing: DigestTiming,
  now: Date,
  catchUpMs: number = DIGEST_CATCH_UP_MS,
): string | undefined {
  const localDate = localDateOf(now, timing.timeZone);
  if (!runsOn(localDate, timing.weekdaysOnly)) return undefined;
  const at = digestInstant(localDate, timing.digestTime, timing.timeZone).getTime();
  return expected(timing, at) && now.getTime() >= at && now.getTime() - at <= catchUpMs
    ? localDate
    : undefined;
}

/** Whether a digest at `at` (epoch ms) was expected under the schedule in force. */
function expected(timing: DigestTiming, at: number): boolean {
  return timing.digestFrom === undefined || at >= timing.digestFrom.getTime();
}

/**
 * When the link's digest runs next, seen from `now`: today's if it is still ahead, `now` when it
 * is due and not yet posted (see `dueLocalDate`), otherwise the next local day it runs on. Agrees
 * with the scheduler, so what the settings reply says is what happens.
 *
 * @param lastPostedDate the local date of the last posted digest, so that a posted today is skipped.
 */
export function nextRun(
  timing: DigestTiming,
  now: Date,
  lastPostedDate?: string,
  catchUpMs: number = DIGEST_CATCH_UP_MS,
): Date {
  const today = localDateOf(now, timing.timeZone);
  // A week ahead always holds a weekday; the extra day covers dates shifted by the zone.
  for (let days = 0; days <= 8; days += 1) {
    const localDate = days === 0 ? today : format(addDays(parseISO(today), days), 'yyyy-MM-dd');
    if (!runsOn(localDate, timing.weekdaysOnly) || localDate === lastPostedDate) continue;
    const at = digestInstant(localDate, timing.digestTime, timing.timeZone);
    if (days === 0 && at.getTime() <= now.getTime()) {
      if (dueLocalDate(timing, now, catchUpMs) === localDate) return now;
      continue; // missed beyond catching up, or before the schedule began: not today
    }
    if (!expected(timing, at.getTime())) continue;
    return at;
  }
  throw new RangeError('No digest day within a week');
}

/** The instant the local day `localDate` begins in `timeZone` (for searching a day's messages). */
export function startOfLocalDay(localDate: string, timeZone: string): Date {
  return digestInstant(localDate, '00:00', timeZone);
}
