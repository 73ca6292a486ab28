import { describe, expect, it } from 'vitest';
import { helpMessage } from '../../../src/slack/kit/help.js';
import { ACTION } from '../../../src/slack/kit/ids.js';
import { notConnectedMessage } from '../../../src/slack/kit/messages.js';

const json = (value: unknown) => JSON.stringify(value);

describe('messages', () => {
  it('offers a Connect button when not connected, Reconnect when the token died', () => {
    expect(json(notConnectedMessage('missing').blocks)).toContain(`"action_id":"${ACTION.connectOpen}"`);
    expect(json(notConnectedMessage('invalid').blocks)).toContain('Reconnect');
  });

  it('answers an unknown subcommand with the help, escaping what was typed', () => {
    const help = helpMessage([{ usage: 'help', summary: 'this help', adminOnly: false }], 'foo<!channel>');
    expect(help.text).toContain("I don't know `/plan foo&lt;!channel&gt;`");
    expect(json(help.blocks)).toContain('`/plan help` — this help');
  });
});
