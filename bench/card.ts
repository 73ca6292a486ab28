/**
 * `npm run bench:card`: a task card's state button under load, with the planning service slow.
 * Signed button presses (block_actions, "Start" then "Back to idle" on alternate rounds) are POSTed
 * over loopback with undici, 50 in flight, to
 *
 * - **app**: the real app (bench/lib/ack-target.ts, as bench:ack starts it) whose users are all
 *   connected beforehand, and whose store remembers one posted card per task, so each press acks,
 *   reads the task, changes its state, reads it again and updates its card with chat.update;
 * - **bare**: a bare Bolt `App` whose button handler only acks;
 * - **floor**: that bare app making, after its ack, the HTTP exchanges a press makes (the task and its
 *   feature read, the state change, one `chat.update`) over undici with `JSON.parse` only — what a
 *   press costs at best, without a store, validation or a Web API client.
 *
 * Measured: the time to each ack (Slack wants one within 3 s), and — for the app — how long after the
 * service's last answer for that task the card's chat.update reached Slack. The service is the
 * sandbox with 2,000 ms added to every response, behind a loopback proxy in this process that notes
 * when each answer left (each task has its own feature, so every call of a press is attributed to it).
 *
 * Options: --requests 200 (presses per round, one per task) --concurrency 50 --latency 2000 (ms)
 * --rounds 4 --warmup 1 --cpu-prof DIR (a V8 CPU profile of the app process, written when it exits;
 * summarise it with bench/lib/profile-top.ts). Exits non-zero when the run is broken (an ack that is not HTTP 200, a press
 * whose state change or card update did not happen), never for a missed target.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { closePlanningPools, createPlanningClient } from '../src/planning/index.js';
import { startSandbox } from '../src/sandbox/index.js';
import { PATHS } from '../src/slack/bolt/manifest.js';
import { TASK_ACTION } from '../src/slack/tasks/ids.js';
import { createKeyring, openStore } from '../src/store/index.js';
import type { TargetOptions } from './lib/ack-target.js';
import { startTarget, type Target } from './lib/ack-target-process.js';
import { load, ms, percentile, reportBroken, runCleanups, sortNumbers, waitUntil } from './lib/bench-kit.js';
import { startBenchSlack } from './lib/bench-slack.js';
import { sign } from './lib/slack-command.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '50' },
    latency: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '1' },
    /** Folder for a V8 CPU profile of the app process (node --cpu-prof), written when it exits. */
    'cpu-prof': { type: 'string' },
  },
});
function integer(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return n;
}
const REQUESTS = integer('requests', args.requests, 1);
const CONCURRENCY = integer('concurrency', args.concurrency, 1);
const LATENCY = integer('latency', args.latency, 0);
const ROUNDS = integer('rounds', args.rounds, 1);
const WARMUP = integer('warmup', args.warmup, 0);

type Kind = TargetOptions['kind'];
const SIGNING_SECRET = 'bench-signing-secret';
const BOT_TOKEN = 'xoxb-bench-bot-token';
const TEAM = 'T0BENCH';
const CHANNEL = 'C0BENCH';
const USERS = Array.from({ length: CONCURRENCY }, (_, i) => `U${String(i).padStart(6, '0')}`);
/** The app's ack p99 as a multiple of bare Bolt's, and its CPU per press as a multiple of bare's. */
const TARGET_ACK_RATIO = 1.5;
const TARGET_CPU_RATIO = 3;
const TARGET_UPDATE_P99_MS = 300;
/** A press makes three rounds of service calls (read, update, read again): allow for them and a slow machine. */
const SETTLE_MS = 3 * LATENCY + 60_000;

interface Task {
  teamId: string;
  channelId: string;
  featureId: string;
  taskId: string;
  /** Its card's ts in CHANNEL. */
  cardTs: string;
}

/**
 * A loopback proxy in front of the sandbox that notes, per feature id in the path, when each answer
 * left for the app (performance.now(), the clock of the fake Slack too).
 */
