import { describe, expect, it } from 'vitest';
import { afterPendingAcks } from '../../../src/slack/bolt/ack.js';

describe('afterPendingAcks', () => {
  it('starts one acked listener per turn of the event loop, so the sockets are read between them', async () => {
    // Counts the loop's turns: an immediate queued during a check phase runs in the next one.
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns += 1;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const startedIn: number[] = [];
    await Promise.all(Array.from({ length: 5 }, () => afterPendingAcks().then(() => startedIn.push(turns))));
    counting = false;
    // Each in a turn of its own, in the order they were acked.
    expect(new Set(startedIn).size).toBe(5);
    expect(startedIn).toEqual([...startedIn].sort((a, b) => a - b));
  });

  it('starts a listener that waits alone at the next turn', async () => {
    let started = false;
    const waited = afterPendingAcks().then(() => {
      started = true;
    });
    expect(started).toBe(false);
    await waited;
    expect(started).toBe(true);
  });
});
