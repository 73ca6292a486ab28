/**
 * `npm run bench:digest`: scheduler passes that each post every due digest — by default 2,000
 * linked channels across 100 workspaces (one planning organization each), then 20,000 across 1,000
 * — against the sandbox with 50 ms added to every response and the playground's fake Slack (the
 * tests' one) on loopback, both in a child process. Each size runs in a process of its own (so its
 * peak memory is its own; its links are made in the store beforehand by another process, so that
 * what making 20,000 of them leaves behind is not counted as the pass's), followed by the bare
 * floor of the same size in the same kind of process
 * (bench/lib/digest-floor.ts: the same service reads and Slack post per digest, undici and
 * JSON.parse only). The results are printed side by side as a markdown table: the pass's wall time
 * next to the floor the limits imply, the scheduler's CPU per digest and its ratio to the bare
 * floor's, and its peak RSS — with the targets (CPU ≤ 2× the bare floor (issue 39) and wall ≤ 1.5× the floor
 * from the limits at the first size; peak RSS at the last within 1.2× of the first).
 *
 * Store: SQLite in a temporary folder, or PostgreSQL (a fresh schema, dropped afterwards) when
 * DATABASE_URL is set. Options: --sizes 2000/100,20000/1000 (channels/workspaces) --features 10
 * --latency 50 --per-workspace 2 --per-org 4 --gather 4 --in-flight 200 (digests at once per pass)
 * --connections N (sockets to the service; default the client's) --posts-per-minute 300
 * --channel-interval 1000 (the app's posting limiter, per workspace and per channel: its defaults,
 * each workspace posting with a bot token of its own as installs do).
 * Exits non-zero when a digest is not posted.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { pino } from 'pino';
import { createClients } from '../src/clients.js';
import { planningAccessFor } from '../src/digest/access.js';
import { createDigestScheduler } from '../src/digest/scheduler.js';
import { DEFAULT_POST_LIMITS } from '../src/limits.js';
import { createLogger } from '../src/logger.js';
import { closePlanningPools, DEFAULT_MAX_CONNECTIONS } from '../src/planning/index.js';
import { type BenchStorePlace, newBenchStorePlace, openBenchStoreAt } from './lib/bench-store.js';
import { bareDigests } from './lib/digest-floor.js';
import { benchBotToken, benchChannel, benchWorkspace } from './lib/digest-names.js';
import type { DigestServices } from './lib/digest-services.js';
import { startServicesProcess } from './lib/services-process.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '2000/100,20000/1000' },
    /** Internal: run one size in this process and print its result as JSON. */
    one: { type: 'string' },
    /** Internal, with --one: run the bare floor (bench/lib/digest-floor.ts) instead of the app. */
    bare: { type: 'boolean', default: false },
    /** Internal, from --one: make the links in the store its stdin names ({@link SeedOrder}), then exit. */
    seed: { type: 'boolean', default: false },
    channels: { type: 'string', default: '2000' },
    workspaces: { type: 'string', default: '100' },
    features: { type: 'string', default: '10' },
    latency: { type: 'string', default: '50' },
    'per-workspace': { type: 'string', default: '2' },
    'per-org': { type: 'string', default: '4' },
    gather: { type: 'string', default: '4' },
    'in-flight': { type: 'string', default: '200' },
    connections: { type: 'string', default: String(DEFAULT_MAX_CONNECTIONS) },
    'posts-per-minute': { type: 'string', default: String(DEFAULT_POST_LIMITS.perWorkspacePerMinute) },
    'channel-interval': { type: 'string', default: String(DEFAULT_POST_LIMITS.channelIntervalMs) },
  },
});
const CHANNELS = Number(args.channels);
const WORKSPACES = Number(args.workspaces);
const FEATURES = Number(args.features);
const LATENCY = Number(args.latency);
const PER_WORKSPACE = Number(args['per-workspace']);
const PER_ORG = Number(args['per-org']);
const GATHER = Number(args.gather);
const IN_FLIGHT = Number(args['in-flight']);
const CONNECTIONS = Number(args.connections);
const POST_LIMITS = {
  perWorkspacePerMinute: Number(args['posts-per-minute']),
  channelIntervalMs: Number(args['channel-interval']),
};
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC', 'Asia/Tokyo'];

