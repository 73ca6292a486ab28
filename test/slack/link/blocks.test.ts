import { describe, expect, it } from 'vitest';
import { md } from '../../../src/blockkit/index.js';
import { FIELD } from '../../../src/slack/kit/ids.js';
import { linkModal } from '../../../src/slack/link/blocks.js';

const json = (value: unknown) => JSON.stringify(value);

describe('link modal', () => {
  const base = {
    slackChannelId: 'C1',
    digestTime: '09:00',
    timeZone: 'Europe/Paris',
    weekdaysOnly: true,
    digestEnabled: true,
    watchEnabled: true,
    threadDiscoveries: false,
  };

  it('caps the team select at 100 options', () => {
    const teams = Array.from({ length: 140 }, (_, i) => ({ id: `t${i}`, teamName: `Team ${i}` }));
    const view = linkModal({ ...base, teams });
    const team = view.blocks.find((b) => b.block_id === FIELD.team.block) as unknown as {
      element: { options: unknown[] };
      dispatch_action: boolean;
    };
    expect(team.element.options).toHaveLength(100);
    expect(team.dispatch_action).toBe(true);
  });

  it('prefills time and zone, and warns when there is no team', () => {
    const view = linkModal({ ...base, teams: [] });
    const text = json(view.blocks);
    expect(text).toContain('"initial_time":"09:00"');
    expect(text).toContain('"value":"Europe/Paris"');
    expect(text).toContain('no team yet');
  });

  it('does not say "no team yet" of a form sent back with a team it did not offer (another organization’s)', () => {
    const text = json(linkModal({ ...base, teams: [], teamId: 'foreign', problem: md`Not yours.` }).blocks);
    expect(text).not.toContain('no team yet');
    expect(text).toContain('Not yours.');
  });
});
