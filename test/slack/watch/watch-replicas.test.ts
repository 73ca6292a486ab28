/**
 * The watch's Slack side on two replicas sharing one PostgreSQL schema: the same link's turn applied
 * by both at once (a claim that expired under a slow pass, a replica dying mid-pass) posts each
 * activity message once and DMs each person once.
 */
import { expect, it } from 'vitest';
import { createClients } from '../../../src/clients.js';
import { createLogger } from '../../../src/logger.js';
import { featureCard } from '../../../src/slack/features/card.js';
import { readFeatureView } from '../../../src/slack/features/live.js';
import { postCard } from '../../../src/slack/kit/live-cards.js';
import { createWatchSlackSide } from '../../../src/slack/watch/index.js';
import type { Store } from '../../../src/store/index.js';
import { changesBetween, type FeatureDelta, seenOf } from '../../../src/watch/changes.js';
import { describeWithPostgres } from '../../helpers/postgres.js';
import { BOT_TOKEN, type Harness, onTwoReplicas, TEAM } from '../../helpers/slack-harness.js';

describeWithPostgres('the watch Slack side on two replicas (PostgreSQL)', () => {
  let a: Harness;
  let b: Harness;
  onTwoReplicas('watch_replicas', {}, (r) => ({ a, b } = r));

  it('one turn applied by both replicas at once, three times: one thread message, one DM', async () => {
    const logger = createLogger({ level: 'warn', destination: { write: () => undefined } });
    const { config } = a;
    const slack = createClients({ planningUrl: a.sandbox.url, slackApiUrl: a.slack.apiUrl, logger }).slack(
      BOT_TOKEN,
    );
    const sinkOf = (store: Store) =>
      createWatchSlackSide({ store, logger, config, slackFor: async () => slack });
    await a.connect('U3', 'owner');
    const link = await a.link();
    const owner = a.owner();
    const { teamId, channelId, featureId } = a.fixture;
    const coords = { teamId, channelId, featureId };
    await owner.assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    const view = await readFeatureView(
      { deps: { store: a.store, config } },
      { workspaceId: TEAM, planning: owner },
      coords,
    );
    const cardTs = await postCard(
      { store: a.store },
      slack,
      {
        workspaceId: TEAM,
        kind: 'feature',
        entityId: featureId,
        place: { orgId: a.sandbox.orgId, ...coords },
      },
      { channel: 'C1' },
      featureCard(view),
    );

    const listed = async () => {
      for await (const f of owner.features.list(teamId, channelId)) if (f.id === featureId) return seenOf(f);
      throw new Error('not listed');
    };
    const seenAt = Date.now();
    const before = await listed();
    await owner.features.advance(teamId, channelId, featureId);
    const after = await listed();
    const delta: FeatureDelta = { featureId, before, after, seenAt, changes: changesBetween(before, after) };
    const turn = { link, planning: owner, deltas: [delta], now: new Date() };

    const [sa, sb] = [sinkOf(a.store), sinkOf(b.store)];
    for (let i = 0; i < 3; i++) await Promise.all([sa.apply(turn), sb.apply(turn)]);

    const posts = a.slack.called('chat.postMessage');
    expect(posts.filter((c) => c.body.thread_ts === cardTs)).toHaveLength(1);
    expect(posts.filter((c) => c.body.channel === 'DU3')).toHaveLength(1);
    // Once the message and the DM are made, either replica finds the feature done.
    expect([...(await sb.apply(turn))]).toEqual([featureId]);
  });
});
