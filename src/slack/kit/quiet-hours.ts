/**
 * Quiet hours, pure: whether an instant falls inside a person's local quiet hours and, if so, the
 * instant they end. Hours may wrap midnight (22:00–07:00); equal start and end mean none. Local
 * times that a daylight-saving jump skips resolve as the digest's do (`wallClockInstant`, src/time.ts).
 */
import { TZDate } from '@date-fns/tz';
import { addDays, format, parseISO } from 'date-fns';
import { wallClockInstant } from '../../time.js';

export interface QuietHours {
  start: string;
  end: string;
}

/** When the quiet hours around `now` end, or undefined when `now` is not inside them. */
export function quietUntil(quiet: QuietHours | undefined, timeZone: string, now: Date): Date | undefined {
  if (!quiet || quiet.start === quiet.end) return undefined;
  const local = new TZDate(now.getTime(), timeZone);
  const time = format(local, 'HH:mm');
  const today = format(local, 'yyyy-MM-dd');
  const tomorrow = format(addDays(parseISO(today), 1), 'yyyy-MM-dd');
  if (quiet.start < quiet.end) {
    return time >= quiet.start && time < quiet.end ? wallClockInstant(today, quiet.end, timeZone) : undefined;
  }
  // Wrapping midnight: quiet from start to midnight, and from midnight to end.
  if (time >= quiet.start) return wallClockInstant(tomorrow, quiet.end, timeZone);
  if (time < quiet.end) return wallClockInstant(today, quiet.end, timeZone);
  return undefined;
}