/** Starts the sandbox and the fake Slack in a child process; resolves once they are seeded. */
async function startServices() {
  const started = await startServicesProcess({
    orgs: WORKSPACES,
    channels: CHANNELS,
    features: FEATURES,
    latencyMs: LATENCY,
  });
  const services = started.ready as DigestServices;
  return {
    ...services,
    /** Messages the fake Slack received, and the CPU time of the services' process so far. */
    async stats() {
      const response = await fetch(services.statsUrl);
      return (await response.json()) as { postCount: number; cpuMs: number };
    },
    stop: started.stop,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the seeding process is given on its stdin: the store to fill and the organizations. */
interface SeedOrder {
  place: BenchStorePlace;
  orgs: Pick<DigestServices['orgs'][number], 'orgId' | 'ownerToken' | 'teamId' | 'channelId'>[];
}

/**
 * Makes the links (`--seed`): each workspace's admin token, then CHANNELS links. The store's clock
 * runs a day behind here: a link's first digest is at its next time after it was made
 * (src/digest/time.ts), so links made "yesterday" are due today, as in a deployment that has been
 * running.
 */
async function runSeed() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const { place, orgs } = JSON.parse(input) as SeedOrder;
  const { store } = await openBenchStoreAt(place, () => Date.now() - DAY_MS);
  try {
    for (const [i, org] of orgs.entries()) {
      await store.workspaces.setAdminToken(benchWorkspace(i), org.ownerToken, org.orgId);
    }
    for (let c = 0; c < CHANNELS; c += 1) {
      const w = c % WORKSPACES;
      const org = orgs[w];
      if (!org) throw new Error('fewer organizations than workspaces');
      await store.links.upsert({
        workspaceId: benchWorkspace(w),
        slackChannelId: benchChannel(c),
        teamId: org.teamId,
        channelId: org.channelId,
        createdBy: 'U0',
        // Due at any time of day, in every zone: the pass posts them all.
        digestTime: '00:00',
        timeZone: ZONES[c % ZONES.length] ?? 'UTC',
        weekdaysOnly: false,
      });
    }
  } finally {
    await store.close();
  }
}

/** Runs `--seed` in a process of its own and waits for it to be done. */
async function seedInItsOwnProcess(order: SeedOrder) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--seed',
      '--channels',
      String(CHANNELS),
      '--workspaces',
      String(WORKSPACES),
    ],
    // Its stdout is not ours: the parent reads our last stdout line as the result.
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  child.stdin.end(JSON.stringify(order));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`seeding the store failed (${code})`);
}

interface RunResult {
  channels: number;
  workspaces: number;
  orgs: number;
  store: string;
  posted: number;
  recorded: number;
  failed: number;
  wallMs: number;
  cpuMs: number;
  servicesCpuMs: number;
  peakRss: number;
  rssBefore: number;
  peakHeap: number;
  /** V8 heap used after the pass and a full GC: what the process still holds, garbage aside. */
  liveHeapAfter: number;
}

/** Samples peak memory while `work` runs; measures its wall and CPU time, and the services' CPU. */
async function measured(
  services: Awaited<ReturnType<typeof startServices>>,
  work: () => Promise<{ recorded: number; failed: number }>,
) {
  // What starting left behind is collected first: the pass's peak is then the pass's own.
  (globalThis as { gc?: () => void }).gc?.();
  const peak = { rss: 0, heap: 0 };
  const sample = () => {
    peak.rss = Math.max(peak.rss, process.memoryUsage().rss);
    peak.heap = Math.max(peak.heap, getHeapStatistics().used_heap_size);
  };
  sample();
  const rssBefore = peak.rss;
  const sampler = setInterval(sample, 20);
  const servicesBefore = await services.stats();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const { recorded, failed } = await work();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  sample();
  (globalThis as { gc?: () => void }).gc?.();
  const liveHeapAfter = process.memoryUsage().heapUsed;
  const servicesAfter = await services.stats();
  return {
    posted: servicesAfter.postCount - servicesBefore.postCount,
    recorded,
    failed,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    servicesCpuMs: servicesAfter.cpuMs - servicesBefore.cpuMs,
    peakRss: peak.rss,
    rssBefore,
    peakHeap: peak.heap,
    liveHeapAfter,
  };
}

/** The bare floor of one size in this process: the same reads and posts, nothing else. */
async function runBare() {
  const services = await startServices();
  try {
    const measures = await measured(services, async () => {
      const posted = await bareDigests(services, {
        channels: CHANNELS,
        workspaces: WORKSPACES,
        gather: GATHER,
        inFlight: IN_FLIGHT,
        connections: CONNECTIONS,
      });
      return { recorded: posted, failed: CHANNELS - posted };
    });
    const result: RunResult = {
      channels: CHANNELS,
      workspaces: WORKSPACES,
      orgs: services.orgs.length,
      store: 'none',
      ...measures,
    };
    console.log(JSON.stringify(result));
  } finally {
    await services.stop();
  }
}

