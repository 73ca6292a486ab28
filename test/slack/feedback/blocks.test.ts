import { describe, expect, it } from 'vitest';
import { FEEDBACK_ISSUES } from '../../../src/planning/models.js';
import { FeedbackRef, feedbackDm, feedbackModal, replyDm } from '../../../src/slack/feedback/blocks.js';
import { FEEDBACK_ACTION } from '../../../src/slack/feedback/ids.js';

const coords = { teamId: 'team1', channelId: 'chan1', featureId: 'feat1', taskId: 'task1' };
const json = (value: unknown) => JSON.stringify(value);

describe('feedback', () => {
  it('lists the eight issue types and limits the message to 512', () => {
    const view = feedbackModal({ coords });
    const text = json(view.blocks);
    expect(FEEDBACK_ISSUES).toHaveLength(8);
    for (const issue of FEEDBACK_ISSUES) {
      expect(text).toContain(`"value":"${issue}"`);
    }
    expect(text).toContain('"max_length":512');
  });

  it('sends the assignee an escaped DM whose Reply button addresses the feedback', () => {
    const ref = { ...coords, feedbackId: 'fb1' };
    const dm = feedbackDm({ ref, authorSlackId: 'U1', message: 'a <!here> b\nline 2', issue: 'testing' });
    const text = json(dm.blocks);
    expect(text).not.toContain('<!here>');
    expect(text).toContain('&lt;!here&gt;');
    const buttonBlock = dm.blocks.find((b) => b.type === 'actions') as {
      elements: { action_id: string; value: string }[];
    };
    expect(buttonBlock.elements[0]!.action_id).toBe(FEEDBACK_ACTION.replyOpen);
    expect(FeedbackRef.parse(JSON.parse(buttonBlock.elements[0]!.value))).toEqual(ref);
    expect(json(replyDm({ replierSlackId: 'U2', reply: '<script>' }).blocks)).toContain('&lt;script&gt;');
  });
});
