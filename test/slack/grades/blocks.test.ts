import { describe, expect, it } from 'vitest';
import { SLACK_LIMITS } from '../../../src/blockkit/index.js';
import { Experience } from '../../../src/planning/models.js';
import { GRADE_RULES, GRADES_PRIVACY, gradeModal, gradesMessage } from '../../../src/slack/grades/blocks.js';
import { GRADE_FIELD } from '../../../src/slack/grades/ids.js';

const xp = (notion: string, peer: [number, number] | undefined, self: [number, number] | undefined) =>
  Experience.parse({
    id: `xp-${notion}`,
    userId: 'p-graded',
    notion: { id: `n-${notion}`, value: notion },
    ...(peer ? { peerEval: { count: peer[0], average: peer[1], recent: [9, 3] } } : {}),
    ...(self ? { selfEval: { count: self[0], average: self[1], recent: [6] } } : {}),
  });

const sectionTexts = (blocks: unknown[]) =>
  blocks
    .filter(
      (b): b is { type: 'section'; text: { text: string } } => (b as { type: string }).type === 'section',
    )
    .map((b) => b.text.text);

describe('gradesMessage', () => {
  it('lists notions by name with peer and own averages and counts; ungraded notions are left out', () => {
    const { text, blocks } = gradesMessage([
      xp('rust', [3, 6.666], undefined),
      xp('Go', undefined, [1, 4]),
      xp('Cobol', undefined, undefined),
      xp('TypeScript', [2, 7], [1, 6]),
    ]);
    expect(text).toBe('*Your experience* — 3 notions, grades 1–10');
    expect(sectionTexts(blocks)[1]?.split('\n')).toEqual([
      '• *Go* — no peer grades yet · you *4* (1 grade)',
      '• *rust* — peers *6.7* (3 grades) · not self-graded',
      '• *TypeScript* — peers *7* (2 grades) · you *6* (1 grade)',
    ]);
    expect(blocks.at(-1)).toMatchObject({ type: 'context', elements: [{ text: GRADES_PRIVACY.text }] });
  });

  it('never shows single grades, graders or the person id', () => {
    const shown = JSON.stringify(gradesMessage([xp('TypeScript', [2, 6], [1, 6])]));
    expect(shown).not.toMatch(/\*9\*|\*3\*|p-graded|xp-TypeScript/);
  });

  it('escapes notion names so one cannot ping a channel', () => {
    const shown = JSON.stringify(gradesMessage([xp('<!channel>', [1, 5], undefined)]));
    expect(shown).toContain('&lt;!channel&gt;');
    expect(shown).not.toContain('<!channel>');
  });

  it('says how to start when there are no grades', () => {
    const { text } = gradesMessage([xp('Cobol', undefined, undefined)]);
    expect(text).toContain('no grades yet');
    expect(text).toContain('`/plan grade`');
  });

  it('stays within Block Kit limits for hundreds of long notion names', () => {
    const many = Array.from({ length: 600 }, (_, i) =>
      xp(`${'notion '.repeat(9)}${i}`, [i + 1, 5.5], [1, 5]),
    );
    const { blocks } = gradesMessage(many);
    expect(blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.messageBlocks);
    for (const text of sectionTexts(blocks))
      expect(text.length).toBeLessThanOrEqual(SLACK_LIMITS.sectionText);
    // Lines are packed, not one block each: 600 lines fit in far fewer than 50 sections.
    expect(
      sectionTexts(blocks)
        .join('\n')
        .split('\n')
        .filter((l) => l.startsWith('•')),
    ).toHaveLength(600);
  });
});

describe('grade modal', () => {
  it('offers grades 1 to 10 and says the last grade in 24 hours counts, anonymously', () => {
    const view = gradeModal();
    const grade = view.blocks.find((b) => b.block_id === GRADE_FIELD.grade.block) as unknown as {
      element: { options: { value: string }[] };
    };
    expect(grade.element.options.map((o) => o.value)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
    expect(GRADE_RULES.text).toMatch(/24 hours/);
    expect(GRADE_RULES.text).toMatch(/anonymous/);
    expect(JSON.stringify(view.blocks)).toContain('24 hours');
  });
});