/**
 * One size in this process: has the links made by another process, runs one pass over them, prints
 * a {@link RunResult} line. The store is PostgreSQL in a fresh schema when DATABASE_URL is set,
 * SQLite in a temporary folder otherwise.
 */
async function runOne() {
  const services = await startServices();
  const { place, cleanup } = await newBenchStorePlace({
    name: 'bench_digest',
    databaseUrl: process.env.DATABASE_URL,
  });
  let store: Awaited<ReturnType<typeof openBenchStoreAt>>['store'] | undefined;
  try {
    await seedInItsOwnProcess({ place, orgs: services.orgs });
    const opened = await openBenchStoreAt(place, Date.now);
    store = opened.store;
    const { label } = opened;

    const logger = createLogger({ level: 'warn', destination: pino.destination({ fd: 2, sync: true }) });
    const clients = createClients({
      planningUrl: services.planningUrl,
      slackApiUrl: services.slackApiUrl,
      logger,
      planningOptions: { maxConnections: CONNECTIONS },
      postLimits: POST_LIMITS,
    });
    const scheduler = createDigestScheduler({
      store,
      botTokenFor: async (workspaceId) => benchBotToken(Number(workspaceId.slice(1))),
      planningClientFor: planningAccessFor({ store, clients }),
      logger,
      slack: clients.slackBots,
      perWorkspace: PER_WORKSPACE,
      perOrganization: PER_ORG,
      maxInFlight: IN_FLIGHT,
      gather: { concurrency: GATHER },
      // Every zone's 00:00 digest is due whatever the hour of the run (the app catches up 4 hours).
      catchUpMs: DAY_MS,
    });

    const measures = await measured(services, async () => {
      const report = await scheduler.tick();
      return { recorded: report.posted, failed: report.failed };
    });
    const result: RunResult = {
      channels: CHANNELS,
      workspaces: WORKSPACES,
      orgs: services.orgs.length,
      store: label,
      ...measures,
    };
    console.log(JSON.stringify(result));
  } finally {
    await store?.close();
    await cleanup();
    await closePlanningPools();
    await services.stop();
  }
}

/** The floor of a pass from the limits: the slowest of what each bound alone allows. */
function floorOf(r: Pick<RunResult, 'channels' | 'workspaces'>) {
  const callsPerDigest = 1 + FEATURES;
  // One features page, then the open tasks `GATHER` at a time.
  const digestPathMs = (1 + Math.ceil(FEATURES / GATHER)) * LATENCY;
  const perWorkspace = Math.ceil(r.channels / r.workspaces);
  // One organization per workspace: PER_ORG binds only when below PER_WORKSPACE.
  const concurrent = Math.min(PER_WORKSPACE, PER_ORG);
  const bounds = {
    workspaces: Math.ceil(perWorkspace / concurrent) * digestPathMs,
    // The posting limiter: a workspace's messages go one every 60 s ÷ posts-per-minute (one per channel).
    posting: digestPathMs + ((perWorkspace - 1) * 60_000) / POST_LIMITS.perWorkspacePerMinute,
    'in flight': Math.ceil(r.channels / IN_FLIGHT) * digestPathMs,
    sockets: Math.ceil((r.channels * callsPerDigest) / CONNECTIONS) * LATENCY,
  };
  const [bound, ms] = Object.entries(bounds).sort((a, b) => b[1] - a[1])[0]!;
  return { ms, bound, bounds, callsPerDigest, digestPathMs, perWorkspace, concurrent };
}

