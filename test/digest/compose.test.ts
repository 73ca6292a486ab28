import type { types as slack } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { SLACK_LIMITS } from '../../src/blockkit/index.js';
import { ADVANCE_BUTTONS, composeDigest } from '../../src/digest/compose.js';
import { type AdvanceButtonValue, DIGEST_ACTIONS, DIGEST_BLOCKS } from '../../src/digest/ids.js';
import { buildSnapshot, parseSnapshot, serializeSnapshot } from '../../src/digest/snapshot.js';
import { FEATURE_STAGES } from '../../src/planning/models.js';
import { data, feature } from '../helpers/digest-builders.js';

const context = { localDate: '2026-03-10', timeZone: 'Europe/Berlin' };

function textOf(blocks: slack.KnownBlock[], blockId: string): string | undefined {
  const block = blocks.find((b) => b.block_id === blockId);
  if (!block) return undefined;
  if (block.type === 'section') return block.text?.text;
  if (block.type === 'context') return block.elements.map((e) => ('text' in e ? e.text : '')).join(' ');
  if (block.type === 'header') return block.text.text;
  return undefined;
}

/** The lines of a list section after its title. */
function linesOf(blocks: slack.KnownBlock[], blockId: string): string[] {
  return (textOf(blocks, blockId) ?? '').split('\n').slice(1);
}

const sample = data(
  [
    feature({
      id: 'f1',
      heading: 'Login page',
      stage: 'planning',
      canAdvance: true,
      experiments: ['running', 'idle'],
    }),
    feature({
      id: 'f2',
      heading: 'Billing',
      stage: 'validation',
      experiments: ['running', 'running', 'done'],
      createdAt: '2026-03-09T12:00:00.000Z',
    }),
    feature({
      id: 'f3',
      heading: 'Search',
      stage: 'execution',
      tasks: [
        { id: 't1', heading: 'Index', state: 'in review', assigneeUserId: 'u1' },
        { id: 't2', heading: 'Ranking', state: 'idle' },
        { id: 't3', heading: 'Old', state: 'done' },
        { id: 't4', heading: 'Query parser', state: 'in review' },
      ],
    }),
    feature({ id: 'f4', heading: 'Archive', stage: 'deep context', canAdvance: true }),
    feature({ id: 'f5', heading: 'Export', stage: 'execution', canAdvance: true }),
  ],
  [{ featureId: 'f3', featureHeading: 'Search', taskId: 't2', taskHeading: 'Ranking', count: 2 }],
);

