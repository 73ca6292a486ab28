/**
 * The watch as the app runs it (issue 24, "done when"): the app's own minute-tick jobs (`appJobs`:
 * the watch pass with the app's Slack side), the sandbox over real sockets changed directly through
 * its API as another tool would, and the fake Slack whose call log says what the app sent. The watch
 * runs with a one-second interval, so "within one interval" is a condition waited for, not a sleep.
 * On PostgreSQL, two replicas' jobs tick together and each activity line is posted once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appJobs, type Job } from '../../src/app/jobs.js';
import { createClients } from '../../src/clients.js';
import { planningAccessFor } from '../../src/digest/access.js';
import { createLogger } from '../../src/logger.js';
import type { PlanningClient } from '../../src/planning/index.js';
import { featureCard } from '../../src/slack/features/card.js';
import { readFeatureView } from '../../src/slack/features/live.js';
import { postCard } from '../../src/slack/kit/live-cards.js';
import type { Store } from '../../src/store/index.js';
import type { WatchReport } from '../../src/watch/index.js';
import { describeWithPostgres } from '../helpers/postgres.js';
import {
  BOT_TOKEN,
  eventually,
  Harness,
  onTwoReplicas,
  type SlackCall,
  TEAM,
} from '../helpers/slack-harness.js';

const INTERVAL_MS = 1_000;
const json = (v: unknown) => JSON.stringify(v);
const logger = createLogger({ level: 'warn', destination: { write: () => undefined } });

/** The app's watch job over `store` (each replica has its own store connection and owner). */
function watchJob(h: Harness, store: Store, owner: string): Job {
  const clients = createClients({ planningUrl: h.sandbox.url, slackApiUrl: h.slack.apiUrl, logger });
  const jobs = appJobs({
    store,
    clients,
    logger,
    config: h.config,
    botTokenFor: async (workspaceId) => (workspaceId === TEAM ? BOT_TOKEN : undefined),
    planningAccessFor: planningAccessFor({ store, clients }),
    watch: { intervalMs: INTERVAL_MS, owner },
  });
  const job = jobs.find((j) => j.name === 'watch');
  if (!job) throw new Error('the app runs no watch job');
  return job;
}

const tick = async (job: Job) => (await job.run(new Date())) as WatchReport;

/** Ticks until a pass has looked at the link again (its next due time is within the interval). */
async function nextLook(job: Job, what: string) {
  await eventually(async () => (await tick(job)).seen > 0, what, 10_000);
}

/** The fixture feature's card, posted in C1 as the app posts it and remembered with its place. */
async function postFeatureCard(h: Harness, owner: PlanningClient): Promise<string> {
  const { teamId, channelId, featureId } = h.fixture;
  const view = await readFeatureView(
    { deps: { store: h.store, config: h.config } },
    { workspaceId: TEAM, planning: owner },
    { teamId, channelId, featureId },
  );
  const slack = createClients({ planningUrl: h.sandbox.url, slackApiUrl: h.slack.apiUrl, logger }).slack(
    BOT_TOKEN,
  );
  return postCard(
    { store: h.store },
    slack,
    {
      workspaceId: TEAM,
      kind: 'feature',
      entityId: featureId,
      place: { orgId: h.sandbox.orgId, teamId, channelId, featureId },
    },
    { channel: 'C1' },
    featureCard(view),
  );
}

const threadPosts = (h: Harness, ts: string): SlackCall[] =>
  h.slack.called('chat.postMessage').filter((c) => c.body.thread_ts === ts);
const dmsTo = (h: Harness, slackUserId: string): SlackCall[] =>
  h.slack.called('chat.postMessage').filter((c) => c.body.channel === `D${slackUserId}`);

