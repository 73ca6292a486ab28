/** The digest's Advance button: the feature advanced as the person who pressed it, told only to them. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Harness } from '../../helpers/slack-harness.js';

describe('the digest’s Advance button', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await Harness.start();
    await h.connect('U1', 'member');
  });
  afterEach(() => h.close());

  /** Advance pressed on a digest line whose message Slack does not name. */
  const pressAdvance = (featureId: string, stage?: string) =>
    h.press({}, 'digest_feature_advance', {
      blockId: 'digest_can_advance_0',
      value: JSON.stringify({ teamId: h.fixture.teamId, channelId: h.fixture.channelId, featureId, stage }),
    });

  it('advances the feature as the user and tells only them; a refusal is explained', async () => {
    await pressAdvance(h.fixture.featureId, 'planning');
    const refused = await h.slack.waitFor('respond');
    expect(JSON.stringify(refused.body)).toContain('You must add at least 1 Assumption');
    const { teamId, channelId, featureId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    await pressAdvance(featureId, 'planning');
    const done = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('is now in'));
    expect(done.body).toMatchObject({ response_type: 'ephemeral' });
    expect((await h.owner().features.read(teamId, channelId, featureId)).stage).toBe('validation');
  });

  it('a button from a digest posted before it carried its stage is refused: it could advance twice', async () => {
    const { teamId, channelId, featureId } = h.fixture;
    await h.owner().assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    await pressAdvance(featureId);
    await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('out of date'));
    expect((await h.owner().features.read(teamId, channelId, featureId)).stage).toBe('planning');
  });
});
