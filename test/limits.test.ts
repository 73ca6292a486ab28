import { describe, expect, it } from 'vitest';
import { keyedLimit } from '../src/limits.js';

describe('keyedLimit', () => {
  it('bounds work per key, and lets other keys run meanwhile', async () => {
    const limit = keyedLimit(2);
    const inFlight = new Map<string, number>();
    const peak = new Map<string, number>();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const task = (key: string) => async () => {
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      peak.set(key, Math.max(peak.get(key) ?? 0, inFlight.get(key) ?? 0));
      await gate;
      inFlight.set(key, (inFlight.get(key) ?? 0) - 1);
      return key;
    };
    const runs = [
      ...Array.from({ length: 5 }, () => limit('a', task('a'))),
      ...Array.from({ length: 3 }, () => limit('b', task('b'))),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    // Before anything finishes: two of each key started, no more.
    expect(Object.fromEntries(inFlight)).toEqual({ a: 2, b: 2 });
    release();
    expect(await Promise.all(runs)).toEqual(['a', 'a', 'a', 'a', 'a', 'b', 'b', 'b']);
    expect(Object.fromEntries(peak)).toEqual({ a: 2, b: 2 });
  });

  it('passes a failure through without blocking the key', async () => {
    const limit = keyedLimit(1);
    await expect(limit('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limit('k', async () => 'next')).toBe('next');
  });
});
