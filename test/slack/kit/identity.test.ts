import { describe, expect, it } from 'vitest';
import { parseGradeArgs } from '../../../src/slack/grades/peer-grade.js';
import { serviceAccountName } from '../../../src/slack/kit/identity.js';
import { matches } from '../../../src/slack/kit/options.js';

describe('serviceAccountName (3–64 safe characters from a Slack profile)', () => {
  it('prefers the display name, then the real name, then the handle', () => {
    expect(serviceAccountName({ display_name: 'Ana', real_name: 'Ana Lima', name: 'ana' }, 'U1')).toBe('Ana');
    expect(serviceAccountName({ display_name: ' ', real_name: 'Ana Lima', name: 'ana' }, 'U1')).toBe(
      'Ana Lima',
    );
    expect(serviceAccountName({ name: 'ana.lima' }, 'U1')).toBe('ana.lima');
  });

  it('drops markup and symbols, keeps letters of any script', () => {
    expect(serviceAccountName({ real_name: 'Bo <script>alert(1)</script> 🎉' }, 'U1')).toBe(
      'Bo script alert 1 script',
    );
    expect(serviceAccountName({ real_name: 'Zoë Ørsted-Łukasz' }, 'U1')).toBe('Zoë Ørsted-Łukasz');
  });

  it('pads names shorter than 3 with the Slack id, and names the nameless', () => {
    expect(serviceAccountName({ real_name: 'Al' }, 'U123')).toBe('Al slack-U123');
    expect(serviceAccountName({}, 'U123')).toBe('slack-U123');
    expect(serviceAccountName({ real_name: '🎉🎉' }, 'U123')).toBe('slack-U123');
  });

  it('cuts at 64 characters', () => {
    const name = serviceAccountName({ real_name: 'x'.repeat(100) }, 'U1');
    expect(name).toHaveLength(64);
  });
});

describe('parseGradeArgs', () => {
  it('reads an escaped mention, a notion of several words and a grade', () => {
    expect(parseGradeArgs('<@U12AB|ana> Type Script  7')).toEqual({
      peer: 'U12AB',
      notion: 'Type Script',
      grade: '7',
    });
    expect(parseGradeArgs('<@W9> rust 10')).toEqual({ peer: 'W9', notion: 'rust', grade: '10' });
  });

  it('refuses input without a mention, a notion or a grade', () => {
    expect(parseGradeArgs('@ana rust 7')).toBeUndefined();
    expect(parseGradeArgs('<@U1> 7')).toBeUndefined();
    expect(parseGradeArgs('')).toBeUndefined();
  });
});

describe('matches (searchable selects)', () => {
  it('ignores case, accents and underscores; an empty query matches all', () => {
    expect(matches('America/New_York', 'new york')).toBe(true);
    expect(matches('Crème brûlée', 'CREME')).toBe(true);
    expect(matches('Login page', 'billing')).toBe(false);
    expect(matches('anything', '')).toBe(true);
    expect(matches('anything', undefined)).toBe(true);
  });
});