describe('the watch, as the app runs it', () => {
  let h: Harness;
  let owner: PlanningClient;
  let watch: Job;

  beforeEach(async () => {
    h = await Harness.start();
    owner = h.owner();
    await h.connect('U1', 'member');
    await h.connect('U3', 'owner');
    await h.link();
    const { teamId, channelId, featureId } = h.fixture;
    // The service advances a feature only once it has an assumption.
    await owner.assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    watch = watchJob(h, h.store, 'replica-a');
  });
  afterEach(() => h.close());

  it('a feature advanced in the service updates its card and posts one activity line within one interval, never again', async () => {
    const cardTs = await postFeatureCard(h, owner);
    // The link's first look: a silent baseline.
    expect((await tick(watch)).seen).toBe(1);
    expect(threadPosts(h, cardTs)).toHaveLength(0);

    const { teamId, channelId, featureId } = h.fixture;
    await owner.features.advance(teamId, channelId, featureId);
    await eventually(
      async () => {
        await tick(watch);
        return threadPosts(h, cardTs).length > 0;
      },
      'the activity line in the card thread',
      10_000,
    );

    const updates = h.slack.called('chat.update').filter((c) => c.body.ts === cardTs);
    expect(updates).toHaveLength(1);
    expect(json(updates[0]!.body.blocks)).toContain('Validation');
    expect(json(threadPosts(h, cardTs)[0]!.body)).toContain('Advanced to *Validation*');
    // The feature's author (the sandbox's owner) is connected as U3: told once.
    expect(dmsTo(h, 'U3')).toHaveLength(1);
    // And in the service, the feature is where the card says.
    expect((await owner.features.read(teamId, channelId, featureId)).stage).toBe('validation');

    // The next look finds nothing new: nothing posted again.
    await nextLook(watch, 'the next look');
    expect(threadPosts(h, cardTs)).toHaveLength(1);
    expect(dmsTo(h, 'U3')).toHaveLength(1);
  });

  it('a 429 on the card update is waited out (Retry-After) within the pass that found the change: the feature recorded as seen in that pass', async () => {
    const cardTs = await postFeatureCard(h, owner);
    expect((await tick(watch)).seen).toBe(1);
    const { teamId, channelId, featureId } = h.fixture;
    await owner.features.advance(teamId, channelId, featureId);
    h.slack.rateLimit('chat.update', 1);
    let found: WatchReport | undefined;
    await eventually(
      async () => {
        const report = await tick(watch);
        if (report.changed > 0) found = report;
        return found !== undefined;
      },
      'the pass that finds the change',
      10_000,
    );
    // That very pass waited Retry-After and updated the card: nothing failed, nothing left for later.
    expect(found).toMatchObject({ seen: 1, changed: 1, failed: 0 });
    const updates = h.slack.called('chat.update').filter((c) => c.body.ts === cardTs);
    expect(updates.map((c) => c.status)).toEqual([429, 200]);
    expect(threadPosts(h, cardTs)).toHaveLength(1);
    // In the store: the feature is recorded as seen at its new stage, the link without an error.
    const seen = await h.store.watch.features(TEAM, 'C1');
    expect(seen.get(featureId)?.seen).toMatchObject({ stage: 'validation' });
    const row = await h.store.db.selectFrom('watch_links').select(['error', 'owner']).executeTakeFirst();
    expect(row).toEqual({ error: null, owner: null });
  });

  it('a task assigned in the service DMs the assignee once, and nothing when they turned that DM off', async () => {
    const { teamId, channelId, featureId } = h.fixture;
    const first = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Write the copy' });
    const second = await owner.tasks.create(teamId, channelId, featureId, { heading: 'Draw the icon' });
    await tick(watch);

    await owner.tasks.assign(teamId, channelId, featureId, first.id, h.sandbox.memberId);
    await eventually(
      async () => {
        await tick(watch);
        return dmsTo(h, 'U1').length > 0;
      },
      'the assignee DMed',
      10_000,
    );
    expect(json(dmsTo(h, 'U1')[0]!.body)).toContain('Write the copy');
    await nextLook(watch, 'the next look');
    expect(dmsTo(h, 'U1')).toHaveLength(1);

    // U1 turns "A task is assigned to me" off (as Home saves it); the next assignment made elsewhere is silent.
    await h.store.notifications.savePrefs(TEAM, 'U1', { muted: ['assigned'], timeZone: 'UTC' });
    await owner.tasks.assign(teamId, channelId, featureId, second.id, h.sandbox.memberId);
    await nextLook(watch, 'a look after the second assignment');
    await nextLook(watch, 'one more look');
    expect(dmsTo(h, 'U1')).toHaveLength(1);
  });
});

describeWithPostgres('the watch on two replicas, as the app runs it (PostgreSQL)', () => {
  let a: Harness;
  let b: Harness;
  onTwoReplicas('watch_e2e', {}, (r) => ({ a, b } = r));

  it('both replicas ticking together post each activity line once', async () => {
    const owner = a.owner();
    // The link's maker (U1) reads for the watch, as for the digest.
    await a.connect('U1', 'member');
    await a.connect('U3', 'owner');
    await a.link();
    const { teamId, channelId, featureId } = a.fixture;
    await owner.assumptions.create(teamId, channelId, featureId, { heading: 'People want it' });
    const cardTs = await postFeatureCard(a, owner);
    const jobA = watchJob(a, a.store, 'replica-a');
    const jobB = watchJob(a, b.store, 'replica-b');
    const both = () => Promise.all([tick(jobA), tick(jobB)]);
    const [baseA, baseB] = await both();
    expect(baseA.seen + baseB.seen).toBe(1);

    await owner.features.advance(teamId, channelId, featureId);
    await eventually(
      async () => {
        await both();
        return threadPosts(a, cardTs).length > 0;
      },
      'the activity line',
      10_000,
    );
    for (let look = 0; look < 2; look += 1) {
      await eventually(
        async () => {
          const [x, y] = await both();
          return x.seen + y.seen > 0;
        },
        'another look by either replica',
        10_000,
      );
    }
    expect(threadPosts(a, cardTs)).toHaveLength(1);
    expect(dmsTo(a, 'U3')).toHaveLength(1);
  });
});
