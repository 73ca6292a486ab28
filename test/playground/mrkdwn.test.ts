import { describe, expect, it } from 'vitest';
import { escapeMentions } from '../../src/playground/interactions.js';
import { mrkdwnToHtml, plainToHtml, slackDateText, withHtml } from '../../src/playground/mrkdwn.js';
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

  it('quotes a second `>` line after text in between (issue 23 item 16)', () => {
    expect(mrkdwnToHtml('>one\ntext\n>two', ws)).toBe(
      '<blockquote>one<br></blockquote>text<br><blockquote>two</blockquote>',
    );
    expect(mrkdwnToHtml('>a\n\n*b*\n>c', ws)).toContain('<strong>b</strong><br><blockquote>c</blockquote>');
  });

  it("shows <!date^…> in the reader's time zone with Slack's short forms (issue 23 item 16)", () => {
    const zoned = new Workspace({ seed: 'demo', tz: 'America/New_York' });
    // 2026-11-25 21:15:16 UTC is 4:15 PM in New York.
    const token = '<!date^1795641316^{date_short} at {time}|2026-11-25 21:15 UTC>';
    expect(mrkdwnToHtml(token, zoned, 'U0ADA')).toContain('Nov 25, 2026 at 4:15 PM');
    expect(mrkdwnToHtml(token, ws, 'U0ADA')).toContain('Nov 25, 2026 at 9:15 PM');
    expect(mrkdwnToHtml(token, ws)).not.toContain('GMT');
    const now = Date.UTC(2026, 10, 25, 23, 0);
    expect(slackDateText(1795641316, '{date_short_pretty} at {time}', 'UTC', now)).toBe('today at 9:15 PM');
    expect(slackDateText(1795641316, '{date_pretty}', 'Asia/Tokyo', now)).toBe('today');
    expect(slackDateText(1795641316, '{date_long} {time_secs}', 'UTC', now)).toBe(
      'Wednesday, November 25th, 2026 9:15:16 PM',
    );
    expect(slackDateText(1795641316, '{date_num} {date} {unknown}', 'UTC', now)).toBe(
      '2026-11-25 November 25th, 2026 {unknown}',
    );
    expect(slackDateText(Number.NaN, '{date}', 'UTC', now)).toBeUndefined();
    expect(mrkdwnToHtml('<!date^nope^{date}|the fallback>', ws)).toContain('the fallback');
  });

  it('shows a link a person typed as they typed it, with the address linked (issue 23 item 16)', () => {
    const typed = escapeMentions('see <https://example.com|link> now', ws);
    expect(mrkdwnToHtml(typed, ws)).toBe(
      'see &lt;<a href="https://example.com" target="_blank">https://example.com</a>|link&gt; now',
    );
    expect(mrkdwnToHtml('go https://example.com/a?b=1. ok', ws)).toBe(
      'go <a href="https://example.com/a?b=1" target="_blank">https://example.com/a?b=1</a>. ok',
    );
  });

  it("shows Slack's escapes once, and never lets text become markup", () => {
    expect(mrkdwnToHtml('a &lt;b&gt; &amp; c', ws)).toBe('a &lt;b&gt; &amp; c');
    expect(mrkdwnToHtml('<script>alert(1)</script>', ws)).not.toContain('<script>');
    expect(plainToHtml('<b>*x*</b> :wave:', true)).toBe(
      '&lt;b&gt;*x*&lt;/b&gt; <span class="s-emoji" data-code=":wave:" title=":wave:">👋</span>',
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
