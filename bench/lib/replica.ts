/**
 * One replica of the app's digest work, in a process of its own, for bench:replicas and the
 * 3-replica test: the app's scheduler with the app's wiring (store on PostgreSQL, `createClients`
 * with the posting limiter, `planningAccessFor`), ticking as of `tickAt` every `tickMs` — as the
 * app's minute tick does, only faster — until a tick finds nothing left to do that day (every
 * digest posted, by this replica or another). Prints `{"claimed":true}` once it holds its first
 * claim (the bench kills a replica mid-pass after that), then one JSON line: what it posted and
 * recovered, its wall and CPU time, and its peak RSS.
 *
 *   node --import tsx bench/lib/replica.ts '<json ReplicaOptions>'
 */
import { pino } from 'pino';
import { createClients } from '../../src/clients.js';
import { planningAccessFor } from '../../src/digest/access.js';
import { createDigestScheduler, type DigestStore } from '../../src/digest/scheduler.js';
import type { PostLimits } from '../../src/limits.js';
import { createLogger } from '../../src/logger.js';
import { closePlanningPools } from '../../src/planning/index.js';
import { createKeyring, openStore } from '../../src/store/index.js';
import { benchBotToken } from './digest-names.js';

export interface ReplicaOptions {
  databaseUrl: string;
  pgSchema: string;
  /** ENCRYPTION_KEY of the store (base64). */
  key: string;
  planningUrl: string;
  slackApiUrl: string;
  /** The instant every tick runs as of (all links due then). */
  tickAt: string;
  tickMs: number;
  leaseMs: number;
  retryBaseMs: number;
  postLimits: PostLimits;
  perWorkspace?: number;
  inFlight?: number;
}

export interface ReplicaResult {
  pid: number;
  posted: number;
  recovered: number;
  failed: number;
  ticks: number;
  /** Ticks that could not read every link (the store unreachable) or failed outright. */
  failedTicks: number;
  wallMs: number;
  cpuMs: number;
  peakRss: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as ReplicaOptions;
const started = performance.now();
const cpuBefore = process.cpuUsage();
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

const logger = createLogger({ level: 'warn', destination: pino.destination({ fd: 2, sync: true }) });
const store = await openStore({
  databaseUrl: options.databaseUrl,
  pgSchema: options.pgSchema,
  keyring: createKeyring({ current: options.key }),
  logger: logger.child({ component: 'store' }),
});
let toldClaimed = false;
const digests: DigestStore['digests'] = {
  claim: (input) => store.digests.claim(input),
  claimMany: async (keys, batch) => {
    const results = await store.digests.claimMany(keys, batch);
    if (!toldClaimed && results.some((r) => r.claimed)) {
      toldClaimed = true;
      process.stdout.write(`${JSON.stringify({ claimed: true })}\n`);
    }
    return results;
  },
  complete: (input) => store.digests.complete(input),
  lastPosted: (ws, ch) => store.digests.lastPosted(ws, ch),
};
const clients = createClients({
  planningUrl: options.planningUrl,
  slackApiUrl: options.slackApiUrl,
  logger,
  postLimits: options.postLimits,
});
const scheduler = createDigestScheduler({
  store: { links: store.links, digests },
  botTokenFor: async (workspaceId) => benchBotToken(Number(workspaceId.slice(1))),
  planningClientFor: planningAccessFor({ store, clients }),
  logger,
  slack: clients.slackBots,
  leaseMs: options.leaseMs,
  retryBaseMs: options.retryBaseMs,
  ...(options.perWorkspace ? { perWorkspace: options.perWorkspace } : {}),
  ...(options.inFlight ? { maxInFlight: options.inFlight } : {}),
});

const result: ReplicaResult = {
  pid: process.pid,
  posted: 0,
  recovered: 0,
  failed: 0,
  ticks: 0,
  failedTicks: 0,
  wallMs: 0,
  cpuMs: 0,
  peakRss: 0,
};
const at = new Date(options.tickAt);
for (;;) {
  const report = await scheduler.tick(at).catch((error: unknown) => {
    // As the app's minute tick does (src/app/jobs.ts): a failed pass is logged, the next one runs.
    logger.error({ err: error }, 'replica: digest pass failed; the next tick runs again');
    return undefined;
  });
  result.ticks += 1;
  if (!report) result.failedTicks += 1;
  else {
    result.posted += report.posted;
    result.recovered += report.recovered;
    result.failed += report.failed;
    if (report.unread) result.failedTicks += 1;
    // Nothing due that is not known done, every link read: the day's digests are all posted (here
    // or elsewhere).
    else if (report.due === 0) break;
  }
  await new Promise((resolve) => setTimeout(resolve, options.tickMs));
}
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
result.wallMs = performance.now() - started;
result.cpuMs = (cpu.user + cpu.system) / 1000;
result.peakRss = Math.max(peakRss, process.memoryUsage().rss);
process.stdout.write(`${JSON.stringify(result)}\n`);
await store.close();
await closePlanningPools();
