/**
 * Guests are refused up front (issue 23 item 8): before any modal opens, any list is read or
 * anything is posted, with the sentence provisioning gives them everywhere else — the route's
 * declared gate (src/slack/kit/access.ts), not a check inside the handler. Over signed HTTP.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GRADE_SHORTCUT } from '../../../src/slack/grades/ids.js';
import { eventually, Harness } from '../../helpers/slack-harness.js';

const json = (v: unknown) => JSON.stringify(v);
/** The one sentence a guest is told, wherever they are refused. */
const SENTENCE = 'Only full members of this workspace get a planning account';

let h: Harness;
beforeEach(async () => {
  h = await Harness.start({ provisioning: true });
  h.slack.users.set('U1', { id: 'U1', name: 'boss', isAdmin: true });
  h.slack.users.set('UGUEST', { id: 'UGUEST', name: 'gus', guest: 'multi-channel' });
  await h.connect('U1', 'owner');
  await h.link('C1', 'U1');
  h.slack.channel('C1', 'UGUEST');
});
afterEach(() => h.close());

describe('a guest', () => {
  it('pressing Grade a peer is told why at once; no form opens, no notion is read', async () => {
    const since = h.slack.calls.length;
    await h.shortcut(GRADE_SHORTCUT.gradePeer, { user: 'UGUEST' });
    await eventually(
      () => h.slack.calls.slice(since).some((c) => json(c.body).includes(SENTENCE)),
      'the refusal',
    );
    const after = h.slack.calls.slice(since);
    expect(after.map((c) => c.method)).not.toContain('views.open');
    const told = after.find((c) => json(c.body).includes(SENTENCE))!;
    expect(json(told.body)).toContain('a guest in this workspace');
    expect(h.sandbox.requests.count('serviceAccounts.create')).toBe(0);
  });

  it('`/plan digest now` is refused with the same sentence; nothing is posted in the channel', async () => {
    const since = h.slack.calls.length;
    await h.command('digest now', 'UGUEST', 'C1');
    const said = await h.slack.waitFor('respond', undefined, { since });
    expect(json(said.body)).toContain(SENTENCE);
    expect(json(said.body)).toContain('a guest in this workspace');
    expect(h.slack.calls.slice(since).map((c) => c.method)).not.toContain('chat.postMessage');
  });

  it('a full member may post a digest now (the decision the README states)', async () => {
    h.slack.users.set('U2', { id: 'U2', name: 'member' });
    h.slack.channel('C1', 'U2');
    const since = h.slack.calls.length;
    await h.command('digest now', 'U2', 'C1');
    await h.slack.waitFor('chat.postMessage', (b) => b.channel === 'C1', { since });
  });
});
