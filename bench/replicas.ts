/**
 * `npm run bench:replicas`: does the digest work divide between replicas? 20,000 linked channels
 * over 1,000 workspaces (one planning organization and one bot token each), all due in the same
 * minute, on one PostgreSQL (a fresh schema of TEST_DATABASE_URL or DATABASE_URL, dropped after),
 * against the sandbox and the playground's fake Slack, each in a process of its own (bench/lib/
 * digest-services.ts, as bench:digest, with a role each: three replicas on two cores saturated one
 * process serving both, and its timeouts were the run's failures, not the replicas'). Four passes,
 * each a day of its own:
 *
 * 1. one replica (bench/lib/replica.ts: the app's scheduler, clients with the posting limiter and
 *    store, ticking until the day is done);
 * 2. three replicas started together: every digest posted exactly once, how the posts divide (no
 *    replica over 50%), wall and CPU per digest of each, peak RSS of each, and 3 vs 1;
 * 3. three replicas, one killed with SIGKILL once a third of the digests are posted: the others
 *    take its claims over after the lease (looking in the channel history first), nothing is
 *    posted twice, and the time from the kill to the last digest is the recovery time;
 * 4. three replicas, PostgreSQL restarted once a third of the digests are posted, by the shell
 *    command --restart-postgres gives (connections dropped, refused while it is down): the
 *    replicas log the failed store calls and carry on at their next tick, claims whose outcome
 *    could not be recorded come back after the lease, each digest is posted once, and the restart's
 *    length and the time from the restart to the last digest are reported. Skipped (and said so)
 *    without the option: it restarts a server, which is the operator's call.
 *
 * Options: --channels 20000 --workspaces 1000 --features 2 --latency 0 (ms added to each service
 * answer) --lease 30000 (ms: a claim's lease; a digest not posted within ¾ of it is given back) --tick 1000 (ms between a replica's passes) --posts-per-minute 300
 * --channel-interval 1000 (the posting limiter: the app's defaults) --enforce (the fake Slack
 * enforces the same limits with 429s) --restart-postgres '<shell command>' (e.g. on Debian
 * 'pg_ctlcluster 15 main restart'; run as the bench's user). Run it small with e.g. --channels 600
 * --workspaces 30.
 * Exits non-zero when a digest is missing or posted twice.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { availableParallelism, cpus } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEFAULT_POST_LIMITS } from '../src/limits.js';
import { createKeyring, openStore } from '../src/store/index.js';
import { load, reportBroken, runCleanups } from './lib/bench-kit.js';
import { benchChannel, benchWorkspace } from './lib/digest-names.js';
import type { DigestServices, DigestServicesRole } from './lib/digest-services.js';
import type { ReplicaOptions, ReplicaResult } from './lib/replica.js';

const { values: args } = parseArgs({
  options: {
    channels: { type: 'string', default: '20000' },
    workspaces: { type: 'string', default: '1000' },
    features: { type: 'string', default: '2' },
    latency: { type: 'string', default: '0' },
    lease: { type: 'string', default: '30000' },
    tick: { type: 'string', default: '1000' },
    'posts-per-minute': { type: 'string', default: String(DEFAULT_POST_LIMITS.perWorkspacePerMinute) },
    'channel-interval': { type: 'string', default: String(DEFAULT_POST_LIMITS.channelIntervalMs) },
    enforce: { type: 'boolean', default: false },
    'restart-postgres': { type: 'string' },
  },
});
const CHANNELS = Number(args.channels);
const WORKSPACES = Number(args.workspaces);
const POST_LIMITS = {
  perWorkspacePerMinute: Number(args['posts-per-minute']),
  channelIntervalMs: Number(args['channel-interval']),
};
const databaseUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('bench:replicas needs PostgreSQL: set TEST_DATABASE_URL or DATABASE_URL');

interface Stats {
  postCount: number;
  rateLimited: number;
  channelsPosted: number;
  postedTwice: number;
}

/** One services process in `role`; resolves with its line once it serves (the sandbox: seeded). */
async function startServicesProcess(role: DigestServicesRole) {
  const script = fileURLToPath(new URL('./lib/digest-services.ts', import.meta.url));
  const spec = {
    orgs: WORKSPACES,
    channels: CHANNELS,
    features: Number(args.features),
    latencyMs: Number(args.latency),
    role,
    ...(args.enforce ? { postLimits: { workspacePerSecond: POST_LIMITS.perWorkspacePerMinute / 60 } } : {}),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(spec)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`services (${role}) exited early (${code})`)));
  });
  return {
    ready: JSON.parse(first) as Partial<DigestServices>,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

/** The sandbox and the fake Slack, a process each; resolves once both serve. */
async function startServices() {
  const parts = await Promise.allSettled([startServicesProcess('sandbox'), startServicesProcess('slack')]);
  const started = parts.flatMap((p) => (p.status === 'fulfilled' ? [p.value] : []));
  const stop = async () => {
    for (const part of started) await part.stop();
  };
  const failed = parts.find((p) => p.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const services = Object.assign({}, ...started.map((p) => p.ready)) as DigestServices;
  return {
    ...services,
    async stats(date: string): Promise<Stats> {
      return (await (await fetch(`${services.statsUrl}?date=${date}`)).json()) as Stats;
    },
    stop,
  };
}

interface Running {
  child: ChildProcessWithoutNullStreams;
  claimed: Promise<void>;
  done: Promise<ReplicaResult | 'killed'>;
}

function startReplica(options: ReplicaOptions): Running {
  const script = fileURLToPath(new URL('./lib/replica.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.pipe(process.stderr);
  let last = '';
  let onClaimed!: () => void;
  const claimed = new Promise<void>((resolve) => {
    onClaimed = resolve;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.includes('"claimed"')) onClaimed();
    else last = line;
  });
  const done = new Promise<ReplicaResult | 'killed'>((resolve, reject) => {
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') return resolve('killed');
      if (code !== 0 || !last.startsWith('{')) return reject(new Error(`replica exited ${code}`));
      resolve(JSON.parse(last) as ReplicaResult);
    });
  });
  return { child, claimed, done };
}

/** When PostgreSQL started, as the server says (a new value: it was restarted). */
async function postmasterStart(): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ at: string }>('select pg_postmaster_start_time()::text as at');
    return rows[0]?.at ?? '';
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Restarts PostgreSQL with the operator's shell command; resolves with the time from the command's
 * start until the server answers a new connection again (the command may return before that).
 * Fails when the command fails or the server did not in fact restart.
 */
