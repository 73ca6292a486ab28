/** Peers you could grade, as read from the linked channels' features: who, from which tasks. Pure. */
import { describe, expect, it } from 'vitest';
import { doneByPeers, peerOffers } from '../../../src/slack/assistant/peers.js';
import type { Planning } from '../../../src/slack/home/index.js';

const DAY = 86_400_000;
const now = Date.parse('2026-11-29T12:00:00Z');
const feature = (id: string, daysAgo: number) => ({
  id,
  heading: `Feature ${id}`,
  stage: 'planning' as const,
  canAdvance: false,
  mine: false,
  slackChannelId: 'C1',
  teamId: 't',
  channelId: 'c',
  updatedAt: new Date(now - daysAgo * DAY).toISOString(),
});
const planning: Planning = {
  tasks: [],
  unreadChannels: [],
  features: [feature('fresh', 1), feature('older', 3), feature('stale', 9)],
  named: {
    features: {},
    tasks: {
      a: {
        heading: 'Parser',
        featureId: 'older',
        assigneeUserId: 'p2',
        state: 'done',
        notionIds: ['n1', 'n2'],
      },
      b: { heading: 'Lexer', featureId: 'fresh', assigneeUserId: 'p2', state: 'done', notionIds: ['n1'] },
      c: { heading: 'Old work', featureId: 'stale', assigneeUserId: 'p3', state: 'done', notionIds: ['n1'] },
      d: { heading: 'Going on', featureId: 'fresh', assigneeUserId: 'p3', state: 'in review', notionIds: [] },
      e: { heading: 'Mine', featureId: 'fresh', assigneeUserId: 'me', state: 'done', notionIds: [] },
      f: { heading: 'Unassigned', featureId: 'fresh', state: 'done', notionIds: [] },
      g: { heading: 'Notionless', featureId: 'fresh', assigneeUserId: 'p4', state: 'done', notionIds: [] },
    },
  },
};

describe('peers you could grade', () => {
  it("takes teammates' done tasks on features changed since the window, newest first — never mine, never an open one", () => {
    const done = doneByPeers(planning, new Set(['me']), now - 7 * DAY);
    expect(done.map((d) => d.taskHeading)).toEqual(['Lexer', 'Notionless', 'Parser']);
  });

  it('offers each Slack person and notion once; a teammate nobody here acts as is left out', () => {
    const done = doneByPeers(planning, new Set(['me']), now - 7 * DAY);
    const offers = peerOffers(done, new Map([['p2', 'U2']]));
    expect(offers.map((o) => [o.slackUserId, o.notionId, o.done.taskHeading])).toEqual([
      ['U2', 'n1', 'Lexer'],
      ['U2', 'n2', 'Parser'],
    ]);
    expect(peerOffers(done, new Map([['p4', 'U4']])).map((o) => o.notionId)).toEqual([undefined]);
  });
});
