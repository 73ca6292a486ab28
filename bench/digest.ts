/**
 * `npm run bench:digest`: one scheduler pass that posts 2,000 digests — 2,000 linked channels across
 * 100 workspaces (one planning organization each) — against the sandbox with 50 ms added to every
 * response and a loopback fake Slack API, both in a child process. Reports the pass's wall time and
 * this process's peak memory next to the floor the concurrency limits imply, as a markdown table.
 *
 * Store: SQLite in a temporary folder, or PostgreSQL (a fresh schema, dropped afterwards) when
 * DATABASE_URL is set. Options: --channels 2000 --workspaces 100 --features 10 --latency 50
 * --per-workspace 2 --per-org 4 --gather 4.
 * Exits non-zero when a digest is not posted.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import pg from 'pg';
import { pino } from 'pino';
import { createClients } from '../src/clients.js';
import { planningAccessFor } from '../src/digest/access.js';
import { createDigestScheduler } from '../src/digest/scheduler.js';
import { createLogger } from '../src/logger.js';
import { closePlanningPools } from '../src/planning/index.js';
import { createKeyring, openStore } from '../src/store/index.js';
import type { DigestServices } from './lib/digest-services.js';

const { values: args } = parseArgs({
  options: {
    channels: { type: 'string', default: '2000' },
    workspaces: { type: 'string', default: '100' },
    features: { type: 'string', default: '10' },
    latency: { type: 'string', default: '50' },
    'per-workspace': { type: 'string', default: '2' },
    'per-org': { type: 'string', default: '4' },
    gather: { type: 'string', default: '4' },
  },
});
const CHANNELS = Number(args.channels);
const WORKSPACES = Number(args.workspaces);
const FEATURES = Number(args.features);
const LATENCY = Number(args.latency);
const PER_WORKSPACE = Number(args['per-workspace']);
const PER_ORG = Number(args['per-org']);
const GATHER = Number(args.gather);
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC', 'Asia/Tokyo'];

/** Starts the sandbox and the fake Slack in a child process; resolves once they are seeded. */
async function startServices() {
  const script = fileURLToPath(new URL('./lib/digest-services.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, JSON.stringify({ orgs: WORKSPACES, features: FEATURES, latencyMs: LATENCY })],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`services exited early (${code})`)));
  });
  const services = JSON.parse(first) as DigestServices;
  return {
    ...services,
    /** Messages the fake Slack received, and the CPU time of the services' process so far. */
    async stats() {
      const response = await fetch(`${services.slackApiUrl}_stats`);
      return (await response.json()) as { postCount: number; cpuMs: number };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

/** The store: PostgreSQL in a fresh schema when DATABASE_URL is set, SQLite in a temp folder otherwise. */
async function benchStore() {
  const keyring = createKeyring({ current: randomBytes(32).toString('base64') });
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const schema = `bench_digest_${randomBytes(4).toString('hex')}`;
    const store = await openStore({ databaseUrl, pgSchema: schema, keyring });
    const drop = async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    };
    return { store, label: 'PostgreSQL', cleanup: drop };
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-digest-'));
  const store = await openStore({ dataDir: dir, keyring });
  return { store, label: 'SQLite (file)', cleanup: () => rm(dir, { recursive: true, force: true }) };
}

const services = await startServices();
const { store, label, cleanup } = await benchStore();
try {
  for (const [i, org] of services.orgs.entries()) {
    await store.workspaces.setAdminToken(`T${String(i).padStart(3, '0')}`, org.ownerToken, org.orgId);
  }
  for (let c = 0; c < CHANNELS; c += 1) {
    const w = c % WORKSPACES;
    const org = services.orgs[w];
    if (!org) throw new Error('fewer organizations than workspaces');
    await store.links.upsert({
      workspaceId: `T${String(w).padStart(3, '0')}`,
      slackChannelId: `C${String(c).padStart(5, '0')}`,
      teamId: org.teamId,
      channelId: org.channelId,
      createdBy: 'U0',
      // Due at any time of day, in every zone: the pass posts them all.
      digestTime: '00:00',
      timeZone: ZONES[c % ZONES.length] ?? 'UTC',
      weekdaysOnly: false,
    });
  }

  const logger = createLogger({ level: 'warn', destination: pino.destination({ fd: 2, sync: true }) });
  const clients = createClients({
    planningUrl: services.planningUrl,
    slackApiUrl: services.slackApiUrl,
    logger,
  });
  const scheduler = createDigestScheduler({
    store,
    botTokenFor: async () => 'xoxb-bench-token',
    planningClientFor: planningAccessFor({ store, clients }),
    logger,
    slackClientFor: clients.slack,
    perWorkspace: PER_WORKSPACE,
    perOrganization: PER_ORG,
    gather: { concurrency: GATHER },
  });

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
  const report = await scheduler.tick();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  clearInterval(sampler);
  sample();

  const servicesAfter = await services.stats();
  const posted = servicesAfter.postCount - servicesBefore.postCount;
  const servicesCpuS = (servicesAfter.cpuMs - servicesBefore.cpuMs) / 1000;
  // Each digest: one features page, then its open tasks read `GATHER` at a time; a workspace runs
  // PER_WORKSPACE digests at once (one organization per workspace, so PER_ORG is not the binding limit
  // while PER_ORG ≥ PER_WORKSPACE).
  const callsPerDigest = 1 + FEATURES;
  const digestPathMs = (1 + Math.ceil(FEATURES / GATHER)) * LATENCY;
  const perWorkspace = Math.ceil(CHANNELS / WORKSPACES);
  const concurrentDigests = Math.min(PER_WORKSPACE, PER_ORG);
  const floorMs = Math.ceil(perWorkspace / concurrentDigests) * digestPathMs;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

  const rows: [string, string][] = [
    ['channels / workspaces / organizations', `${CHANNELS} / ${WORKSPACES} / ${services.orgs.length}`],
    ['store', label],
    ['service latency added', `${LATENCY} ms per response`],
    ['planning calls per digest', `${callsPerDigest} (1 features page + ${FEATURES} task reads)`],
    [
      'limits',
      `${PER_WORKSPACE} digests per workspace, ${PER_ORG} per organization, ${GATHER} reads per digest`,
    ],
    ['digests posted (fake Slack) / recorded', `${posted} / ${report.posted}`],
    ['failed', String(report.failed)],
    ['**wall time of the pass**', `**${(wallMs / 1000).toFixed(2)} s**`],
    [
      'floor from the limits',
      `${(floorMs / 1000).toFixed(2)} s = ⌈${perWorkspace} digests per workspace ÷ ${concurrentDigests}⌉ × (1 + ⌈${FEATURES} ÷ ${GATHER}⌉) × ${LATENCY} ms`,
    ],
    ['wall ÷ floor', (wallMs / floorMs).toFixed(2)],
    [
      'CPU during the pass: scheduler / sandbox + fake Slack',
      `${((cpu.user + cpu.system) / 1e6).toFixed(2)} s / ${servicesCpuS.toFixed(2)} s`,
    ],
    ['**peak RSS** (before the pass)', `**${mb(peak.rss)}** (${mb(rssBefore)})`],
    ['peak V8 heap used', mb(peak.heap)],
    ['machine', `${availableParallelism()} CPUs, Node ${process.version}`],
  ];
  console.log('\n| digest benchmark | |\n|---|---|');
  for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
  if (posted !== CHANNELS || report.posted !== CHANNELS) {
    console.error(`\nExpected ${CHANNELS} digests, ${posted} were posted and ${report.posted} recorded.`);
    process.exitCode = 1;
  }
} finally {
  await store.close();
  await cleanup();
  await closePlanningPools();
  await services.stop();
}
