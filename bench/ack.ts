import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closePlanningPools, createPlanningClient, DEFAULT_MAX_CONNECTIONS } from '../src/planning/index.js';
import { startSandbox } from '../src/sandbox/index.js';
import { PATHS } from '../src/slack/bolt/manifest.js';
import type { TargetOptions } from './lib/ack-target.js';
import { startTarget, type Target } from './lib/ack-target-process.js';
import { load, ms, percentile, reportBroken, runCleanups, sortNumbers, waitUntil } from './lib/bench-kit.js';
import { type BenchSlack, startBenchSlack } from './lib/bench-slack.js';
import { commandBody, sign } from './lib/slack-command.js';
import { startSocketCounter } from './lib/socket-counter.js';

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '500' },
    concurrency: { type: 'string', default: '50' },
    latency: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '1' },
    /** The app's PLANNING_MAX_CONNECTIONS; default: the app's own default. */
    'max-connections': { type: 'string' },
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
const MAX_CONNECTIONS =
  args['max-connections'] === undefined ? undefined : integer('max-connections', args['max-connections'], 1);

type Kind = TargetOptions['kind'];
const SUBCOMMAND = 'whoami';
const SIGNING_SECRET = 'bench-signing-secret';
const BOT_TOKEN = 'xoxb-bench-bot-token';
const TEAM = 'T0BENCH';
/** The channel the commands come from (bench/lib/slack-command.ts). */
const CHANNEL = 'C0BENCH';
/** As many Slack users as requests in flight, all connected to the sandbox's member account. */
const USERS = Array.from({ length: CONCURRENCY }, (_, i) => `U${String(i).padStart(6, '0')}`);
const TARGET_RATIO = 1.3;
/** App CPU per command as a multiple of bare Bolt's (each its process, first command to last reply). */
const TARGET_CPU_RATIO = 2;
/** Slack shows the user an error when the ack takes longer than this. */
const SLACK_ACK_LIMIT_MS = 3_000;
/** How long the replies of one app round may keep coming after its last ack. */
const SETTLE_MS = LATENCY + 30_000;

interface Round {
  kind: Kind;
  label: string;
  /** Ack time of each request answered 200, in ms. */
  latencies: number[];
  /** Response-url id → when its request was sent (performance.now()). */
  sent: Map<string, number>;
  failures: string[];
  /** CPU the server process used from the first command to the last reply; commands its handler saw (bare). */
  cpuMs: number;
  handled: number;
  /** App rounds: account reads the service answered 200, and commands replied to with the whoami answer. */
  reads: number;
  replied: number;
  /** App rounds: the most sockets open at once from the app to the service. */
  peakSockets: number;
}

/**
 * Opens (or reopens, when the server closed them while idle) the pool's CONCURRENCY connections with
 * as many GETs of a path no listener serves, so that no measured command waits for a TCP connect.
 */
async function prime(target: Target) {
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const response = await target.pool.request({ path: '/bench-prime', method: 'GET' });
      await response.body.dump();
    }),
  );
}