describe('composeDigest: content', () => {
  const { blocks, text, unchanged } = composeDigest(sample, context);

  it('counts features by stage, every stage shown', () => {
    const stages = textOf(blocks, DIGEST_BLOCKS.stages);
    expect(stages).toContain('(5)');
    expect(stages).toContain('Planning: *1*');
    expect(stages).toContain('Validation: *1*');
    expect(stages).toContain('Execution: *2*');
    expect(stages).toContain('Deep context: *1*');
    expect(unchanged).toBe(false);
    expect(text).toContain('5 features — 1 planning, 1 validation, 2 execution, 1 deep context');
  });

  it('lists features that can advance with an Advance button each — never a deep-context one', () => {
    expect(textOf(blocks, DIGEST_BLOCKS.canAdvance)).toBe('*Can advance* (2)');
    const rows = blocks.filter(
      (b): b is slack.SectionBlock => b.type === 'section' && b.accessory !== undefined,
    );
    expect(rows.map((r) => r.text?.text)).toEqual(['• Login page — _Planning_', '• Export — _Execution_']);
    const values = rows.map((r) => {
      const button = r.accessory as slack.Button;
      expect(button.action_id).toBe(DIGEST_ACTIONS.advanceFeature);
      return JSON.parse(button.value ?? '') as AdvanceButtonValue;
    });
    // Each carries the stage it was shown for, so a retried press cannot advance twice.
    expect(values).toEqual([
      { teamId: 'team-1', channelId: 'chan-1', featureId: 'f1', stage: 'planning' },
      { teamId: 'team-1', channelId: 'chan-1', featureId: 'f5', stage: 'execution' },
    ]);
    // The same confirmation as a feature card's Advance: it names the next stage.
    expect(rows.map((r) => (r.accessory as slack.Button).confirm?.title?.text)).toEqual([
      'Advance to Validation?',
      'Advance to Deep context?',
    ]);
  });

  it('lists tasks in review and open tasks without an assignee, with their feature', () => {
    expect(linesOf(blocks, DIGEST_BLOCKS.inReview)).toEqual([
      '• Index _(Search)_',
      '• Query parser _(Search)_',
    ]);
    // t3 is done: an unassigned finished task is nothing to act on.
    expect(linesOf(blocks, DIGEST_BLOCKS.unassigned)).toEqual([
      '• Ranking _(Search)_',
      '• Query parser _(Search)_',
    ]);
  });

  it('lists feedback waiting for a reply with the number of items', () => {
    expect(textOf(blocks, DIGEST_BLOCKS.feedback)).toBe(
      '*Feedback waiting for a reply* (2)\n• Ranking — 2 unanswered items _(Search)_',
    );
  });

  it('counts running experiments only, per feature', () => {
    expect(textOf(blocks, DIGEST_BLOCKS.experiments)).toBe(
      '*Experiments running* (3)\n• Login page — 1 experiment\n• Billing — 2 experiments',
    );
  });

  it('has no "since the last digest" sections the first time, and says it is the first', () => {
    expect(textOf(blocks, DIGEST_BLOCKS.newFeatures)).toBeUndefined();
    expect(textOf(blocks, DIGEST_BLOCKS.advanced)).toBeUndefined();
    expect(textOf(blocks, DIGEST_BLOCKS.footer)).toContain('First digest');
  });

  it('leaves out empty sections', () => {
    const quiet = composeDigest(data([feature({ id: 'x', stage: 'planning' })]), context);
    expect(quiet.blocks.map((b) => b.block_id)).toEqual([
      DIGEST_BLOCKS.header,
      DIGEST_BLOCKS.stages,
      DIGEST_BLOCKS.footer,
    ]);
    expect(textOf(composeDigest(data([]), context).blocks, DIGEST_BLOCKS.stages)).toContain('No features');
  });

  it('escapes Slack control characters in headings', () => {
    const hostile = composeDigest(
      data([feature({ id: 'h', heading: '<!channel> & <@U1>', canAdvance: true })]),
      context,
    );
    const row = hostile.blocks.find(
      (b) => b.block_id === `${DIGEST_BLOCKS.canAdvance}_0`,
    ) as slack.SectionBlock;
    expect(row.text?.text).toBe('• &lt;!channel&gt; &amp; &lt;@U1&gt; — _Planning_');
  });
});

describe('composeDigest: since the previous digest', () => {
  const first = composeDigest(sample, context);
  const previous = { postedAt: new Date('2026-03-09T08:00:00.000Z'), snapshot: first.snapshot };

  it('says one line when nothing changed', () => {
    const again = composeDigest(sample, { ...context, previous });
    expect(again.unchanged).toBe(true);
    expect(again.blocks).toHaveLength(1);
    const line = textOf(again.blocks, DIGEST_BLOCKS.unchanged) ?? '';
    expect(line).not.toContain('\n');
    expect(line).toContain('nothing changed since the last digest');
    expect(again.text).toBe(line);
  });

  it('is not "unchanged" when only a task moved', () => {
    const moved = structuredClone(sample);
    const task = moved.features[2]?.tasks[1];
    if (task) task.state = 'in progress';
    expect(composeDigest(moved, { ...context, previous }).unchanged).toBe(false);
  });

  it('shows features created after the previous digest as new, and stage changes as advanced', () => {
    const later = data([
      ...sample.features.map((f) => (f.id === 'f1' ? { ...f, stage: 'validation' as const } : f)),
      feature({ id: 'f6', heading: 'Dark mode', createdAt: '2026-03-10T07:00:00.000Z' }),
    ]);
    const { blocks, unchanged } = composeDigest(later, { ...context, previous });
    expect(unchanged).toBe(false);
    // f2 was created on the 9th at 12:00, after the previous digest at 08:00: new as well.
    expect(linesOf(blocks, DIGEST_BLOCKS.newFeatures)).toEqual([
      '• Billing — _Validation_',
      '• Dark mode — _Planning_',
    ]);
    expect(linesOf(blocks, DIGEST_BLOCKS.advanced)).toEqual(['• Login page: Planning → *Validation*']);
    expect(textOf(blocks, DIGEST_BLOCKS.footer)).toContain(
      'Changes since Mon 9 Mar 2026, 09:00 (Europe/Berlin)',
    );
  });

  it('without a stored snapshot still shows what is new, and no "advanced"', () => {
    const { blocks, unchanged } = composeDigest(sample, {
      ...context,
      previous: { postedAt: previous.postedAt },
    });
    expect(unchanged).toBe(false);
    expect(linesOf(blocks, DIGEST_BLOCKS.newFeatures)).toEqual(['• Billing — _Validation_']);
    expect(textOf(blocks, DIGEST_BLOCKS.advanced)).toBeUndefined();
  });

  it('round-trips the snapshot through storage and ignores an unreadable one', () => {
    const stored = serializeSnapshot(buildSnapshot(sample));
    expect(parseSnapshot(stored)).toEqual(first.snapshot);
    expect(parseSnapshot('{not json')).toBeUndefined();
    expect(parseSnapshot(JSON.stringify({ v: 2 }))).toBeUndefined();
    expect(parseSnapshot(undefined)).toBeUndefined();
  });
});

