/**
 * Request correlation (issue 26 item 6): a request's ack line and every line of the work after it —
 * the router's, the planning calls', Bolt's — carry the same request id, and two requests at once
 * never share one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, Harness } from '../../helpers/slack-harness.js';

interface Line {
  msg: string;
  reqId?: string;
  operation?: string;
  kind?: string;
  status?: number;
}

describe('request correlation in the log', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
  });
  afterEach(() => h.close());

  const lines = () => h.logs.map((l) => JSON.parse(l) as Line);

  it("every line of a command's after-ack work carries its ack line's request id", async () => {
    await h.connect('U1');
    await h.connect('U2', 'admin');
    const before = h.logs.length;
    // Two at once: their work interleaves, and each line must still name its own request.
    const answers = await Promise.all([h.command('whoami', 'U1'), h.command('whoami', 'U2')]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // Their replies, the last thing each one's work does.
    await eventually(() => h.slack.called('respond').length >= 2, 'both replies');

    const mine = lines().slice(before);
    const acks = mine.filter((l) => l.msg === 'slack request answered');
    expect(acks).toHaveLength(2);
    expect(acks.map((a) => [a.kind, a.status])).toEqual([
      ['command', 200],
      ['command', 200],
    ]);
    const ids = acks.map((a) => a.reqId);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);

    // The planning calls each command made after its ack, under that request's id.
    const calls = lines()
      .slice(before)
      .filter((l) => l.msg === 'planning call');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) expect(ids).toContain(call.reqId);
    for (const id of ids) expect(calls.some((c) => c.reqId === id)).toBe(true);
    // And no line written within a request goes without an id (start-up lines came before).
    const untagged = lines()
      .slice(before)
      .filter((l) => l.reqId === undefined);
    expect(untagged.map((l) => l.msg)).toEqual([]);
  });
});