/** Sends REQUESTS signed commands to `target`, CONCURRENCY in flight on its warm pool. */
async function runRound(target: Target, label: string, fake: BenchSlack): Promise<Round> {
  const round: Round = {
    kind: target.kind,
    label,
    latencies: [],
    sent: new Map(),
    failures: [],
    cpuMs: 0,
    handled: 0,
    reads: 0,
    replied: 0,
    peakSockets: 0,
  };
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const id = `${label.replaceAll(' ', '-')}-${i}`;
      const user = USERS[i % USERS.length]!;
      const body = commandBody(TEAM, user, SUBCOMMAND, fake.responseUrl(id, user));
      const headers = { 'content-type': 'application/x-www-form-urlencoded', ...sign(SIGNING_SECRET, body) };
      const started = performance.now();
      round.sent.set(id, started);
      try {
        const response = await target.pool.request({ path: PATHS.events, method: 'POST', headers, body });
        await response.body.text();
        const elapsed = performance.now() - started;
        if (response.statusCode === 200) round.latencies.push(elapsed);
        else round.failures.push(`${id}: HTTP ${response.statusCode}`);
      } catch (error) {
        round.failures.push(`${id}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return round;
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
  // The app reaches the service through a relay that counts its open sockets.
  const sandboxUrl = new URL(sandbox.url);
  const relay = await startSocketCounter({ host: sandboxUrl.hostname, port: Number(sandboxUrl.port) });
  cleanups.push(() => relay.close());
  const dir = mkdtempSync(join(tmpdir(), 'bench-ack-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  // What every whoami reply must say; read before the service is slowed down.
  const member = await createPlanningClient({
    baseUrl: sandbox.url,
    token: sandbox.memberToken,
  }).account.read();
  const expectedReply = `You act as *${member.userName}*`;
  sandbox.setLatency(LATENCY);

  const common = {
    signingSecret: SIGNING_SECRET,
    botToken: BOT_TOKEN,
    team: TEAM,
    slackApiUrl: fake.apiUrl,
    planningUrl: `${relay.origin}${sandboxUrl.pathname}`,
    // Calls queued behind the connection cap wait for a socket within this bound too.
    planningTimeoutMs: LATENCY + 20_000,
    maxConnections: MAX_CONNECTIONS,
    sqliteFile: join(dir, 'store.sqlite'),
    encryptionKey: randomBytes(32).toString('base64'),
    users: USERS,
    member: { id: sandbox.memberId, orgId: sandbox.orgId, token: sandbox.memberToken },
  };
  const targets = {} as Record<Kind, Target>;
  for (const kind of ['app', 'bare', 'floor'] as const) {
    const profile =
      args['cpu-prof'] && kind === 'app' ? ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] : [];
    // The floor talks to the sandbox directly: the relay counts the app's sockets alone.
    const planningUrl = kind === 'floor' ? sandbox.url : common.planningUrl;
    const target = await startTarget(
      { ...common, kind, planningUrl },
      { connections: CONCURRENCY, nodeArgs: profile },
    );
    targets[kind] = target;
    // Stopped before the sandbox closes: nothing of theirs is in flight by then.
    cleanups.push(async () => {
      const { problems, problemCount } = await target.stop();
      if (problemCount > 0) {
        console.error(`\nthe ${kind} process logged ${problemCount} warnings or errors; the first ones:`);
        for (const line of problems) console.error(`  ${line}`);
      }
    });
  }

  /** Runs one round and checks it did what it should; an app round waits for its replies. */
  async function round(kind: Kind, label: string): Promise<Round> {
    const target = targets[kind];
    await prime(target);
    const logStart = sandbox.requests.entries.length;
    relay.resetPeak();
    const before = await target.cpu();
    const result = await runRound(target, label, fake);
    /** The server's CPU from the first command to the last reply, and how many commands it handled (bare). */
    const measureServer = async () => {
      const after = await target.cpu();
      result.cpuMs = after.cpuMs - before.cpuMs;
      result.handled = after.handled - before.handled;
    };
    const ids = [...result.sent.keys()];
    broken.push(...result.failures.slice(0, 5).map((f) => `${label}: ${f}`));
    if (result.failures.length > 5)
      broken.push(`${label}: ${result.failures.length - 5} more failed requests`);

    if (kind === 'bare') {
      await measureServer();
      if (result.handled !== ids.length) {
        broken.push(`${label}: the bare handler ran ${result.handled} times for ${ids.length} commands`);
      }
      if (sandbox.requests.entries.length !== logStart)
        broken.push(`${label}: the bare app reached the service`);
      if (ids.some((id) => fake.responses.has(id))) broken.push(`${label}: the bare app replied`);
      return result;
    }

    if (!(await waitUntil(() => ids.every((id) => fake.responses.has(id)), SETTLE_MS))) {
      const missing = ids.filter((id) => !fake.responses.has(id)).length;
      broken.push(`${label}: ${missing} of ${ids.length} commands got no reply within ${SETTLE_MS} ms`);
    }
    await measureServer();
    result.peakSockets = relay.peak();
    const calls = sandbox.requests.entries.slice(logStart);
    const reads = calls.filter((c) => c.operationId === 'accountRead');
    if (reads.length !== ids.length) {
      broken.push(`${label}: the service got ${reads.length} account reads for ${ids.length} commands`);
    }
    const notOk = reads.filter((c) => c.status !== 200).length;
    if (notOk > 0) broken.push(`${label}: ${notOk} account reads did not answer 200`);
    result.reads = reads.length - notOk;
    if (calls.length > reads.length)
      broken.push(`${label}: ${calls.length - reads.length} other service calls`);
    let wrong = 0;
    let early = 0;
    for (const id of ids) {
      const replies = fake.responses.get(id) ?? [];
      if (replies.length === 0) continue;
      if (replies.length !== 1 || !String(replies[0]?.body.text ?? '').includes(expectedReply)) wrong += 1;
      else result.replied += 1;
      if ((replies[0]?.at ?? 0) - (result.sent.get(id) ?? 0) < LATENCY) early += 1;
    }
    if (wrong > 0) broken.push(`${label}: ${wrong} replies were not the whoami answer, or came twice`);
    if (early > 0)
      broken.push(`${label}: ${early} replies came sooner than the ${LATENCY} ms service latency`);
    return result;
  }

  console.error(
    `bench:ack: /plan ${SUBCOMMAND}, ${REQUESTS} requests per round, ${CONCURRENCY} in flight, ` +
      `service latency ${LATENCY} ms, ${WARMUP} warm-up + ${ROUNDS} measured rounds each`,
  );
  for (let w = 1; w <= WARMUP; w += 1) {
    await round('app', `warm-up ${w} app`);
    await round('bare', `warm-up ${w} bare`);
    await round('floor', `warm-up ${w} floor`);
  }
  const measured: Round[] = [];
  for (let r = 1; r <= ROUNDS; r += 1) {
    // app, bare, floor, then floor, bare, app: none always goes first.
    for (const kind of r % 2 === 1
      ? (['app', 'bare', 'floor'] as const)
      : (['floor', 'bare', 'app'] as const)) {
      const result = await round(kind, `round ${r} ${kind}`);
      measured.push(result);
      const sorted = sortNumbers(result.latencies);
      console.error(
        `  round ${r} ${kind.padEnd(4)}: p50 ${ms(percentile(sorted, 50))} ms, p99 ${ms(percentile(sorted, 99))} ms`,
      );
    }
  }

  const stats = (kind: Kind) => {
    const rounds = measured.filter((m) => m.kind === kind);
    const sorted = sortNumbers(rounds.flatMap((m) => m.latencies));
    const requests = rounds.reduce((sum, m) => sum + m.sent.size, 0);
    return {
      count: sorted.length,
      p50: percentile(sorted, 50),
      p90: percentile(sorted, 90),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      over: sorted.filter((v) => v > SLACK_ACK_LIMIT_MS).length,
      roundP99: rounds.map((m) => ms(percentile(sortNumbers(m.latencies), 99))),
      cpuPerRequest: rounds.reduce((sum, m) => sum + m.cpuMs, 0) / requests,
    };
  };
  const app = stats('app');
  const bare = stats('bare');
  const floor = stats('floor');
  const ratio = app.p99 / bare.p99;
  const cpuRatio = app.cpuPerRequest / bare.cpuPerRequest;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const appRounds = measured.filter((m) => m.kind === 'app');
  const total = (pick: (m: Round) => number) => appRounds.reduce((sum, m) => sum + pick(m), 0);
  const replyDelays = sortNumbers(
    appRounds.flatMap((m) =>
      [...m.sent].map(([id, sent]) => (fake.responses.get(id)?.[0]?.at ?? Number.NaN) - sent),
    ),
  );

  console.log(
    `\n/plan ${SUBCOMMAND}: ${ROUNDS} rounds × ${REQUESTS} requests each, ${CONCURRENCY} in flight, ` +
      `service latency ${LATENCY} ms (after ${WARMUP} discarded warm-up round${WARMUP === 1 ? '' : 's'} each)\n`,
  );
  console.log('| app | requests | p50 ms | p90 ms | p99 ms | max ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, s] of [
    ['app', app],
    ['bare', bare],
  ] as const) {
    console.log(`| ${name} | ${s.count} | ${ms(s.p50)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.max)} |`);
  }
  console.log(
    `\nTargets: app p99 ≤ ${TARGET_RATIO}× bare p99: ${verdict(ratio <= TARGET_RATIO)} (${ratio.toFixed(2)}×); ` +
      `app CPU per command ≤ ${TARGET_CPU_RATIO}× bare's: ${verdict(cpuRatio <= TARGET_CPU_RATIO)} (${cpuRatio.toFixed(2)}×).`,
  );
  console.log(
    `p99 per round (ms): app ${app.roundP99.join(', ')}; bare ${bare.roundP99.join(', ')}. ` +
      `Acks over ${SLACK_ACK_LIMIT_MS / 1000} s: app ${app.over}, bare ${bare.over}.`,
  );
  console.log(
    `Server CPU per command (its process, from the first command to the last reply): app ${app.cpuPerRequest.toFixed(2)} ms, ` +
      `bare ${bare.cpuPerRequest.toFixed(2)} ms, floor ${floor.cpuPerRequest.toFixed(2)} ms (the bare app plus the command's ` +
      `HTTP over undici: ${(floor.cpuPerRequest / bare.cpuPerRequest).toFixed(2)}× bare's; the app is ` +
      `${(app.cpuPerRequest / floor.cpuPerRequest).toFixed(2)}× the floor's). Floor p99 ${ms(floor.p99)} ms.`,
  );
  console.log(
    `After the acks (measured app rounds): ${total((m) => m.sent.size)} commands, ${total((m) => m.reads)} account ` +
      `reads answered 200 by the service, ${total((m) => m.replied)} whoami replies at their response_urls, ` +
      `p50 ${ms(percentile(replyDelays, 50))} ms / max ${ms(replyDelays.at(-1) ?? Number.NaN)} ms after their command.`,
  );
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs, load average (1/5/15 min) ${loadBefore} before, ${load()} after.`,
  );
  console.log(
    `Sockets open at once from the app to the service (peak per measured app round): ` +
      `${appRounds.map((m) => m.peakSockets).join(', ')} (cap: ${MAX_CONNECTIONS ?? `default ${DEFAULT_MAX_CONNECTIONS}`}).`,
  );
  if (fake.refused > 0) broken.push(`the fake Slack refused ${fake.refused} requests`);
} catch (error) {
  broken.push(`the benchmark failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  await runCleanups(cleanups, broken);
}
reportBroken(broken);
