/** The DM rules of the change funnel, on their own: who is told of a change to a task, and never the actor. */
import { describe, expect, it } from 'vitest';
import { taskChangeDm } from '../../../../src/slack/kit/changes/dms.js';

describe('the DMs a change sends', () => {
  const t = { heading: 'Ship', assigneeSlackId: 'U2', authorSlackId: 'U1' };
  it('tell the assignee of an assignment or a move to review, the author of done, never the actor', () => {
    expect(taskChangeDm('U3', t, { kind: 'assigned' })).toMatchObject({ to: 'U2', kind: 'assigned' });
    expect(taskChangeDm('U2', t, { kind: 'assigned' })).toBeUndefined();
    expect(taskChangeDm('U3', t, { kind: 'moved', to: 'in review' })).toMatchObject({
      to: 'U2',
      kind: 'taskMoved',
    });
    expect(taskChangeDm('U3', t, { kind: 'moved', to: 'done' })).toMatchObject({
      to: 'U1',
      kind: 'taskMoved',
    });
    expect(taskChangeDm('U1', t, { kind: 'moved', to: 'done' })).toBeUndefined();
    expect(taskChangeDm('U3', t, { kind: 'moved', to: 'in progress' })).toBeUndefined();
  });
});