/** Runs every size in a child process, one after another, and prints them side by side. */
async function runAll() {
  const sizes = (args.sizes ?? '').split(',').map((size) => {
    const [channels, workspaces] = size.split('/').map(Number);
    if (!channels || !workspaces) throw new Error(`--sizes: "${size}" is not channels/workspaces`);
    return { channels, workspaces };
  });
  const passOn = process.argv.slice(2).filter((a, i, all) => a !== '--sizes' && all[i - 1] !== '--sizes');
  /** Runs one size in a child process of its own (so its peak memory is its own). */
  const runChild = async (size: { channels: number; workspaces: number }, bare: boolean) => {
    console.error(
      `bench:digest: ${size.channels} channels / ${size.workspaces} workspaces${bare ? ', bare floor' : ''}…`,
    );
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        ...passOn,
        '--one',
        '1',
        ...(bare ? ['--bare'] : []),
        '--channels',
        String(size.channels),
        '--workspaces',
        String(size.workspaces),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const line = out.trim().split('\n').at(-1) ?? '';
    if (code !== 0 || !line.startsWith('{'))
      throw new Error(`the ${size.channels}-channel ${bare ? 'bare ' : ''}run failed (${code})`);
    return JSON.parse(line) as RunResult;
  };
  const results: RunResult[] = [];
  const floors: RunResult[] = [];
  for (const size of sizes) {
    results.push(await runChild(size, false));
    floors.push(await runChild(size, true));
  }

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const row = (name: string, cell: (r: RunResult) => string) =>
    console.log(`| ${name} | ${results.map(cell).join(' | ')} |`);
  console.log(`\n| digest benchmark | ${results.map((r) => `${r.channels} channels`).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---').join('|')}|`);
  row('channels / workspaces / organizations', (r) => `${r.channels} / ${r.workspaces} / ${r.orgs}`);
  row('store', (r) => r.store);
  row('service latency added', () => `${LATENCY} ms per response`);
  row('planning calls per digest', () => `${1 + FEATURES} (1 features page + ${FEATURES} task reads)`);
  row(
    'limits',
    () =>
      `${PER_WORKSPACE} digests per workspace, ${PER_ORG} per organization, ${IN_FLIGHT} per pass, ` +
      `${GATHER} reads per digest, ${CONNECTIONS} sockets; posting limiter ` +
      `${POST_LIMITS.perWorkspacePerMinute} messages per minute per workspace (one bot token each), ` +
      `${POST_LIMITS.channelIntervalMs} ms per channel`,
  );
  row('digests posted (fake Slack) / recorded / failed', (r) => `${r.posted} / ${r.recorded} / ${r.failed}`);
  row('**wall time of the pass**', (r) => `**${(r.wallMs / 1000).toFixed(2)} s**`);
  row('floor from the limits', (r) => {
    const f = floorOf(r);
    const parts = Object.entries(f.bounds).map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)} s`);
    return `${(f.ms / 1000).toFixed(2)} s (${f.bound}; ${parts.join(', ')})`;
  });
  row('wall ÷ floor', (r) => (r.wallMs / floorOf(r).ms).toFixed(2));
  const floorAt = (r: RunResult) => floors[results.indexOf(r)]!;
  row('**scheduler CPU per digest**', (r) => `**${(r.cpuMs / r.channels).toFixed(2)} ms**`);
  row(
    'bare floor (same reads and post, undici + JSON.parse): CPU per digest / wall',
    (r) => `${(floorAt(r).cpuMs / r.channels).toFixed(2)} ms / ${(floorAt(r).wallMs / 1000).toFixed(2)} s`,
  );
  row('**CPU ÷ bare floor**', (r) => `**${(r.cpuMs / floorAt(r).cpuMs).toFixed(2)}×**`);
  row('CPU during the pass: scheduler / sandbox + fake Slack', (r) => {
    return `${(r.cpuMs / 1000).toFixed(2)} s / ${(r.servicesCpuMs / 1000).toFixed(2)} s`;
  });
  row(
    '**peak RSS** (before the pass, after a GC) → growth',
    (r) => `**${mb(r.peakRss)}** (${mb(r.rssBefore)}) → +${mb(r.peakRss - r.rssBefore)}`,
  );
  row('peak V8 heap used', (r) => mb(r.peakHeap));
  // The peak is mostly garbage not yet collected; what is left after a GC is what the process holds
  // (per-workspace clients, caches), which V8 multiplies into its next peak.
  row('V8 heap left after the pass and a full GC', (r) => mb(r.liveHeapAfter));
  const first = results[0]!;
  const last = results.at(-1)!;
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const cpu = first.cpuMs / floorAt(first).cpuMs;
  const wall = first.wallMs / floorOf(first).ms;
  const rss = last.peakRss / first.peakRss;
  console.log(
    `\nTargets at ${first.channels} channels: CPU per digest ≤ 2× the bare floor's: ${verdict(cpu <= 2)} (${cpu.toFixed(2)}×); ` +
      `wall ≤ 1.5× the floor from the limits: ${verdict(wall <= 1.5)} (${wall.toFixed(2)}×).` +
      (results.length > 1
        ? ` Peak RSS at ${last.channels} ≤ 1.2× at ${first.channels}: ${verdict(rss <= 1.2)} (${rss.toFixed(2)}×).`
        : ''),
  );
  console.log(
    `${availableParallelism()} CPUs, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}.`,
  );
  if ([...results, ...floors].some((r) => r.posted !== r.channels || r.recorded !== r.channels)) {
    console.error('\nA run did not post and record every digest.');
    process.exitCode = 1;
  }
}

if (args.seed) await runSeed();
else if (args.one) await (args.bare ? runBare() : runOne());
else await runAll();
