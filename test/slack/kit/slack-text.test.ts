import { describe, expect, it } from 'vitest';
import { prefillTask, slackTextToPlain } from '../../../src/slack/kit/slack-text.js';

describe('prefill from a message', () => {
  it('takes the first non-empty line as heading and decodes Slack entities and links', () => {
    const text = '\n  Fix &lt;login&gt; &amp; signup  \nsee <https://x.example/a|the doc> and <@U1>';
    expect(slackTextToPlain(text)).toContain('see the doc and @U1');
    const { heading, details } = prefillTask(text, 'https://slack.example/p1');
    expect(heading).toBe('Fix <login> & signup');
    expect(details).toBe('Fix <login> & signup  \nsee the doc and @U1\n\nhttps://slack.example/p1');
  });

  it('cuts the heading to 200 with an ellipsis', () => {
    const { heading } = prefillTask('h'.repeat(500));
    expect(Array.from(heading)).toHaveLength(200);
    expect(heading.endsWith('…')).toBe(true);
  });

  it('keeps details within 2048 and always keeps the permalink', () => {
    const permalink = 'https://team.slack.example/archives/C1/p1234567890';
    const { details } = prefillTask(`${'word '.repeat(1000)}`, permalink);
    expect(Array.from(details).length).toBeLessThanOrEqual(2048);
    expect(details.endsWith(`…\n\n${permalink}`)).toBe(true);
  });

  it('names a task from an empty message', () => {
    expect(prefillTask('   ', 'https://p').heading).toBe('Task from a Slack message');
  });
});
