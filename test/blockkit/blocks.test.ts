import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import {
  button,
  capBlocks,
  capOptions,
  channelMention,
  context,
  cut,
  cutToLength,
  escapeMrkdwn,
  header,
  inline,
  joinMd,
  link,
  listSection,
  Mrkdwn,
  md,
  mention,
  message,
  modal,
  option,
  packSections,
  quote,
  SLACK_LIMITS,
  section,
  slackDate,
  textInput,
  truncate,
} from '../../src/blockkit/index.js';

const many = (n: number): KnownBlock[] => Array.from({ length: n }, (_, i) => section(md`block ${i}`));
const HOSTILE = '<!channel> & <@U123> <https://evil|click> >';

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

describe('cut and cutToLength', () => {
  it('cut keeps at most max code points, never half an emoji', () => {
    expect(cut('abcdef', 4)).toBe('abcd');
    expect(cut('😀'.repeat(5), 3)).toBe('😀😀😀');
  });

  it('cutToLength keeps at most max UTF-16 units (what a schema .max() counts), never half an emoji', () => {
    expect(cutToLength('short', 80)).toBe('short');
    expect(cutToLength('x'.repeat(100), 80)).toBe('x'.repeat(80));
    // 79 units then an emoji of two: the emoji would make 81, so it goes whole.
    const name = `${'x'.repeat(79)}😀tail`;
    expect(cutToLength(name, 80)).toBe('x'.repeat(79));
    const emoji = cutToLength('😀'.repeat(60), 80);
    expect(emoji).toBe('😀'.repeat(40));
    expect(emoji.length).toBe(80);
    expect(cut('😀'.repeat(60), 80).length).toBe(120); // what cut would have kept: too long for max(80)
  });
});

