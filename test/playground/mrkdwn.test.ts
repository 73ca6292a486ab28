import { describe, expect, it } from 'vitest';
import { mrkdwnToHtml, plainToHtml, withHtml } from '../../src/playground/mrkdwn.js';
import { Workspace } from '../../src/playground/workspace.js';

const ws = new Workspace({ seed: 'demo' });

describe('playground mrkdwn rendering', () => {
  it('renders Slack mrkdwn: bold, italic, strike, code, links, mentions, emoji', () => {
    const html = mrkdwnToHtml(
      '*bold* _it_ ~gone~ `code` <https://example.com|site> <@U0ALAN> <#C0API> :tada:',
      ws,
    );
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>it</em>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<a href="https://example.com" target="_blank">site</a>');
    expect(html).toContain('@Alan Turing');
    expect(html).toContain('#api');
    expect(html).toContain('🎉');
  });

  it('closes bold at the first marker, as Slack does (several on one line)', () => {
    expect(mrkdwnToHtml('Planning: *2* • Validation: *3*', ws)).toBe(
      'Planning: <strong>2</strong> • Validation: <strong>3</strong>',
    );
    expect(mrkdwnToHtml('_a_ and _b_ ~c~ ~d~', ws)).toBe(
      '<em>a</em> and <em>b</em> <del>c</del> <del>d</del>',
    );
  });

  it('quotes lines starting with >, with or without a space', () => {
    expect(mrkdwnToHtml('>one\n>two', ws)).toBe('<blockquote>one<br>two</blockquote>');
    expect(mrkdwnToHtml('> spaced', ws)).toBe('<blockquote>spaced</blockquote>');
    expect(mrkdwnToHtml('a > b', ws)).toBe('a &gt; b');
  });

  it("shows Slack's escapes once, and never lets text become markup", () => {
    expect(mrkdwnToHtml('a &lt;b&gt; &amp; c', ws)).toBe('a &lt;b&gt; &amp; c');
    expect(mrkdwnToHtml('<script>alert(1)</script>', ws)).not.toContain('<script>');
    expect(plainToHtml('<b>*x*</b> :wave:', true)).toBe(
      '&lt;b&gt;*x*&lt;/b&gt; <span class="s-emoji">👋</span>',
    );
    expect(plainToHtml(':wave:', false)).toBe(':wave:');
  });

  it('adds html to every text object and keeps unknown blocks whole', () => {
    const blocks = [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*hi*' },
        fields: [{ type: 'plain_text', text: 'x' }],
      },
      { type: 'brand_new_block', payload: { deep: [1, 2] } },
    ];
    const out = withHtml(blocks, ws) as Record<string, unknown>[];
    expect(out[0]).toMatchObject({ text: { html: '<strong>hi</strong>' }, fields: [{ html: 'x' }] });
    expect(out[1]).toEqual(blocks[1]);
    expect(blocks[0]).not.toHaveProperty('text.html'); // the app's blocks are not changed
  });
});