describe('composeDigest: Block Kit limits in a 2,000-feature channel', () => {
  const stages = FEATURE_STAGES;
  const big = data(
    Array.from({ length: 2000 }, (_, i) =>
      feature({
        id: `f${i}`,
        heading: `A rather long feature heading number ${i} that describes the work in some detail`.padEnd(
          190,
          '.',
        ),
        stage: stages[i % 4],
        canAdvance: i % 3 === 0,
        createdAt: i % 5 === 0 ? '2026-03-10T06:00:00.000Z' : '2026-01-01T00:00:00.000Z',
        tasks: [
          { id: `t${i}a`, heading: `Task ${i}a`, state: 'in review', assigneeUserId: 'u' },
          { id: `t${i}b`, heading: `Task ${i}b`, state: 'idle' },
        ],
        experiments: ['running'],
      }),
    ),
    Array.from({ length: 300 }, (_, i) => ({
      featureId: `f${i}`,
      taskId: `t${i}b`,
      taskHeading: `Task ${i}b`,
      count: 1,
    })),
    1200,
  );
  const previous = {
    postedAt: new Date('2026-03-09T08:00:00.000Z'),
    snapshot: {
      v: 1 as const,
      stages: Object.fromEntries(big.features.map((f) => [f.id, 'planning' as const])),
      fingerprint: 'x',
    },
  };
  const { blocks, text } = composeDigest(big, { ...context, previous });

  it('stays within 50 blocks and 3000 characters per text', () => {
    expect(blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.messageBlocks);
    expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    for (const block of blocks) {
      const t = textOf(blocks, block.block_id ?? '');
      expect(t, block.block_id).toBeDefined();
      expect((t ?? '').length, block.block_id).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    }
    expect(textOf(blocks, DIGEST_BLOCKS.header)?.length).toBeLessThanOrEqual(150);
  });

  it('keeps the counts right and summarises the rest with "…and N more"', () => {
    expect(textOf(blocks, DIGEST_BLOCKS.stages)).toContain('Planning: *500*');
    const expectations: [string, number][] = [
      [DIGEST_BLOCKS.inReview, 2000],
      [DIGEST_BLOCKS.unassigned, 2000],
      [DIGEST_BLOCKS.experiments, 2000],
      [DIGEST_BLOCKS.newFeatures, 400],
      // Every feature not in planning moved from the snapshot's "planning".
      [DIGEST_BLOCKS.advanced, 1500],
      [DIGEST_BLOCKS.feedback, 300],
      [`${DIGEST_BLOCKS.canAdvance}_more`, 500 - ADVANCE_BUTTONS],
    ];
    for (const [blockId, total] of expectations) {
      const lines = linesOf(blocks, blockId);
      const more = /^…and (\d+) more$/.exec(lines.at(-1) ?? '');
      expect(more, blockId).not.toBeNull();
      expect(lines.length - 1 + Number(more?.[1]), blockId).toBe(total);
    }
    // 2000/3 rounded up can advance, less the deep-context ones (i % 4 === 3).
    expect(textOf(blocks, DIGEST_BLOCKS.canAdvance)).toBe('*Can advance* (500)');
    expect(textOf(blocks, DIGEST_BLOCKS.footer)).toContain('Feedback of 1200 open tasks not checked');
  });
});
