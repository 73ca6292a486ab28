/**
 * `npm run bench:home`: how soon a person sees their Home tab. Signed `app_home_opened` events are
 * POSTed over loopback to the real app (createSlackApp in HTTP mode, SQLite store in a temp folder,
 * every Slack user connected beforehand to the sandbox's member account, one linked channel with a
 * feature and tasks), `--concurrency` at a time, while the sandbox adds `--latency` ms (default 200)
 * to every response. The playground's fake Slack (the tests' one) answers the Web API on loopback,
 * and notes when each user's `views.publish` calls arrive: the first one (what is cached, or the
 * skeleton) and the second (filled). Each event
 * is for a user who has not opened the tab in this run, so the first publish never comes from the
 * cache — the worst case. Prints p50/p90/p99/max of both, node, CPUs and load average.
 *
 * Options: --requests 200 --concurrency 10 --latency 200 (ms).
 * Exits non-zero when the run is broken (an event not acked 200, a tab never filled).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { createClients } from '../src/clients.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { closePlanningPools, createPlanningClient } from '../src/planning/index.js';
import { FakeSlack } from '../src/playground/fake-slack.js';
import { Workspace } from '../src/playground/workspace.js';
import { startSandbox } from '../src/sandbox/index.js';
import { createSlackApp } from '../src/slack/app.js';
import { PATHS } from '../src/slack/bolt/manifest.js';
import { createKeyring, openStore } from '../src/store/index.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '10' },
    latency: { type: 'string', default: '200' },
  },
});
const REQUESTS = Number(args.requests);
const CONCURRENCY = Number(args.concurrency);
const LATENCY = Number(args.latency);
const SECRET = 'bench-signing-secret';
const TEAM = 'T0BENCH';

const BOT_TOKEN = 'xoxb-bench';
const users = Array.from({ length: REQUESTS }, (_, i) => `U${String(i).padStart(6, '0')}`);

/** Arrival times of views.publish, per Slack user. */
const publishes = new Map<string, number[]>();

const workspace = new Workspace({ team: { id: TEAM, name: 'Bench', domain: 'bench' }, tz: 'Europe/Paris' });
for (const id of users) workspace.addUser({ id, name: 'u' });
const slack = new FakeSlack({ workspace, tokens: [BOT_TOKEN], record: false });
slack.on('views.publish', (body) => {
  const user = String(body.user_id);
  publishes.set(user, [...(publishes.get(user) ?? []), performance.now()]);
  return undefined; // noted; the fake answers as Slack does
});
// The chart is left out, as when files:write is missing.
slack.on('files.getUploadURLExternal', () => ({ ok: false, error: 'missing_scope', needed: 'files:write' }));
await slack.listen();
const slackApiUrl = slack.apiUrl;

const sandbox = await startSandbox({ seed: 'minimal' });
const owner = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken });
const team = await owner.teams.create({ teamName: 'Bench team' });
const channel = team.channels[0]!;
for (let f = 0; f < 5; f += 1) {
  const feature = await owner.features.create(team.id, channel.id, { heading: `Feature ${f}` });
  for (let t = 0; t < 4; t += 1) {
    const task = await owner.tasks.create(team.id, channel.id, feature.id, { heading: `Task ${f}.${t}` });
    await owner.tasks.assign(team.id, channel.id, feature.id, task.id, sandbox.memberId);
  }
}
sandbox.setLatency(LATENCY);

const dir = mkdtempSync(join(tmpdir(), 'bench-home-'));
const key = randomBytes(32).toString('base64');
const store = await openStore({
  sqliteFile: join(dir, 'store.sqlite'),
  keyring: createKeyring({ current: key }),
});
for (const slackUserId of users) {
  await store.identities.save({
    workspaceId: TEAM,
    slackUserId,
    serviceAccountId: sandbox.memberId,
    planningUserId: sandbox.memberId,
    orgId: sandbox.orgId,
    token: sandbox.memberToken,
    origin: 'brought',
  });
}
await store.links.upsert({
  workspaceId: TEAM,
  slackChannelId: 'C0BENCH',
  teamId: team.id,
  channelId: channel.id,
  createdBy: users[0]!,
});
const logger = createLogger({ level: 'error' });
const config = loadConfig({
  NODE_ENV: 'test',
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_BOT_TOKEN: BOT_TOKEN,
  SLACK_API_URL: slackApiUrl,
  PLANNING_API_URL: sandbox.url,
  ENCRYPTION_KEY: key,
  PORT: '0',
  LOG_LEVEL: 'error',
});
const app = createSlackApp({
  config,
  store,
  logger,
  clients: createClients({ planningUrl: sandbox.url, slackApiUrl, logger, planningOptions: { retries: 0 } }),
});
const { port } = await app.start();

const sent = new Map<string, number>();
let broken = 0;
async function open(user: string) {
  const body = JSON.stringify({
    token: 'legacy',
    team_id: TEAM,
    api_app_id: 'A0BENCH',
    type: 'event_callback',
    event_id: `Ev${randomBytes(6).toString('hex')}`,
    event_time: Math.floor(Date.now() / 1000),
    event: { type: 'app_home_opened', user, channel: `D${user}`, tab: 'home' },
  });
  const ts = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
  sent.set(user, performance.now());
  const res = await request(`http://127.0.0.1:${port}${PATHS.events}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': signature,
    },
    body,
  });
  await res.body.dump();
  if (res.statusCode !== 200) broken += 1;
}

const queue = [...users];
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    for (let user = queue.shift(); user; user = queue.shift()) {
      await open(user);
      // The next event of this lane waits for this tab to fill, as a person would.
      const until = Date.now() + 30_000;
      while ((publishes.get(user)?.length ?? 0) < 2 && Date.now() < until) await sleep(5);
    }
  }),
);

const first: number[] = [];
const filled: number[] = [];
for (const user of users) {
  const [a, b] = publishes.get(user) ?? [];
  const start = sent.get(user) ?? 0;
  if (a === undefined || b === undefined) {
    broken += 1;
    continue;
  }
  first.push(a - start);
  filled.push(b - start);
}
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
};
const row = (name: string, v: number[]) =>
  `| ${name} | ${[50, 90, 99, 100].map((p) => pct(v, p).toFixed(1)).join(' | ')} |`;
console.log(`\n${REQUESTS} Home tab openings, ${CONCURRENCY} at a time, service latency ${LATENCY} ms\n`);
console.log('| publish | p50 ms | p90 ms | p99 ms | max ms |\n|---|---|---|---|---|');
console.log(row('first (skeleton)', first));
console.log(row('filled', filled));
console.log(
  `\nnode ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
if (broken > 0) console.log(`BROKEN: ${broken} openings not acked or never filled`);

await app.stop();
await store.close();
await sandbox.close();
await closePlanningPools();
await slack.close();
rmSync(dir, { recursive: true, force: true });
process.exit(broken > 0 ? 1 : 0);
