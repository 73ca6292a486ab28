/**
 * `npm run bench:client`: requests per second of the planning client's `features.list()` (undici +
 * zod validation of a 500-feature page) against bare `undici.request` + `body.json()` on the same
 * page, same concurrency, same duration. The page is served by a child process over loopback. Also
 * reports this process's CPU time per request, which other load on the machine disturbs less than
 * requests per second.
 *
 * Options: --seconds 5 --warmup 1 --rounds 3 --concurrency 16 --items 500.
 * Exits non-zero only when a request fails; missing the target is reported, not fatal.
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { closePlanningPools, createPlanningClient, FeaturesList } from '../src/planning/index.js';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    items: { type: 'string', default: '500' },
  },
});
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const ROUNDS = Number(args.rounds);
const CONCURRENCY = Number(args.concurrency);
const ITEMS = Number(args.items);
const TARGET = 0.8;
const LIST_PATH = '/v1/teams/team-1/channels/chan-1/features';

/** A hex id like the service's. */
const id = (n: number) => n.toString(16).padStart(24, '0');
const STAGES = ['planning', 'validation', 'execution', 'deep context'] as const;
const TASK_STATES = ['idle', 'in progress', 'in review', 'done'] as const;

/** A realistic FeaturesList page: FeatureLite items with a few assumptions and tasks each. */
function featuresPage(count: number) {
  const features = Array.from({ length: count }, (_, i) => ({
    id: id(1_000_000 + i),
    teamId: id(1),
    channelId: id(2),
    heading: `Feature ${i}: make the weekly planning review faster for every team`,
    authorUserId: id(100 + (i % 7)),
    stage: STAGES[i % 4],
    canAdvance: i % 3 === 0,
    focus: 'utilitas',
    priority: 1 + (i % 10),
    assumptions: Array.from({ length: 3 }, (_, a) => ({
      id: id(2_000_000 + i * 10 + a),
      authorUserId: id(100 + (a % 5)),
      experiment: { authorUserIds: [id(100), id(101)], confirmed: a === 0, state: 'running' },
    })),
    tasks: Array.from({ length: 4 }, (_, t) => ({
      id: id(3_000_000 + i * 10 + t),
      assigneeUserId: id(100 + (t % 6)),
      heading: `Task ${t} of feature ${i}`,
      state: TASK_STATES[t % 4],
      notionIds: [id(500 + t), id(600 + t)],
    })),
    createdAt: '2025-01-15T09:30:00.000Z',
    updatedAt: '2025-02-01T16:45:00.000Z',
  }));
  return { pageNumber: 1, pageSize: count, total: count * 3, features };
}

/**
 * Serves `body` at every path from a child process, so the server neither shares the measured event
 * loop nor counts in this process's CPU time. Resolves with its origin.
 */
async function startServer(body: string): Promise<{ origin: string; stop: () => void }> {
  const source = `
    const { createServer } = require('node:http');
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => {
      const body = Buffer.concat(chunks);
      const server = createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
      });
      server.keepAliveTimeout = 60000;
      server.listen(0, '127.0.0.1', () => console.log(server.address().port));
    });
  `;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(body);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (line: Buffer) => resolve(Number(line.toString().trim())));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bench server exited with ${code}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

interface Rate {
  perSecond: number;
  /** This process's CPU time (user + system) per request, in ms. */
  cpuMs: number;
}

/** Throughput of `once` with `concurrency` calls in flight for `seconds`. */
async function rate(once: () => Promise<void>, seconds: number, concurrency: number): Promise<Rate> {
  let done = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const lane = async () => {
    while (performance.now() < deadline) {
      await once();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const used = process.cpuUsage(cpu);
  return {
    perSecond: done / ((performance.now() - started) / 1000),
    cpuMs: (used.user + used.system) / 1000 / done,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const page = featuresPage(ITEMS);
  const body = JSON.stringify(page);
  const server = await startServer(body);
  const barePool = new Pool(server.origin, { connect: { timeout: 5_000 } });
  const client = createPlanningClient({ baseUrl: `${server.origin}/v1`, token: 'bench-token' });

  const bare = async () => {
    const response = await barePool.request({ path: LIST_PATH, method: 'GET' });
    const json = (await response.body.json()) as { features: unknown[] };
    if (response.statusCode !== 200 || json.features.length !== ITEMS) throw new Error('bad bare answer');
  };
  const viaClient = async () => {
    const result = await client.features.list('team-1', 'chan-1', { pageSize: ITEMS });
    if (result.features.length !== ITEMS) throw new Error('bad client answer');
  };

  // The client must return exactly what a direct parse gives, or the comparison means nothing.
  const checked = await client.features.list('team-1', 'chan-1', { pageSize: ITEMS });
  if (JSON.stringify(checked) !== JSON.stringify(FeaturesList.parse(page))) {
    throw new Error('the client did not return the parsed page');
  }

  const runs: Record<'bare' | 'client', Rate[]> = { bare: [], client: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so warm-up order and drift do not favour one side.
    const order = round % 2 === 0 ? (['bare', 'client'] as const) : (['client', 'bare'] as const);
    for (const which of order) {
      const once = which === 'bare' ? bare : viaClient;
      await rate(once, WARMUP, CONCURRENCY);
      const measured = await rate(once, SECONDS, CONCURRENCY);
      runs[which].push(measured);
      const { perSecond, cpuMs } = measured;
      console.error(
        `round ${round + 1}: ${which.padEnd(6)} ${perSecond.toFixed(1)} req/s, ${cpuMs.toFixed(2)} CPU ms/req`,
      );
    }
  }

  const bareRate = median(runs.bare.map((r) => r.perSecond));
  const clientRate = median(runs.client.map((r) => r.perSecond));
  const bareCpu = median(runs.bare.map((r) => r.cpuMs));
  const clientCpu = median(runs.client.map((r) => r.cpuMs));
  const ratio = clientRate / bareRate;
  const kb = (Buffer.byteLength(body) / 1024).toFixed(0);
  console.log(`\nnode ${process.version}, ${cpus().length} CPUs, ${ROUNDS} rounds × ${SECONDS} s, medians`);
  console.log(
    '| page | in flight | bare undici req/s | client req/s | client / bare | CPU ms/req bare → client |',
  );
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| ${ITEMS} features (${kb} KB) | ${CONCURRENCY} | ${bareRate.toFixed(1)} | ${clientRate.toFixed(1)} | ` +
      `${(ratio * 100).toFixed(0)}% | ${bareCpu.toFixed(2)} → ${clientCpu.toFixed(2)} (${((bareCpu / clientCpu) * 100).toFixed(0)}%) |`,
  );
  console.log(`\ntarget client ≥ ${TARGET * 100}% of bare: ${ratio >= TARGET ? 'met' : 'MISSED'}`);

  await barePool.close();
  await closePlanningPools();
  server.stop();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
