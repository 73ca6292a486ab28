/** The plan as canvas markdown (src/slack/canvas/render.ts, escape.ts): pure, no I/O. */
import { describe, expect, it } from 'vitest';
import {
  type CanvasFeature,
  canvasLink,
  canvasMention,
  canvasText,
  MAX_CANVAS_FEATURES,
  renderCanvas,
} from '../../../src/slack/canvas/index.js';

const at = new Date('2026-03-09T08:00:00Z');
const feature = (id: string, over: Partial<CanvasFeature> = {}): CanvasFeature => ({
  id,
  heading: `Feature ${id}`,
  stage: 'planning',
  assumptions: [],
  tasks: [],
  ...over,
});
const plan = (features: CanvasFeature[]) =>
  renderCanvas({ teamName: 'Core team', channelName: 'General', at, timeZone: 'Europe/Berlin', features });

/** Text as the canvas shows it: escapes undone, zero-width spaces gone. */
const shown = (markdown: string) => markdown.replace(/\\(.)/g, '$1').replace(/\u200b/g, '');

describe('canvasText', () => {
  it.each([
    ['a mention', '<@U123> and <!channel>'],
    ['a canvas mention', '![](@U123) ![](#C123)'],
    ['a link', '[click](https://evil.example) <https://evil.example|x>'],
    ['a heading', '# Owned\n## Also'],
    ['a checklist and a quote', '- [x] done\n> quoted'],
    ['emphasis and code', '*bold* _it_ ~s~ `code`'],
  ])('leaves %s inert, shown as typed on one line', (_what, text) => {
    const out = canvasText(text);
    // Every meaningful character is escaped: none is left to start markup.
    expect(out).not.toMatch(/(^|[^\\])[<[\]()#*_~`!>]/);
    expect(out).not.toContain('\n');
    expect(shown(out)).toBe(text.replace(/\n/g, ' '));
  });

  it('breaks bare addresses so they are not turned into links', () => {
    const out = canvasText('see https://evil.example or www.evil.example');
    expect(out).not.toContain('https:');
    expect(out).not.toMatch(/www\\\./);
    expect(shown(out)).toBe('see https://evil.example or www.evil.example');
  });

  it('links only http(s) addresses, and mentions only user ids', () => {
    expect(canvasLink('Card', 'javascript:alert(1)')).toBe('Card');
    expect(canvasLink('Card', 'https://x.example/a(b)')).toBe('[Card](https://x.example/a%28b%29)');
    expect(canvasMention('U0ADA')).toBe('![](@U0ADA)');
    expect(canvasMention('U1) ![](@U2')).toBeUndefined();
  });
});

describe('renderCanvas', () => {
  it('groups features by stage in the service’s order, each a section with its facts, assumptions and tasks', () => {
    const out = plan([
      feature('f3', { stage: 'execution', heading: 'Ship it' }),
      feature('f1', {
        heading: 'Plan it',
        priority: 2,
        focus: 'utilitas',
        assumptions: [{ heading: 'People want it', state: 'running' }, { state: 'done' }],
        tasks: [
          { heading: 'Ask them', state: 'done', assignee: { slackUserId: 'U0ADA' } },
          { heading: 'Write it up', state: 'in progress', assignee: { name: 'Grace Hopper' } },
          { heading: 'Nobody yet', state: 'idle' },
        ],
        cardUrl: 'https://team.slack.test/archives/C1/p1',
        webUrl: 'https://plan.example/f/f1',
      }),
      feature('f2', { stage: 'validation', heading: 'Check it' }),
    ]);
    const md = out.markdown;
    expect(out.title).toBe('Core team › General: plan');
    expect(md.indexOf('## Planning')).toBeLessThan(md.indexOf('## Validation'));
    expect(md.indexOf('## Validation')).toBeLessThan(md.indexOf('## Execution'));
    expect(out.sections.map((s) => s.featureId)).toEqual(['f1', 'f2', 'f3']);
    expect(md).toContain(
      '### Plan it\nPriority 2 · focus utilitas · [Card in Slack](https://team.slack.test/archives/C1/p1) · [Open in planning](https://plan.example/f/f1)',
    );
    expect(md).toContain('- People want it: experiment running\n- Assumption 2: experiment done');
    expect(md).toContain('- [x] Ask them (done, ![](@U0ADA))');
    expect(md).toContain('- [ ] Write it up (in progress, Grace Hopper)');
    expect(md).toContain('- [ ] Nobody yet (idle, unassigned)');
    expect(md).toContain('Brought up to date in full Mon 9 Mar 2026, 09:00 \\(Europe/Berlin\\)');
  });

  it('a heading with markup adds no heading, mention or link', () => {
    const out = plan([feature('f1', { heading: 'x\n# Pwned <@U999> [a](https://evil.example) ![](@U998)' })]);
    const lines = out.markdown.split('\n');
    expect(lines.filter((l) => /^#{1,3} /.test(l))).toEqual([
      '# Core team › General',
      '## Planning (1)',
      expect.stringMatching(/^### x \\# Pwned/),
    ]);
    expect(out.markdown).not.toMatch(/(^|[^\\])<@U999>/);
    expect(out.markdown).not.toMatch(/(^|[^\\])!\\?\[\]\(@U998/);
    expect(out.markdown).not.toContain('](https://evil');
  });

  it('a plan larger than a canvas should hold is cut, saying how many features are left out', () => {
    const many = Array.from({ length: MAX_CANVAS_FEATURES + 7 }, (_, i) => feature(`f${i}`));
    const out = plan(many);
    expect(out.sections).toHaveLength(MAX_CANVAS_FEATURES);
    expect(out.leftOut).toBe(7);
    expect(out.markdown.endsWith('…and 7 more features')).toBe(true);
  });

  it('one feature changed changes its section only', () => {
    const before = plan([feature('f1'), feature('f2')]);
    const after = plan([feature('f1'), feature('f2', { tasks: [{ heading: 'New', state: 'idle' }] })]);
    expect(after.sections[0]!.hash).toBe(before.sections[0]!.hash);
    expect(after.sections[1]!.hash).not.toBe(before.sections[1]!.hash);
  });
});
