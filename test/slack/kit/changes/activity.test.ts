/** The activity lines a card's thread gets: one message per card, capped, user text escaped. */
import { describe, expect, it } from 'vitest';
import { md } from '../../../../src/blockkit/index.js';
import {
  activityLine,
  activityMessage,
  MAX_LINES,
  whoFrom,
} from '../../../../src/slack/kit/changes/activity.js';

const who = whoFrom((id) => (id === 'p1' ? 'U1' : undefined));

describe('activity in a card thread', () => {
  it('names connected people by mention, anyone else as "someone"; a task card does not name its task again', () => {
    const change = { kind: 'taskAssignee' as const, taskId: 't1', heading: 'Ship <it>', to: 'p1' };
    expect(activityLine(change, who, false)?.text).toBe('Task *Ship &lt;it&gt;* assigned to <@U1>');
    expect(activityLine(change, who, true)?.text).toBe('Assigned to <@U1>');
    expect(activityLine({ ...change, to: 'p2' }, who, true)?.text).toBe('Assigned to someone');
    expect(activityLine({ kind: 'stage', from: 'validation', to: 'planning' }, who, false)?.text).toBe(
      'Moved back to *Planning*',
    );
    expect(activityLine({ kind: 'taskAdded', taskId: 't2', heading: 'New' }, who, true)).toBeUndefined();
  });

  it('names someone not connected by their planning name when the channel’s members say it, escaped', () => {
    const named = whoFrom(
      (id) => (id === 'p1' ? 'U1' : undefined),
      (id) => (id === 'p2' ? 'Pia <b>' : undefined),
    );
    const change = { kind: 'taskAssignee' as const, taskId: 't1', heading: 'Ship', to: 'p2' };
    expect(activityLine(change, named, true)?.text).toBe('Assigned to *Pia &lt;b&gt;*');
    expect(activityLine({ ...change, to: 'p1' }, named, true)?.text).toBe('Assigned to <@U1>');
    expect(activityLine({ ...change, to: 'p3' }, named, true)?.text).toBe('Assigned to someone');
  });

  it('a burst is one message: the first lines, then how many more', () => {
    const lines = Array.from({ length: MAX_LINES + 2 }, (_, i) => md`Line ${i}`);
    const body = activityMessage(lines);
    const text = JSON.stringify(body.blocks);
    expect(body.blocks).toHaveLength(1);
    expect(text).toContain(`Line ${MAX_LINES - 1}`);
    expect(text).not.toContain(`Line ${MAX_LINES}`);
    expect(text).toContain('…and 2 more changes');
  });
});
