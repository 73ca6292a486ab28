/**
 * Text that shows nothing is no text (issue 35 item 5): the one rule, `showsNothing`, for every
 * form field, command argument, thread reply, workflow input and message taken as evidence or a
 * discovery. (Each of those surfaces, end to end: test/slack/kit/invisible-text.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { showsNothing } from '../../src/blockkit/index.js';

describe('showsNothing', () => {
  it('holds for blanks, controls and default-ignorable characters only', () => {
    for (const text of [
      '',
      '  \n\t',
      '\u200b\u200c\u200d',
      '\u2060\ufeff\u00ad',
      '\u200e\u200f\u061c',
      '\u202a\u202b\u202c\u202d\u202e',
      '\u2066\u2067\u2068\u2069',
      '\u3164\ufe0f\u180e',
      '\u00a0\u3000\u2800',
      '\u0000\u007f',
    ]) {
      expect(showsNothing(text), JSON.stringify(text)).toBe(true);
    }
  });

  it("holds for Slack's markup that renders nothing: a link labelled with blanks, emphasis of blanks", () => {
    for (const text of [
      '<https://x.test|\u200b>',
      '<mailto:a@x.test|\u00ad\u2060>',
      '*\u200b*',
      '_*\u2060*_ ~\ufeff~',
      '<https://x.test|\u200b> *\u200b*',
    ]) {
      expect(showsNothing(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('does not hold for text that shows something, even with such characters inside', () => {
    for (const text of [
      'a',
      '\u200ba',
      '❤️',
      '👩\u200d💻',
      '\u0640',
      // Slack shows these as typed, or shows a name or the link itself.
      '**',
      '* *',
      '`\u200b`',
      '<@U1|>',
      '<#C1|\u200b>',
      '<!here>',
      '<https://x.test>',
      '<https://x.test|a>',
      '&lt;&gt;',
    ]) {
      expect(showsNothing(text), JSON.stringify(text)).toBe(false);
    }
  });
});
