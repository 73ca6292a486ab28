import { describe, expect, it } from 'vitest';
import { quietUntil } from '../../../src/slack/kit/quiet-hours.js';

describe('quietUntil', () => {
  const night = { start: '22:00', end: '07:00' };
  it('is undefined outside quiet hours or without them', () => {
    expect(quietUntil(night, 'Europe/Paris', new Date('2026-03-10T12:00:00Z'))).toBeUndefined();
    expect(quietUntil(undefined, 'Europe/Paris', new Date('2026-03-10T23:00:00Z'))).toBeUndefined();
    expect(
      quietUntil({ start: '09:00', end: '09:00' }, 'UTC', new Date('2026-03-10T09:00:00Z')),
    ).toBeUndefined();
  });
  it('ends the next local morning when the hours wrap midnight, in the person’s zone', () => {
    // 22:30 in Paris (UTC+1) → 07:00 Paris next day = 06:00Z.
    expect(quietUntil(night, 'Europe/Paris', new Date('2026-03-10T21:30:00Z'))?.toISOString()).toBe(
      '2026-03-11T06:00:00.000Z',
    );
    // 03:00 in Paris → 07:00 the same day.
    expect(quietUntil(night, 'Europe/Paris', new Date('2026-03-11T02:00:00Z'))?.toISOString()).toBe(
      '2026-03-11T06:00:00.000Z',
    );
  });
  it('handles hours within one day and a daylight-saving night', () => {
    expect(
      quietUntil({ start: '12:00', end: '14:00' }, 'UTC', new Date('2026-03-10T13:59:00Z'))?.toISOString(),
    ).toBe('2026-03-10T14:00:00.000Z');
    // Paris springs forward on 2026-03-29: 07:00 is then UTC+2.
    expect(quietUntil(night, 'Europe/Paris', new Date('2026-03-28T22:30:00Z'))?.toISOString()).toBe(
      '2026-03-29T05:00:00.000Z',
    );
  });
});
