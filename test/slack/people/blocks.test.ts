/** The people topic's pure parts: closest notions, the ranking and its pages, the profile within limits. */
import { describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/kit/ids.js';
import { PEOPLE_ACTION } from '../../../src/slack/people/ids.js';
import {
  closestNotions,
  KNOWS_PAGE_SIZE,
  KnowsPage,
  knowsMessage,
  type Ranked,
  rank,
} from '../../../src/slack/people/knows.js';
import { parseWho } from '../../../src/slack/people/who.js';

const json = (v: unknown) => JSON.stringify(v);
const notions = ['TypeScript', 'JavaScript', 'Rust', 'Go', 'Kubernetes'].map((value, i) => ({
  id: `n${i}`,
  value,
}));

describe('closest notions', () => {
  it('offers what contains the name first, then the nearest by spelling', () => {
    expect(closestNotions('typscript', notions, 2).map((n) => n.value)).toEqual(['TypeScript', 'JavaScript']);
    expect(closestNotions('script', notions, 2).map((n) => n.value)).toEqual(['JavaScript', 'TypeScript']);
    expect(closestNotions('x', [], 5)).toEqual([]);
  });
});

describe('who knows', () => {
  const person = (name: string, figures: Ranked['figures'], slackUserId?: string): Ranked => ({
    planningUserId: `p-${name}`,
    name,
    figures,
    ...(slackUserId ? { slackUserId } : {}),
  });

  it("ranks by peers' average, then how many peers, then the self grade", () => {
    const ranked = rank([
      person('self only', { self: 10, peerCount: 0 }),
      person('two peers', { peerAverage: 7, peerCount: 2 }),
      person('one peer', { peerAverage: 7, peerCount: 1 }),
      person('best', { peerAverage: 9, peerCount: 1, self: 2 }),
    ]);
    expect(ranked.map((r) => r.name)).toEqual(['best', 'two peers', 'one peer', 'self only']);
  });

  it('pages a big team within Slack limits, with a profile button each and More', () => {
    const people = Array.from({ length: 100 }, (_, i) =>
      person(`p${i}`, { peerAverage: (i % 10) + 1, peerCount: 1 }, `U${i}`),
    );
    const first = knowsMessage({ id: 'n0', value: 'TypeScript' }, people, 1, 3);
    expect(first.blocks.length).toBeLessThanOrEqual(50);
    const profiles = first.blocks.filter((b) => json(b).includes(ACTION.profileOpen));
    expect(profiles).toHaveLength(KNOWS_PAGE_SIZE);
    expect(json(first.blocks)).toContain('3 more members of the team were not read');
    const more = first.blocks
      .flatMap((b) => ('elements' in b ? (b.elements as { action_id?: string; value?: string }[]) : []))
      .find((e) => e.action_id === PEOPLE_ACTION.knows);
    expect(KnowsPage.parse(JSON.parse(more!.value!))).toEqual({ notionId: 'n0', page: 2 });
    const last = knowsMessage({ id: 'n0', value: 'TypeScript' }, people, 10, 0);
    expect(json(last.blocks)).not.toContain(PEOPLE_ACTION.knows);
  });
});

describe('parseWho', () => {
  it('reads a mention or knows and a notion; anything else is not read', () => {
    expect(parseWho('<@U123|ada>')).toEqual({ kind: 'person', slackUserId: 'U123' });
    expect(parseWho('knows  Type Script ')).toEqual({ kind: 'knows', notion: 'Type Script' });
    expect(parseWho('knows \u200b')).toBeUndefined();
    expect(parseWho('ada')).toBeUndefined();
    expect(parseWho('<@U1> <@U2>')).toBeUndefined();
  });
});
