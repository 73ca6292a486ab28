import { describe, expect, it } from 'vitest';
import { FeatureLite } from '../../src/planning/index.js';
import { changesBetween, FeatureSeen, mayHaveChanged, noteOf, seenOf } from '../../src/watch/changes.js';

const feature = (patch: Record<string, unknown> = {}) =>
  FeatureLite.parse({
    id: 'f1',
    heading: 'Checkout',
    stage: 'planning',
    authorUserId: 'u-author',
    updatedAt: '2026-11-26T09:00:00.000Z',
    assumptions: [{ id: 'a1', experiment: { state: 'idle' } }],
    tasks: [
      { id: 't1', heading: 'Draft', state: 'idle' },
      { id: 't2', heading: 'Ship', state: 'in progress', assigneeUserId: 'u1' },
    ],
    ...patch,
  });

describe('what the watch keeps and compares', () => {
  it('keeps a compact record that reads back through its schema', () => {
    const seen = seenOf(feature());
    expect(FeatureSeen.parse(JSON.parse(JSON.stringify(seen)))).toEqual(seen);
    expect(seen.tasks[1]).toEqual({ id: 't2', heading: 'Ship', state: 'in progress', assigneeUserId: 'u1' });
  });

  it('skips a feature whose updatedAt did not move, and compares when either side has none', () => {
    const a = seenOf(feature());
    expect(mayHaveChanged(a, seenOf(feature()))).toBe(false);
    expect(mayHaveChanged(a, seenOf(feature({ updatedAt: '2026-11-26T09:05:00.000Z' })))).toBe(true);
    expect(mayHaveChanged(a, seenOf(feature({ updatedAt: undefined })))).toBe(true);
  });

  it('finds every kind of change, feature first, then assumptions, then tasks', () => {
    const before = seenOf(feature());
    const after = seenOf(
      feature({
        stage: 'validation',
        assumptions: [{ id: 'a1', experiment: { state: 'running' } }, { id: 'a2' }],
        tasks: [
          { id: 't2', heading: 'Ship it', state: 'done', assigneeUserId: 'u2' },
          { id: 't3', heading: 'New', state: 'idle' },
        ],
      }),
    );
    expect(changesBetween(before, after)).toEqual([
      { kind: 'stage', from: 'planning', to: 'validation' },
      { kind: 'experiment', assumptionId: 'a1', from: 'idle', to: 'running' },
      { kind: 'assumptionAdded', assumptionId: 'a2' },
      { kind: 'taskHeading', taskId: 't2', from: 'Ship', to: 'Ship it' },
      { kind: 'taskState', taskId: 't2', heading: 'Ship it', from: 'in progress', to: 'done' },
      { kind: 'taskAssignee', taskId: 't2', heading: 'Ship it', from: 'u1', to: 'u2' },
      { kind: 'taskAdded', taskId: 't3', heading: 'New' },
      { kind: 'taskRemoved', taskId: 't1', heading: 'Draft' },
    ]);
    expect(changesBetween(before, before)).toEqual([]);
  });

  it('names a change by the value reached, the same note Slack writes for its own change', () => {
    expect(noteOf('f1', { kind: 'stage', from: 'planning', to: 'validation' })).toBe(
      'feature:f1:stage:validation',
    );
    expect(noteOf('f1', { kind: 'taskState', taskId: 't2', from: 'idle', to: 'done' })).toBe(
      'task:t2:state:done',
    );
  });
});
