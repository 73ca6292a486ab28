/**
 * Ids the app does not know, through signed requests: a Workflow Builder step it no longer has (a
 * step removed or renamed while workflows still use it), another slash command, an event it does
 * not follow, a retired shortcut, button, form or select. Each is acked at once — a 200, never the
 * 404 Bolt answered after its 3 s wait — and logged on one line; a step's run is failed with a
 * sentence saying the step no longer exists, through the Slack sender; nothing reaches the service.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STEP_GONE } from '../../../src/slack/bolt/router.js';
import { Harness, TEAM } from '../../helpers/slack-harness.js';

/** A condition wait, long enough for a busy machine. */
const WAIT = { timeout: 10_000 };

describe('ids the app does not know are acked at once and logged once', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
  });
  afterAll(() => h.close());

  let before: number;
  let serviceBefore: number;
  let respondedBefore: number;
  beforeEach(() => {
    before = h.logs.length;
    respondedBefore = h.slack.called('respond').length;
    serviceBefore = h.sandbox.requests.count();
  });

  /** The lines since the test began that say an unknown id was acked. */
  const unboundLines = () =>
    h.logs.slice(before).filter((l) => l.includes('Acknowledged without handling: no route binds'));

  it('a step the app no longer has: acked, its run failed with a sentence, one line', async () => {
    const res = await h.stepExecuted('retired_step', { act_as: 'U1' }, 'Fx-retired-1');
    expect(res.status).toBe(200);
    const failed = await h.slack.waitFor('functions.completeError');
    expect(failed.body.function_execution_id).toBe('Fx-retired-1');
    expect(failed.body.error).toBe(STEP_GONE.text);
    expect(String(failed.body.error)).toContain('no longer exists');
    // With the execution's own token, as every call of a step's run.
    expect(failed.token).toBe('xwfp-Fx-retired-1');
    expect(h.slack.called('functions.completeSuccess')).toHaveLength(0);
    await expect
      .poll(() => unboundLines(), WAIT)
      .toEqual([expect.stringContaining('workflow step \\"retired_step\\"')]);
    expect(h.sandbox.requests.count()).toBe(serviceBefore);
  });

  it('another slash command: a 200 with nothing said, one line', async () => {
    const res = await h.command('help', 'U1', 'C1', TEAM, { command: '/other' });
    expect(res.status).toBe(200);
    await expect
      .poll(() => unboundLines(), WAIT)
      .toEqual([expect.stringContaining('slash command \\"/other\\"')]);
    expect(h.slack.called('respond')).toHaveLength(respondedBefore);
    expect(h.sandbox.requests.count()).toBe(serviceBefore);
  });

  it('an event the app does not follow: a 200, one line', async () => {
    const res = await h.event({ type: 'reaction_added', user: 'U1', reaction: 'eyes', item: {} });
    expect(res.status).toBe(200);
    await expect
      .poll(() => unboundLines(), WAIT)
      .toEqual([expect.stringContaining('event \\"reaction_added\\"')]);
    expect(h.sandbox.requests.count()).toBe(serviceBefore);
  });

  it.each([
    ['global shortcut', { type: 'shortcut', callback_id: 'retired_shortcut', action_ts: '1' }],
    [
      'action',
      {
        type: 'block_actions',
        actions: [{ action_id: 'retired_button', block_id: 'b', type: 'button', value: 'v' }],
        container: { type: 'message', channel_id: 'C1', message_ts: '1700000000.000100' },
        channel: { id: 'C1' },
        message: { ts: '1700000000.000100', text: 'old card' },
      },
    ],
    [
      'form',
      {
        type: 'view_submission',
        view: {
          id: 'V0RETIRED',
          hash: 'h',
          type: 'modal',
          team_id: TEAM,
          callback_id: 'retired_form',
          private_metadata: '',
          blocks: [],
          state: { values: {} },
        },
      },
    ],
    ['options source', { type: 'block_suggestion', action_id: 'retired_select', block_id: 'b', value: 'x' }],
  ])('a retired %s: a 200 at once, one line', async (kind, payload) => {
    const res = await h.interact(payload);
    expect(res.status).toBe(200);
    await expect
      .poll(() => unboundLines(), WAIT)
      .toEqual([expect.stringContaining(`the ${kind} \\"retired_`)]);
    expect(h.sandbox.requests.count()).toBe(serviceBefore);
  });
});
