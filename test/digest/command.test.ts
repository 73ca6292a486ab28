import { describe, expect, it } from 'vitest';
import { DIGEST_USAGE, parseDigestCommand } from '../../src/digest/command.js';

describe('parseDigestCommand', () => {
  it('shows the settings when given nothing', () => {
    expect(parseDigestCommand('')).toEqual({ kind: 'show' });
    expect(parseDigestCommand('   ')).toEqual({ kind: 'show' });
  });

  it('sets the time, zero-padding a one-digit hour', () => {
    expect(parseDigestCommand('09:30')).toEqual({ kind: 'time', time: '09:30' });
    expect(parseDigestCommand('7:05')).toEqual({ kind: 'time', time: '07:05' });
    expect(parseDigestCommand('23:59')).toEqual({ kind: 'time', time: '23:59' });
  });

  it('takes an optional IANA time zone after the time', () => {
    expect(parseDigestCommand('08:00 Asia/Kolkata')).toEqual({
      kind: 'time',
      time: '08:00',
      timeZone: 'Asia/Kolkata',
    });
  });

  it('turns the digest on and off, and weekends on and off', () => {
    expect(parseDigestCommand('off')).toEqual({ kind: 'enable', enabled: false });
    expect(parseDigestCommand('ON')).toEqual({ kind: 'enable', enabled: true });
    expect(parseDigestCommand('weekends on')).toEqual({ kind: 'weekends', include: true });
    expect(parseDigestCommand('weekends off')).toEqual({ kind: 'weekends', include: false });
  });

  it('posts now', () => {
    expect(parseDigestCommand('now')).toEqual({ kind: 'now' });
  });

  it('answers help with the usage', () => {
    expect(parseDigestCommand('help')).toEqual({ kind: 'help', usage: DIGEST_USAGE });
  });

  it.each([
    ['24:00', /not a time of day/],
    ['9:60', /not a time of day/],
    ['09:00 Mars/Olympus', /not a time zone/],
    ['09:00 Europe/Berlin extra', /not a time zone/],
    ['weekends', /weekends on/],
    ['weekends maybe', /weekends on/],
    ['now please', /takes nothing/],
    ['off now', /takes nothing/],
    ['tomorrow', /don’t know `tomorrow`/],
    ['9am', /don’t know `9am`/],
  ])('refuses %j with a message and the usage', (input, message) => {
    const result = parseDigestCommand(input);
    expect(result.kind).toBe('error');
    if (result.kind !== 'error') return;
    expect(result.message.text).toMatch(message);
    expect(result.usage).toBe(DIGEST_USAGE);
  });
});
