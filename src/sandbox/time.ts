/** Wire formats of time: ISO strings with a `+00:00` offset (as the contract's examples) and UNIX seconds. */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';

/** `2001-01-01T08:08:08.000+00:00` */
export const isoTime = (ms: number): string => format(new TZDate(ms, 'UTC'), "yyyy-MM-dd'T'HH:mm:ss.SSSxxx");

/** UNIX seconds, as `iat` and `closedTime` travel. */
export const unixSeconds = (ms: number): number => Math.floor(ms / 1000);

/** The UTC day an API call is counted under (`apiCalls` keys). */
export const dayKey = (ms: number): string => format(new TZDate(ms, 'UTC'), 'yyyy-MM-dd');