describe('safe mrkdwn', () => {
  it('escapes &, < and > so user text cannot mention, link or ping', () => {
    expect(escapeMrkdwn(HOSTILE)).toBe(
      '&lt;!channel&gt; &amp; &lt;@U123&gt; &lt;https://evil|click&gt; &gt;',
    );
  });

  it('md escapes interpolated strings, keeps its literal parts and nested mrkdwn as they are', () => {
    const heading = md`*${HOSTILE}*`;
    expect(heading).toBeInstanceOf(Mrkdwn);
    expect(heading.text).toBe('*&lt;!channel&gt; &amp; &lt;@U123&gt; &lt;https://evil|click&gt; &gt;*');
    expect(md`${heading} for ${mention('U42')}`.text).toBe(`${heading.text} for <@U42>`);
    expect(md`${12} items`.text).toBe('12 items');
  });

  it('mentions only real Slack ids', () => {
    expect(mention('U0ABC').text).toBe('<@U0ABC>');
    expect(mention('W0ABC').text).toBe('<@W0ABC>');
    for (const bad of ['', 'u1', 'U1>', '<!channel>', 'U12|x', 'here']) {
      expect(() => mention(bad), bad).toThrow(RangeError);
    }
    expect(channelMention('C0123').text).toBe('<#C0123>');
    expect(() => channelMention('C1> <!here')).toThrow(RangeError);
  });

  it('links only http(s) URLs and escapes their label', () => {
    expect(link('https://slack.test/archives/C1/p1', 'a <b> & c').text).toBe(
      '<https://slack.test/archives/C1/p1|a &lt;b&gt; &amp; c>',
    );
    expect(link('https://x.test/a|b', 'x').text).toBe('<https://x.test/a%7Cb|x>');
    expect(() => link('javascript:alert(1)', 'x')).toThrow(RangeError);
  });

  it('quotes each line of user text, escaped', () => {
    expect(quote('one <!here>\ntwo').text).toBe('>one &lt;!here&gt;\n>two');
  });

  it('inline puts user text on one line, cut before escaping', () => {
    expect(inline('a\n\n  b <x>', 100).text).toBe('a b &lt;x&gt;');
    expect(inline('&'.repeat(10), 4).text).toBe('&amp;&amp;&amp;…');
  });

  it("slackDate formats in the reader's zone with an escaped fallback", () => {
    expect(slackDate(new Date(1_700_000_000_000), '{date_short} {time}', '<soon>').text).toBe(
      '<!date^1700000000^{date_short} {time}|&lt;soon&gt;>',
    );
  });

  it('joins safe parts', () => {
    expect(joinMd([md`a`, md`${'<b>'}`], ', ').text).toBe('a, &lt;b&gt;');
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
    const msg = message(md`t`, many(51));
    expect(msg.blocks).toHaveLength(50);
    expect(JSON.stringify(msg.blocks.at(-1))).toContain('2 more not shown');
    expect(message(md`t`, many(50)).blocks).toHaveLength(50);
  });

  it('keeps a footer after the summary line', () => {
    const blocks = capBlocks([...many(60), context(md`footer`)], 50, 1);
    expect(blocks).toHaveLength(50);
    expect(JSON.stringify(blocks.at(-2))).toContain('12 more not shown');
    expect(JSON.stringify(blocks.at(-1))).toContain('footer');
  });

  it('message text is the escaped notification text', () => {
    expect(message(md`Task created: ${HOSTILE}`, []).text).toBe(`Task created: ${escapeMrkdwn(HOSTILE)}`);
  });

  it('cuts section text to 3000 characters', () => {
    const block = section(md`${'x'.repeat(5000)}`);
    expect(block.text?.text).toHaveLength(3000);
  });

  it('cuts header text to 150 and refuses a block id over 255', () => {
    expect(Array.from(header('h'.repeat(200)).text.text)).toHaveLength(150);
    expect(() => section(md`x`, { blockId: 'b'.repeat(256) })).toThrow(RangeError);
  });

  it('cuts button text to 75 and refuses a value over 2000', () => {
    expect(Array.from(button('b'.repeat(100), 'a').text.text)).toHaveLength(75);
    expect(() => button('b', 'a', { value: 'v'.repeat(2001) })).toThrow(RangeError);
  });

  it('builds a confirmation dialog within its limits', () => {
    const b = button('Delete', 'del', {
      style: 'danger',
      confirm: { title: 't'.repeat(150), text: md`${'x'.repeat(400)}`, confirm: 'Delete', style: 'danger' },
    });
    expect(Array.from(b.confirm?.title?.text ?? '')).toHaveLength(SLACK_LIMITS.confirmTitle);
    expect(b.confirm?.text?.text).toHaveLength(SLACK_LIMITS.confirmText);
    expect(b.confirm?.deny?.text).toBe('Cancel');
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

describe('lists', () => {
  const lines = Array.from({ length: 400 }, (_, i) => md`• line number ${i} with some words`);

  it('listSection keeps within 3000 characters and counts what it left out', () => {
    const [block] = listSection(md`Things`, lines, { blockId: 'things' });
    const text = block?.text?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(block?.block_id).toBe('things');
    const shown = text.split('\n').slice(1, -1).length;
    expect(text.split('\n').at(-1)).toBe(`…and ${400 - shown} more`);
    expect(listSection(md`Nothing`, [])).toEqual([]);
  });

  it('packSections spreads every line over sections of at most 3000 characters', () => {
    const sections = packSections(lines);
    expect(sections.length).toBeGreaterThan(1);
    const all = sections.flatMap((s) => (s.text?.text ?? '').split('\n'));
    expect(all).toHaveLength(400);
    for (const s of sections) expect(s.text?.text.length).toBeLessThanOrEqual(3000);
  });
});

describe('text inputs', () => {
  it("cut a prefilled value to the input's maximum and leave an empty one out", () => {
    const long = textInput('heading_input', { max: 10, value: 'x'.repeat(50), placeholder: 'p' });
    expect(long).toMatchObject({ type: 'plain_text_input', action_id: 'heading_input', max_length: 10 });
    expect(Array.from(long.initial_value ?? '')).toHaveLength(10);
    expect(textInput('a', { value: '' })).not.toHaveProperty('initial_value');
    expect(textInput('a', { value: undefined, multiline: true })).toEqual({
      type: 'plain_text_input',
      action_id: 'a',
      multiline: true,
    });
    expect(textInput('q', { dispatchOnEnter: true }).dispatch_action_config).toEqual({
      trigger_actions_on: ['on_enter_pressed'],
    });
  });
});