async function restartPostgres(command: string): Promise<number> {
  const before = await postmasterStart();
  const started = performance.now();
  // Its output goes to stderr with the progress lines, away from the table on stdout.
  const child = spawn(command, { shell: true, stdio: ['ignore', 2, 2] });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`--restart-postgres command exited ${code}`);
  for (;;) {
    const after = await postmasterStart().catch(() => undefined);
    if (after !== undefined) {
      if (after === before) throw new Error('--restart-postgres ran, but PostgreSQL was not restarted');
      return performance.now() - started;
    }
    if (performance.now() - started > 120_000) throw new Error('PostgreSQL did not answer within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const broken: string[] = [];
/** The day the links are made: before the first pass's day (2026-04-01). */
const LINKED_ON = '2026-03-31';
const cleanups: (() => unknown)[] = [];
try {
  console.error(`bench:replicas: seeding ${CHANNELS} channels over ${WORKSPACES} workspaces…`);
  const services = await startServices();
  cleanups.push(() => services.stop());
  const schema = `bench_replicas_${randomBytes(4).toString('hex')}`;
  const key = randomBytes(32).toString('base64');
  // Linked the day before the first pass: a link's first digest is at its next time after it was
  // made (src/digest/time.ts), so links made now would not be due on the passes' own days.
  const store = await openStore({
    databaseUrl,
    pgSchema: schema,
    keyring: createKeyring({ current: key }),
    now: () => Date.parse(`${LINKED_ON}T00:00:00Z`),
  });
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });
  try {
    for (const [i, org] of services.orgs.entries())
      await store.workspaces.setAdminToken(benchWorkspace(i), org.ownerToken, org.orgId);
    for (let c = 0; c < CHANNELS; c += 1) {
      const org = services.orgs[c % WORKSPACES];
      if (!org) throw new Error('fewer organizations than workspaces');
      await store.links.upsert({
        workspaceId: benchWorkspace(c % WORKSPACES),
        slackChannelId: benchChannel(c),
        teamId: org.teamId,
        channelId: org.channelId,
        createdBy: 'U0',
        digestTime: '00:00',
        timeZone: 'UTC',
        weekdaysOnly: false,
      });
    }
  } finally {
    await store.close();
  }

  const replicaOptions = (day: string): ReplicaOptions => ({
    databaseUrl,
    pgSchema: schema,
    key,
    planningUrl: services.planningUrl,
    slackApiUrl: services.slackApiUrl,
    // Half an hour after the 00:00 digest time of the pass's own day, within the catch-up window:
    // every link is due, and each pass posts a day of its own.
    tickAt: `${day}T00:30:00Z`,
    tickMs: Number(args.tick),
    leaseMs: Number(args.lease),
    retryBaseMs: 1_000,
    postLimits: POST_LIMITS,
  });

  /**
   * One pass: `count` replicas together; once a third is posted, one of them killed (`kill`) or
   * PostgreSQL restarted (`restart`).
   */
  async function pass(day: string, count: number, disruption?: 'kill' | 'restart') {
    const what = { kill: ', one killed mid-pass', restart: ', PostgreSQL restarted mid-pass' };
    console.error(`bench:replicas: ${count} replica(s)${disruption ? what[disruption] : ''}…`);
    const started = performance.now();
    const replicas = Array.from({ length: count }, () => startReplica(replicaOptions(day)));
    let disruptedAt: number | undefined;
    let restartMs: number | undefined;
    if (disruption) {
      const victim = replicas[count - 1] as Running;
      await victim.claimed;
      while ((await services.stats(day)).channelsPosted < CHANNELS / 3)
        await new Promise((resolve) => setTimeout(resolve, 100));
      disruptedAt = performance.now();
      if (disruption === 'kill') victim.child.kill('SIGKILL');
      // A command that failed still leaves the replicas to finish the day: wait for them below.
      else
        restartMs = await restartPostgres(args['restart-postgres'] as string).catch((error: Error) => {
          broken.push(`${day}: ${error.message}`);
          return undefined;
        });
    }
    const results = await Promise.all(replicas.map((r) => r.done));
    const wallMs = performance.now() - started;
    const stats = await services.stats(day);
    if (stats.channelsPosted !== CHANNELS)
      broken.push(`${day}: ${stats.channelsPosted} of ${CHANNELS} channels got their digest`);
    if (stats.postedTwice > 0) broken.push(`${day}: ${stats.postedTwice} channels got their digest twice`);
    return {
      results,
      wallMs,
      stats,
      recoveryMs: disruptedAt === undefined ? undefined : performance.now() - disruptedAt,
      restartMs,
    };
  }

  const one = await pass('2026-04-01', 1);
  const three = await pass('2026-04-02', 3);
  const killed = await pass('2026-04-03', 3, 'kill');
  const restarted = args['restart-postgres'] ? await pass('2026-04-04', 3, 'restart') : undefined;
  if (!restarted)
    console.error('bench:replicas: PostgreSQL restart pass skipped (no --restart-postgres command given)');

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const describe = (r: ReplicaResult | 'killed') =>
    r === 'killed'
      ? 'killed'
      : `${r.posted + r.recovered} (${((100 * (r.posted + r.recovered)) / CHANNELS).toFixed(1)}%), ` +
        `CPU ${(r.cpuMs / Math.max(1, r.posted + r.recovered)).toFixed(2)} ms per digest, ` +
        `wall ${s(r.wallMs)}, peak RSS ${mb(r.peakRss)}`;
  console.log(`\n| replicas benchmark | ${CHANNELS} channels / ${WORKSPACES} workspaces |`);
  console.log('|---|---|');
  console.log(
    `| setup | PostgreSQL; sandbox (${args.features} features each, ${args.latency} ms added) and fake Slack, a process each` +
      `${args.enforce ? ' enforcing the posting limits' : ''}; posting limiter ${POST_LIMITS.perWorkspacePerMinute}/min per workspace, ` +
      `${POST_LIMITS.channelIntervalMs} ms per channel; lease ${args.lease} ms, tick ${args.tick} ms |`,
  );
  console.log(`| 1 replica: wall | ${s(one.wallMs)} — ${describe(one.results[0] as ReplicaResult)} |`);
  console.log(
    `| 3 replicas: wall | ${s(three.wallMs)} (${(three.wallMs / one.wallMs).toFixed(2)}× the one replica's) |`,
  );
  three.results.forEach((r, i) => {
    console.log(`| 3 replicas: replica ${i + 1} | ${describe(r)} |`);
  });
  const shares = three.results.map((r) => (r === 'killed' ? 0 : (r.posted + r.recovered) / CHANNELS));
  const over = shares.some((share) => share > 0.5);
  if (over) broken.push('a replica posted over 50% of the digests');
  console.log(
    `| largest share | ${(100 * Math.max(...shares)).toFixed(1)}% ${over ? '(over 50%)' : '(≤ 50%)'} |`,
  );
  for (const [name, run] of [
    ['1 replica', one],
    ['3 replicas', three],
    ['3, one killed', killed],
  ] as const)
    console.log(
      `| ${name}: channels posted / posted twice / 429s | ${run.stats.channelsPosted} / ${run.stats.postedTwice} / ${run.stats.rateLimited} |`,
    );
  killed.results.forEach((r, i) => {
    console.log(`| one killed: replica ${i + 1} | ${describe(r)} |`);
  });
  console.log(
    `| one killed: recovery (kill → last digest) | ${s(killed.recoveryMs ?? 0)} (lease ${s(Number(args.lease))}); wall ${s(killed.wallMs)} |`,
  );
  if (restarted) {
    const { channelsPosted, postedTwice } = restarted.stats;
    console.log(
      `| PostgreSQL restarted: posted once / twice / missing | ${channelsPosted - postedTwice} / ${postedTwice} / ${CHANNELS - channelsPosted} |`,
    );
    restarted.results.forEach((r, i) => {
      console.log(
        `| restarted: replica ${i + 1} | ${describe(r)}${r === 'killed' ? '' : `; ${r.failedTicks} of ${r.ticks} ticks failed`} |`,
      );
    });
    console.log(
      `| restarted: restart (command → server answers) / restart → last digest | ${s(restarted.restartMs ?? 0)} / ` +
        `${s(restarted.recoveryMs ?? 0)} (lease ${s(Number(args.lease))}); wall ${s(restarted.wallMs)} |`,
    );
  } else console.log('| PostgreSQL restarted | skipped: no --restart-postgres command given |');
  console.log(
    `\n${availableParallelism()} CPUs (${cpus()[0]?.model ?? '?'}), Node ${process.version}, load average ${load()}.`,
  );
} catch (error) {
  broken.push((error as Error).message);
} finally {
  await runCleanups(cleanups, broken);
  reportBroken(broken);
}
