import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import {
  button,
  capOptions,
  escapeMrkdwn,
  md,
  message,
  modal,
  option,
  SLACK_LIMITS,
  section,
  truncate,
} from '../../../src/slack/blocks/kit.js';

const many = (n: number): KnownBlock[] => Array.from({ length: n }, (_, i) => section(`block ${i}`));

describe('truncate', () => {
  it('keeps short text and cuts long text with an ellipsis, counting code points', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('abcdefghij', 10)).toBe('abcdefghij');
    expect(truncate('abcdefghijk', 10)).toBe('abcdefghi…');
    const emoji = '😀'.repeat(30);
    const cut = truncate(emoji, 24);
    expect(Array.from(cut)).toHaveLength(24);
    expect(cut.endsWith('…')).toBe(true);
  });
});

describe('escaping user text in mrkdwn', () => {
  it('escapes &, < and > so user text cannot mention, link or ping', () => {
    expect(escapeMrkdwn('a & b <!channel> <@U1> <http://x|y> >')).toBe(
      'a &amp; b &lt;!channel&gt; &lt;@U1&gt; &lt;http://x|y&gt; &gt;',
    );
  });

  it('md escapes the interpolated values only', () => {
    expect(md`*${'<!here> & co'}* <@U123>`).toBe('*&lt;!here&gt; &amp; co* <@U123>');
  });
});

describe('limits enforced by the builders', () => {
  it('cuts a modal title to 24 characters and its buttons to 24', () => {
    const view = modal({
      callbackId: 'x',
      title: 'A title that is far longer than Slack allows',
      submit: 'Submit this long form right now please',
      blocks: [],
    });
    expect(Array.from(view.title.text)).toHaveLength(SLACK_LIMITS.modalTitle);
    expect(view.title.text.endsWith('…')).toBe(true);
    expect(Array.from(view.submit!.text)).toHaveLength(SLACK_LIMITS.modalButton);
  });

  it('keeps a modal to 100 blocks and a message to 50, saying what was left out', () => {
    const view = modal({ callbackId: 'x', title: 't', blocks: many(130) });
    expect(view.blocks).toHaveLength(100);
    expect(JSON.stringify(view.blocks.at(-1))).toContain('31 more not shown');
    const msg = message('t', many(51));
    expect(msg.blocks).toHaveLength(50);
    expect(JSON.stringify(msg.blocks.at(-1))).toContain('2 more not shown');
    expect(message('t', many(50)).blocks).toHaveLength(50);
  });

  it('cuts section text to 3000 characters', () => {
    const block = section('x'.repeat(5000));
    expect(block.text?.text).toHaveLength(3000);
  });

  it('cuts button text to 75 and refuses a value over 2000', () => {
    expect(Array.from(button('b'.repeat(100), 'a').text.text)).toHaveLength(75);
    expect(() => button('b', 'a', { value: 'v'.repeat(2001) })).toThrow(RangeError);
  });

  it('cuts option text, refuses an option value over 150 and caps options at 100', () => {
    expect(Array.from(option('o'.repeat(300), 'v').text.text)).toHaveLength(SLACK_LIMITS.optionText);
    expect(() => option('o', 'v'.repeat(151))).toThrow(RangeError);
    const options = Array.from({ length: 250 }, (_, i) => option(`o${i}`, `v${i}`));
    expect(capOptions(options)).toHaveLength(100);
  });

  it('refuses private_metadata over 3000 characters', () => {
    expect(() =>
      modal({ callbackId: 'x', title: 't', blocks: [], privateMetadata: 'm'.repeat(3001) }),
    ).toThrow(RangeError);
  });
});
