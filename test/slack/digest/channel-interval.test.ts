/**
 * The per-channel posting interval holds across every kind of post (issue 35 item 9): the process's
 * one posting limiter (src/limits.ts, through the Slack sender) counts a channel's next turn from
 * when its previous message went — its call over — whatever posted it: the scheduled digest, then
 * `/plan digest now`, through the app over signed requests and the fake Slack, sharing the app's
 * clients as the process's jobs do.
 */
import { afterEach, expect, it } from 'vitest';
import { createDigestScheduler, planningAccessFor } from '../../../src/digest/index.js';
import { createLogger } from '../../../src/logger.js';
import { BOT_TOKEN, eventually, Harness, TEAM } from '../../helpers/slack-harness.js';

const INTERVAL_MS = 3_000;
/** Slack taking this long to answer the digest's post: the message is there once answered. */
const SLOW_ANSWER_MS = 1_500;

/** Just after 09:00 UTC on the next Tuesday: the link's digest (09:00, UTC, weekdays) is due. */
function nextTuesdayNine(): Date {
  const day = new Date();
  day.setUTCHours(9, 0, 30, 0);
  do day.setUTCDate(day.getUTCDate() + 1);
  while (day.getUTCDay() !== 2);
  return day;
}

let h: Harness;
afterEach(() => h?.close());

it('a digest then `/plan digest now` in its channel: the second post goes at least the interval after the first went', async () => {
  h = await Harness.start({
    postLimits: true,
    env: { SLACK_CHANNEL_POST_INTERVAL_MS: String(INTERVAL_MS) },
  });
  await h.connect('U1', 'member');
  await h.link('C1', 'U1');
  // Slack is slow to take the scheduled digest's post (the first message in C1) in.
  const fake = h.slack.responder('chat.postMessage');
  let first = true;
  h.slack.on('chat.postMessage', async (body, context) => {
    if (first && body.channel === 'C1') {
      first = false;
      await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
    }
    return fake(body, context);
  });

  const scheduler = createDigestScheduler({
    store: h.store,
    logger: createLogger({ level: 'warn', destination: { write: () => {} } }),
    botTokenFor: async () => BOT_TOKEN,
    planningClientFor: planningAccessFor({ store: h.store, clients: h.clients }),
    slack: h.clients.slackBots,
  });
  const pass = scheduler.tick(nextTuesdayNine());
  await eventually(() => h.slack.called('chat.postMessage').length === 1, 'the digest sent');
  // The digest's message is on its way to Slack: someone asks for one now in the same channel.
  await h.command('digest now', 'U1', 'C1');
  expect(await pass).toMatchObject({ posted: 1, failed: 0 });
  const reply = await h.slack.waitFor('respond', (b) => JSON.stringify(b).includes('Posted'));
  expect(reply).toBeDefined();

  const posts = h.slack.called('chat.postMessage').filter((c) => c.body.channel === 'C1');
  expect(posts).toHaveLength(2);
  const [digest, now] = posts as [(typeof posts)[0], (typeof posts)[0]];
  expect(digest.status).toBe(200);
  expect(now.status).toBe(200);
  // What Slack saw: the second message arrived at least the interval after the first was in.
  expect(now.at - (digest.answeredAt as number)).toBeGreaterThanOrEqual(INTERVAL_MS);
  // Both are in the channel, and the day's digest is recorded as posted.
  const inC1 = h.slack.workspace
    .inChannel('C1')
    .filter((m) => m.user === h.slack.workspace.bot.userId && !m.ephemeralTo);
  expect(inC1).toHaveLength(2);
  const claims = await h.store.db
    .selectFrom('digest_claims')
    .selectAll()
    .where('workspace_id', '=', TEAM)
    .execute();
  expect(claims.some((c) => c.status === 'posted')).toBe(true);
}, 30_000);
