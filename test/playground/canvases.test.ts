/**
 * The fake Slack's canvases (issue 37 item 6), called with Slack's own WebClient as the app calls
 * them: a channel's own canvas (one per channel), a canvas tabbed in a channel, edits of one
 * operation each, sections found by type and text, deletion — and Slack's refusals.
 */
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canvasToHtml } from '../../src/playground/canvas.js';
import { type FakeSlack, startFakeSlack } from '../../src/playground/fake-slack.js';
import { Workspace } from '../../src/playground/workspace.js';

const TOKEN = 'xoxb-canvas-test';

let fake: FakeSlack;
let slack: WebClient;

beforeEach(async () => {
  fake = await startFakeSlack({ workspace: new Workspace(), tokens: [TOKEN] });
  fake.workspace.addChannel({ id: 'C1', name: 'general', members: [] });
  fake.workspace.addUser({ id: 'U0ADA', name: 'ada', realName: 'Ada Lovelace' });
  slack = new WebClient(TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
});
afterEach(() => fake.close());

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return String((error as { data?: { error?: string } }).data?.error);
  }
  throw new Error('expected Slack to refuse the call');
}

const md = (markdown: string) => ({ type: 'markdown' as const, markdown });

describe('fake Slack canvases', () => {
  it('one channel canvas per channel, edited one operation at a time, its sections found and replaced', async () => {
    const { canvas_id } = await slack.conversations.canvases.create({
      channel_id: 'C1',
      title: 'Plan',
      document_content: md('# Plan\nintro\n### One\nref a\n### Two\nref b'),
    });
    expect(await refusal(slack.conversations.canvases.create({ channel_id: 'C1' }))).toBe(
      'channel_canvas_already_exists',
    );
    expect(await refusal(slack.conversations.canvases.create({ channel_id: 'C404' }))).toBe(
      'channel_not_found',
    );
    const found = await slack.canvases.sections.lookup({
      canvas_id: canvas_id!,
      criteria: { section_types: ['h3'], contains_text: 'ref b' },
    });
    expect(found.sections).toHaveLength(1);
    await slack.canvases.edit({
      canvas_id: canvas_id!,
      changes: [
        {
          operation: 'replace',
          section_id: found.sections![0]!.id!,
          document_content: md('### Two\nref b, done'),
        },
      ],
    });
    const canvas = fake.workspace.canvasOf('C1')!;
    expect(fake.workspace.canvasMarkdown(canvas)).toBe('# Plan\nintro\n### One\nref a\n### Two\nref b, done');
    expect(
      await refusal(
        slack.canvases.edit({
          canvas_id: canvas_id!,
          changes: [
            { operation: 'insert_at_end', document_content: md('x') },
            { operation: 'insert_at_end', document_content: md('y') },
          ],
        }),
      ),
    ).toBe('invalid_arguments');
    expect(
      await refusal(slack.canvases.sections.lookup({ canvas_id: canvas_id!, criteria: {} as never })),
    ).toBe('invalid_arguments');
    await slack.canvases.delete({ canvas_id: canvas_id! });
    expect(
      await refusal(
        slack.canvases.edit({
          canvas_id: canvas_id!,
          changes: [{ operation: 'insert_at_end', document_content: md('z') }],
        }),
      ),
    ).toBe('canvas_not_found');
  });

  it('a free workspace: no channel canvas, one canvas tab per channel; a refusal set answers every call', async () => {
    fake.workspace.freeTier = true;
    expect(await refusal(slack.conversations.canvases.create({ channel_id: 'C1' }))).toBe(
      'team_tier_cannot_create_channel_canvases',
    );
    await slack.canvases.create({ channel_id: 'C1', title: 'Plan', document_content: md('# Plan') });
    expect(fake.workspace.canvasOf('C1')).toMatchObject({ kind: 'tab', title: 'Plan' });
    expect(await refusal(slack.canvases.create({ channel_id: 'C1' }))).toBe(
      'free_team_canvas_tab_already_exists',
    );
    fake.workspace.canvasRefusal = 'canvas_disabled_user_team';
    expect(await refusal(slack.canvases.create({ channel_id: 'C1' }))).toBe('canvas_disabled_user_team');
  });

  it('the Canvas tab renders headings, checklists, mentions and links, and shows escaped markup as text', () => {
    const html = canvasToHtml(
      '# Plan\n### A \\<b\\> \\# x\n- [x] done (![](@U0ADA))\n- [ ] open [Card](https://x.example/p1)',
      fake.workspace,
    );
    expect(html).toContain('<h1>Plan</h1>');
    expect(html).toContain('<h3>A &lt;b&gt; # x</h3>');
    expect(html).toContain(
      '<input type="checkbox" disabled checked> done (<span class="mention">@Ada Lovelace</span>)',
    );
    expect(html).toContain('<a href="https://x.example/p1" target="_blank" rel="noopener">Card</a>');
  });
});