async function startServiceProxy(serviceUrl: string) {
  const base = new URL(serviceUrl);
  const upstream = new Pool(base.origin, { connections: 256 });
  const answered = new Map<string, number[]>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>;
      const up = await upstream.request({
        path: req.url ?? '/',
        method: req.method as 'GET',
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await up.body.arrayBuffer());
      res.writeHead(up.statusCode, {
        'content-type': String(up.headers['content-type'] ?? 'application/json'),
      });
      res.end(body, () => {
        const feature = /\/features\/([^/?]+)/.exec(req.url ?? '')?.[1];
        if (feature) {
          const list = answered.get(feature) ?? [];
          list.push(performance.now());
          answered.set(feature, list);
        }
      });
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    // The same base path as the service's: only the origin changes.
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${base.pathname.replace(/\/+$/, '')}`,
    answered,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await upstream.close();
    },
  };
}

/** A press on a card's state button, as Slack posts it. */
function pressBody(user: string, task: Task, from: string, to: string, responseUrl: string) {
  const value = JSON.stringify({
    teamId: task.teamId,
    channelId: task.channelId,
    featureId: task.featureId,
    taskId: task.taskId,
    s: from,
    a: '',
    to,
  });
  const payload = {
    type: 'block_actions',
    api_app_id: 'A0BENCH',
    token: 'legacy',
    is_enterprise_install: false,
    team: { id: TEAM, domain: 'bench' },
    user: { id: user, name: `user-${user.toLowerCase()}`, team_id: TEAM },
    trigger_id: `trigger-${randomBytes(4).toString('hex')}`,
    response_url: responseUrl,
    container: { type: 'message', message_ts: task.cardTs, channel_id: CHANNEL },
    channel: { id: CHANNEL, name: 'general' },
    message: { ts: task.cardTs, type: 'message' },
    actions: [
      {
        type: 'button',
        action_id: to === 'idle' ? TASK_ACTION.stateBack : TASK_ACTION.stateForward,
        block_id: 'b',
        value,
        action_ts: '1',
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

interface Round {
  kind: Kind;
  label: string;
  latencies: number[];
  /** App rounds: ms from the service's last answer for the task to its card's chat.update. */
  updateDelays: number[];
  failures: string[];
  /** CPU the server process used from the first press to the last card update (app) or ack (bare). */
  cpuMs: number;
}

const cleanups: (() => Promise<unknown> | unknown)[] = [];
const broken: string[] = [];
const loadBefore = load();

try {
  const fake = await startBenchSlack({ team: TEAM, tokens: [BOT_TOKEN], users: USERS, channel: CHANNEL });
  cleanups.push(() => fake.close());
  const sandbox = await startSandbox({ seed: 'minimal' });
  cleanups.push(
    () => sandbox.close(),
    () => closePlanningPools(),
  );
  const proxy = await startServiceProxy(sandbox.url);
  cleanups.push(() => proxy.close());
  const dir = mkdtempSync(join(tmpdir(), 'bench-card-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const sqliteFile = join(dir, 'store.sqlite');
  const encryptionKey = randomBytes(32).toString('base64');

  // One task per press, each in its own feature, created before the service is slowed down.
  const owner = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken });
  const team = await owner.teams.create({ teamName: 'Bench team' });
  const channel = team.channels[0]!;
  const tasks: Task[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const feature = await owner.features.create(team.id, channel.id, { heading: `Feature ${i}` });
    const task = await owner.tasks.create(team.id, channel.id, feature.id, { heading: `Task ${i}` });
    tasks.push({
      teamId: team.id,
      channelId: channel.id,
      featureId: feature.id,
      taskId: task.id,
      cardTs: `1700000000.${String(i).padStart(6, '0')}`,
    });
  }
  // Their cards, in the channel and remembered as if the app had posted them (the store file the app then opens).
  const { workspace } = fake.slack;
  const seed = await openStore({ sqliteFile, keyring: createKeyring({ current: encryptionKey }) });
  for (const t of tasks) {
    workspace.post({
      channel: CHANNEL,
      ts: t.cardTs,
      user: workspace.bot.userId,
      botId: workspace.bot.botId,
      text: `Task: ${t.taskId}`,
    });
    await seed.cards.record({
      workspaceId: TEAM,
      kind: 'task',
      entityId: t.taskId,
      slackChannelId: CHANNEL,
      messageTs: t.cardTs,
      // Where the task lives, as the app records it when it posts a card (a press is checked against it).
      place: { orgId: sandbox.orgId, teamId: t.teamId, channelId: t.channelId, featureId: t.featureId },
    });
  }
  await seed.close();
  const byTs = new Map(tasks.map((t) => [t.cardTs, t]));
  sandbox.setLatency(LATENCY);

  const common = {
    signingSecret: SIGNING_SECRET,
    botToken: BOT_TOKEN,
    team: TEAM,
    slackApiUrl: fake.apiUrl,
    planningUrl: proxy.url,
    planningTimeoutMs: LATENCY + 10_000,
    sqliteFile,
    encryptionKey,
    users: USERS,
    member: { id: sandbox.memberId, orgId: sandbox.orgId, token: sandbox.memberToken },
  };
  const targets = {} as Record<Kind, Target>;
  for (const kind of ['app', 'bare', 'floor'] as const) {
    const profile =
      args['cpu-prof'] && kind === 'app' ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
    const target = await startTarget({ ...common, kind }, { connections: CONCURRENCY, nodeArgs: profile });
    targets[kind] = target;
    cleanups.push(async () => {
      const { problems, problemCount } = await target.stop();
      if (problemCount > 0) {
        console.error(`\nthe ${kind} process logged ${problemCount} warnings or errors; the first ones:`);
        for (const line of problems) console.error(`  ${line}`);
      }
    });
  }

  /** The state every task is in (app and floor rounds move them; bare rounds do not). */
  let state: 'idle' | 'in progress' = 'idle';

  async function round(kind: Kind, label: string): Promise<Round> {
    const target = targets[kind];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        const response = await target.pool.request({ path: '/bench-prime', method: 'GET' });
        await response.body.dump();
      }),
    );
    const from = state;
    const to = state === 'idle' ? 'in progress' : 'idle';
    const result: Round = { kind, label, latencies: [], updateDelays: [], failures: [], cpuMs: 0 };
    const cpuBefore = await target.cpu();
    const updatesBefore = fake.updates.length;
    const sentAt = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < tasks.length) {
        const i = next++;
        const task = tasks[i]!;
        const user = USERS[i % USERS.length]!;
        const body = pressBody(
          user,
          task,
          from,
          to,
          fake.responseUrl(`${label}-${i}`.replaceAll(' ', '-'), user),
        );
        const headers = {
          'content-type': 'application/x-www-form-urlencoded',
          ...sign(SIGNING_SECRET, body),
        };
        const started = performance.now();
        sentAt.set(task.taskId, started);
        try {
          const response = await target.pool.request({ path: PATHS.events, method: 'POST', headers, body });
          await response.body.text();
          if (response.statusCode === 200) result.latencies.push(performance.now() - started);
          else result.failures.push(`${i}: HTTP ${response.statusCode}`);
        } catch (error) {
          result.failures.push(`${i}: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    broken.push(...result.failures.slice(0, 5).map((f) => `${label}: ${f}`));
    if (kind === 'bare') {
      result.cpuMs = (await target.cpu()).cpuMs - cpuBefore.cpuMs;
      return result;
    }

    const updated = () => fake.updates.slice(updatesBefore);
    if (!(await waitUntil(() => new Set(updated().map((u) => u.body.ts)).size >= tasks.length, SETTLE_MS))) {
      broken.push(
        `${label}: ${tasks.length - new Set(updated().map((u) => u.body.ts)).size} cards were not updated within ${SETTLE_MS} ms`,
      );
    }
    result.cpuMs = (await target.cpu()).cpuMs - cpuBefore.cpuMs;
    for (const update of updated()) {
      const task = byTs.get(String(update.body.ts));
      if (!task) continue;
      const started = sentAt.get(task.taskId) ?? 0;
      const answers = (proxy.answered.get(task.featureId) ?? []).filter(
        (at) => at >= started && at <= update.at,
      );
      const last = answers.at(-1);
      if (last === undefined)
        broken.push(`${label}: a card of ${task.taskId} was updated without a service answer`);
      else if (kind === 'app') result.updateDelays.push(update.at - last);
      if (!JSON.stringify(update.body).includes(to === 'idle' ? 'Start' : 'Send to review')) {
        broken.push(`${label}: the card of ${task.taskId} does not show *${to}*`);
      }
    }
    const check = await createPlanningClient({
      baseUrl: sandbox.url,
      token: sandbox.ownerToken,
      timeoutMs: LATENCY + 10_000,
    }).tasks.read(tasks[0]!.teamId, tasks[0]!.channelId, tasks[0]!.featureId, tasks[0]!.taskId);
    if (check.state !== to) broken.push(`${label}: the first task is ${check.state}, not ${to}`);
    state = to;
    return result;
  }

  console.error(
    `bench:card: ${REQUESTS} state-button presses per round, ${CONCURRENCY} in flight, ` +
      `service latency ${LATENCY} ms, ${WARMUP} warm-up + ${ROUNDS} measured rounds each`,
  );
  for (let w = 1; w <= WARMUP; w += 1) {
    await round('app', `warm-up ${w} app`);
    await round('bare', `warm-up ${w} bare`);
    await round('floor', `warm-up ${w} floor`);
  }
  const measured: Round[] = [];
  for (let r = 1; r <= ROUNDS; r += 1) {
    for (const kind of r % 2 === 1
      ? (['app', 'bare', 'floor'] as const)
      : (['floor', 'bare', 'app'] as const)) {
      const result = await round(kind, `round ${r} ${kind}`);
      measured.push(result);
      const sorted = sortNumbers(result.latencies);
      console.error(
        `  round ${r} ${kind.padEnd(4)}: ack p50 ${ms(percentile(sorted, 50))} ms, p99 ${ms(percentile(sorted, 99))} ms`,
      );
    }
  }
  const stats = (values: number[]) => {
    const sorted = sortNumbers(values);
    return {
      count: sorted.length,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
    };
  };
  const app = stats(measured.filter((m) => m.kind === 'app').flatMap((m) => m.latencies));
  const bare = stats(measured.filter((m) => m.kind === 'bare').flatMap((m) => m.latencies));
  const floor = stats(measured.filter((m) => m.kind === 'floor').flatMap((m) => m.latencies));
  const update = stats(measured.flatMap((m) => m.updateDelays));
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');

  console.log(
    `\nTask card state button: ${ROUNDS} rounds × ${REQUESTS} presses, ${CONCURRENCY} in flight, service latency ${LATENCY} ms\n`,
  );
  console.log('| measure | count | p50 ms | p90 ms | p99 ms | max ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, s] of [
    ['ack, app', app],
    ['ack, bare Bolt', bare],
    ['ack, floor (bare Bolt + the HTTP of a press)', floor],
    ['card updated after the service answered (app)', update],
  ] as const) {
    console.log(`| ${name} | ${s.count} | ${ms(s.p50)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.max)} |`);
  }
  const cpu = (kind: Kind) => {
    const rounds = measured.filter((m) => m.kind === kind);
    return rounds.reduce((sum, m) => sum + m.cpuMs, 0) / Math.max(1, rounds.length * REQUESTS);
  };
  const ackRatio = app.p99 / bare.p99;
  const cpuRatio = cpu('app') / cpu('bare');
  console.log(
    `\nTargets: ack p99 ≤ ${TARGET_ACK_RATIO}× bare Bolt's: ${verdict(ackRatio <= TARGET_ACK_RATIO)} (${ackRatio.toFixed(2)}×: ${ms(app.p99)} ms, bare ${ms(bare.p99)} ms); ` +
      `CPU per press ≤ ${TARGET_CPU_RATIO}× bare's: ${verdict(cpuRatio <= TARGET_CPU_RATIO)} (${cpuRatio.toFixed(2)}×); ` +
      `card updated within ${TARGET_UPDATE_P99_MS} ms of the service's answer (p99): ${verdict(update.p99 <= TARGET_UPDATE_P99_MS)} (${ms(update.p99)} ms).`,
  );
  console.log(
    `Server CPU per press (its process): app ${cpu('app').toFixed(2)} ms, bare ${cpu('bare').toFixed(2)} ms, ` +
      `floor ${cpu('floor').toFixed(2)} ms (the bare app plus a press's HTTP over undici: ${(cpu('floor') / cpu('bare')).toFixed(2)}× bare's; the app is ${(cpu('app') / cpu('floor')).toFixed(2)}× the floor's).`,
  );
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs, load average (1/5/15 min) ${loadBefore} before, ${load()} after.`,
  );
  if (fake.refused > 0) broken.push(`the fake Slack refused ${fake.refused} requests`);
} catch (error) {
  broken.push(`the benchmark failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  await runCleanups(cleanups, broken);
}
reportBroken(broken);
