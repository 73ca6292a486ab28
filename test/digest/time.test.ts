import { describe, expect, it } from 'vitest';
import {
  type DigestTiming,
  digestInstant,
  dueLocalDate,
  isValidTimeZone,
  localDateOf,
  nextRun,
  runsOn,
  startOfLocalDay,
} from '../../src/digest/time.js';

const at = (iso: string) => new Date(iso);
const every = (timeZone: string, digestTime: string, weekdaysOnly = false): DigestTiming => ({
  timeZone,
  digestTime,
  weekdaysOnly,
});

/**
 * Ticks a clock minute by minute across [from, to) and records, per local date, the first minute
 * at which the digest is due — what a scheduler that claims each local date once would post.
 */
function simulate(timing: DigestTiming, from: string, to: string): Map<string, string> {
  const posted = new Map<string, string>();
  for (let t = Date.parse(from); t < Date.parse(to); t += 60_000) {
    const due = dueLocalDate(timing, new Date(t));
    if (due !== undefined && !posted.has(due)) posted.set(due, new Date(t).toISOString());
  }
  return posted;
}

describe('digestInstant', () => {
  it('places an ordinary local time by the zone offset', () => {
    expect(digestInstant('2026-01-15', '09:00', 'America/New_York').toISOString()).toBe(
      '2026-01-15T14:00:00.000Z',
    );
    expect(digestInstant('2026-07-15', '09:00', 'America/New_York').toISOString()).toBe(
      '2026-07-15T13:00:00.000Z',
    );
    expect(digestInstant('2026-01-15', '09:00', 'Europe/Berlin').toISOString()).toBe(
      '2026-01-15T08:00:00.000Z',
    );
    expect(digestInstant('2026-07-15', '09:00', 'Europe/Berlin').toISOString()).toBe(
      '2026-07-15T07:00:00.000Z',
    );
  });

  it('handles half-hour and quarter-hour offsets (Kolkata +05:30, Chatham +12:45)', () => {
    expect(digestInstant('2026-06-15', '09:00', 'Asia/Kolkata').toISOString()).toBe(
      '2026-06-15T03:30:00.000Z',
    );
    // Chatham's 09:00 on the 15th is still the 14th in UTC.
    expect(digestInstant('2026-06-15', '09:00', 'Pacific/Chatham').toISOString()).toBe(
      '2026-06-14T20:15:00.000Z',
    );
  });

  it('moves a time inside a spring-forward gap to the first valid minute after it', () => {
    // New York, 8 March 2026: 02:00 EST jumps to 03:00 EDT.
    expect(digestInstant('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe(
      '2026-03-08T07:00:00.000Z',
    );
    // Berlin, 29 March 2026: 02:00 CET jumps to 03:00 CEST.
    expect(digestInstant('2026-03-29', '02:30', 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    // Chatham, 27 September 2026: 02:45 +12:45 jumps to 03:45 +13:45.
    expect(digestInstant('2026-09-27', '03:00', 'Pacific/Chatham').toISOString()).toBe(
      '2026-09-26T14:00:00.000Z',
    );
  });

  it('takes the first pass of a repeated fall-back hour', () => {
    // New York, 1 November 2026: 01:00–02:00 happens twice (EDT, then EST).
    expect(digestInstant('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    expect(digestInstant('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    // Chatham, 5 April 2026: 03:45 +13:45 falls back to 02:45 +12:45.
    expect(digestInstant('2026-04-05', '03:00', 'Pacific/Chatham').toISOString()).toBe(
      '2026-04-04T13:15:00.000Z',
    );
  });

  it('refuses malformed input and unknown zones with a clear error', () => {
    expect(() => digestInstant('2026-01-15', '9am', 'UTC')).toThrow(/Invalid digest date\/time/);
    expect(() => digestInstant('2026-01-15', '24:00', 'UTC')).toThrow(/Invalid digest date\/time/);
    expect(() => digestInstant('15/01/2026', '09:00', 'UTC')).toThrow(/Invalid digest date\/time/);
    expect(() => digestInstant('2026-01-15', '09:00', 'Mars/Olympus')).toThrow(/Unknown time zone/);
  });
});

describe('dueLocalDate across DST with a minute-by-minute clock', () => {
  it('New York spring forward 02:30: posts once, at 03:00 EDT, and on every other day at 02:30', () => {
    const posted = simulate(
      every('America/New_York', '02:30'),
      '2026-03-07T05:00:00Z',
      '2026-03-10T04:00:00Z',
    );
    expect([...posted]).toEqual([
      ['2026-03-07', '2026-03-07T07:30:00.000Z'],
      ['2026-03-08', '2026-03-08T07:00:00.000Z'],
      ['2026-03-09', '2026-03-09T06:30:00.000Z'],
    ]);
  });

  it('New York fall back 01:30: the repeated hour keeps the same local date, so it is one digest', () => {
    const timing = every('America/New_York', '01:30');
    const posted = simulate(timing, '2026-10-31T04:00:00Z', '2026-11-02T12:00:00Z');
    expect([...posted]).toEqual([
      ['2026-10-31', '2026-10-31T05:30:00.000Z'],
      ['2026-11-01', '2026-11-01T05:30:00.000Z'],
      ['2026-11-02', '2026-11-02T06:30:00.000Z'],
    ]);
    // The second 01:30 (EST) is still due for the same key: the store's claim on it says "posted".
    expect(dueLocalDate(timing, at('2026-11-01T06:30:00Z'))).toBe('2026-11-01');
  });

  it('Europe/Berlin keeps 09:00 local through both changes', () => {
    const spring = simulate(every('Europe/Berlin', '09:00'), '2026-03-28T00:00:00Z', '2026-03-30T00:00:00Z');
    expect([...spring.values()]).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
    const autumn = simulate(every('Europe/Berlin', '09:00'), '2026-10-24T00:00:00Z', '2026-10-26T00:00:00Z');
    expect([...autumn.values()]).toEqual(['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z']);
  });

  it('Asia/Kolkata half-hour offset keys on the local date, not the UTC one', () => {
    const timing = every('Asia/Kolkata', '02:00');
    // 20:30 UTC on the 14th is 02:00 on the 15th in Kolkata.
    expect(dueLocalDate(timing, at('2026-06-14T20:29:00Z'))).toBeUndefined();
    expect(dueLocalDate(timing, at('2026-06-14T20:30:00Z'))).toBe('2026-06-15');
  });

  it('Pacific/Chatham: gap and repeated hour each give exactly one digest per local day', () => {
    const timing = every('Pacific/Chatham', '03:00');
    const spring = simulate(timing, '2026-09-25T12:00:00Z', '2026-09-28T12:00:00Z');
    expect(spring.get('2026-09-27')).toBe('2026-09-26T14:00:00.000Z');
    expect(spring.size).toBe(3);
    const autumn = simulate(timing, '2026-04-03T12:00:00Z', '2026-04-06T12:00:00Z');
    expect(autumn.get('2026-04-05')).toBe('2026-04-04T13:15:00.000Z');
    expect(autumn.size).toBe(3);
  });

  it('skips Saturdays and Sundays by default and includes them when asked', () => {
    // Friday 6 March 2026 to Tuesday 10 March.
    const weekdays = simulate(
      every('Europe/Berlin', '09:00', true),
      '2026-03-06T00:00:00Z',
      '2026-03-10T23:00:00Z',
    );
    expect([...weekdays.keys()]).toEqual(['2026-03-06', '2026-03-09', '2026-03-10']);
    const everyDay = simulate(
      every('Europe/Berlin', '09:00', false),
      '2026-03-06T00:00:00Z',
      '2026-03-10T23:00:00Z',
    );
    expect([...everyDay.keys()]).toEqual([
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
  });

  it('judges the weekend by the local day (Saturday in Kolkata while still Friday in UTC)', () => {
    expect(runsOn('2026-03-07', true)).toBe(false);
    expect(dueLocalDate(every('Asia/Kolkata', '02:00', true), at('2026-03-06T21:00:00Z'))).toBeUndefined();
    expect(dueLocalDate(every('Asia/Kolkata', '02:00', false), at('2026-03-06T21:00:00Z'))).toBe(
      '2026-03-07',
    );
  });
});

describe('nextRun', () => {
  const timing = every('America/New_York', '09:00', true);

  it('is today at the digest time when that is ahead', () => {
    expect(nextRun(timing, at('2026-03-10T12:00:00Z')).toISOString()).toBe('2026-03-10T13:00:00.000Z');
  });

  it('is now when today is due and not yet posted, tomorrow once posted', () => {
    const now = at('2026-03-10T15:00:00Z');
    expect(nextRun(timing, now).toISOString()).toBe(now.toISOString());
    expect(nextRun(timing, now, '2026-03-10').toISOString()).toBe('2026-03-11T13:00:00.000Z');
  });

  it('jumps a weekend from Friday to Monday, across the spring-forward change', () => {
    // Friday 6 March, posted; Monday 9 March is already EDT.
    expect(nextRun(timing, at('2026-03-06T20:00:00Z'), '2026-03-06').toISOString()).toBe(
      '2026-03-09T13:00:00.000Z',
    );
  });
});

describe('helpers', () => {
  it('localDateOf follows the zone across midnight', () => {
    expect(localDateOf(at('2026-06-14T20:15:00Z'), 'Pacific/Chatham')).toBe('2026-06-15');
    expect(localDateOf(at('2026-06-15T03:00:00Z'), 'America/New_York')).toBe('2026-06-14');
  });

  it('startOfLocalDay is local midnight', () => {
    expect(startOfLocalDay('2026-06-15', 'Asia/Kolkata').toISOString()).toBe('2026-06-14T18:30:00.000Z');
  });

  it('isValidTimeZone accepts IANA names only', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('+05:30')).toBe(false);
  });
});
