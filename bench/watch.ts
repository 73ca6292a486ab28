/**
 * `npm run bench:watch` (issue 24 item 7): what a watch pass costs per linked channel, next to the
 * digest's pass over the same channels in the same run. By default 2,000 linked channels over 100
 * workspaces (one planning organization and one bot token each), each linked to a planning channel
 * of its own holding 10 features of one open task each, the sandbox and the playground's fake
 * Slack (the tests' one) in a child process (bench/lib/services-process.ts).
 *
 * Two parts, each in a process of its own (so its peak memory is its own), each with the same
 * services and seeding (admin token per workspace, the links as bench:digest makes them, each
 * workspace's planning member connected as a Slack user):
 * - **watch**: the app's watch with its Slack side, built by the app's jobs (src/app/jobs.ts
 *   `appJobs`, its clients counting every call through `createMetrics()`). Before the first pass, a
 *   feature card and a task card are posted (src/slack/kit/live-cards.ts `postCard`, the flows'
 *   renderers) for the feature of each channel that will change. A first tick (not measured) gives
 *   each link, made before the watch ran, its first look at its own slot over the interval (a first
 *   deploy spreads the baselines); pass 1 is the baseline (every link's first look), pass 2 finds
 *   nothing changed; then `--changed` of the channels (1%) have
 *   that feature changed through the sandbox's API as another tool would (its task assigned to the
 *   member, moved to done, the feature advanced) and pass 3 finds them. Each pass is one tick of
 *   the watch with its own clock (store and watch) moved on two intervals, so every link is due in
 *   that tick — in the app the same work is spread over the minute ticks of an interval.
 * - **digest**: the digest scheduler's pass over the same channels, built as bench/digest.ts builds
 *   it (its limits at their defaults; the links made the day before so every digest is due).
 *
 * Each pass: wall time, CPU per channel, planning calls per channel (the clients' own
 * `planningRequests`), Slack calls by method (the clients' `slackApiCalls`, and what the fake
 * accepted), peak RSS. The bench fails (exit 1) unless every link was seen in every watch pass,
 * the second found nothing and made no Slack call, and the third updated two cards, posted two
 * activity messages and sent one DM (the assignment) per changed channel and nothing else; and
 * unless the digest posted every digest.
 *
 * With --canvas (`npm run bench:canvas`), a third part between them: the watch's passes with every
 * channel's canvas of the plan on (issue 37 item 7) — see `runWatch`.
 *
 * Store: SQLite in a temporary folder, or PostgreSQL (a fresh schema, dropped afterwards) when
 * TEST_DATABASE_URL or DATABASE_URL is set. Options: --channels 2000 --workspaces 100 --features 10
 * --changed 0.01 --latency 0 (ms added to every service response) --interval (WATCH_INTERVAL_MS,
 * default the app's).
 */
import { spawn } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { appJobs } from '../src/app/jobs.js';
import { createClients } from '../src/clients.js';
import { DEFAULT_WATCH_INTERVAL_MS, loadConfig } from '../src/config.js';
import { planningAccessFor } from '../src/digest/access.js';
import { createDigestScheduler } from '../src/digest/scheduler.js';
import { DEFAULT_POST_LIMITS } from '../src/limits.js';
import { createLogger } from '../src/logger.js';
import { createMetrics, type Metrics } from '../src/metrics.js';
import { closePlanningPools, createPlanningClient, type FeatureLite } from '../src/planning/index.js';
import { featureCard } from '../src/slack/features/card.js';
import { readFeatureView } from '../src/slack/features/live.js';
import { postCard } from '../src/slack/kit/live-cards.js';
import { liveTaskCard } from '../src/slack/tasks/card.js';
import { readTaskView } from '../src/slack/tasks/index.js';
import type { Store } from '../src/store/index.js';
import type { WatchReport } from '../src/watch/index.js';
import { load } from './lib/bench-kit.js';
import { openBenchStore } from './lib/bench-store.js';
import { benchBotToken, benchChannel, benchMember, benchWorkspace } from './lib/digest-names.js';
import type { DigestServices } from './lib/digest-services.js';
import { startServicesProcess } from './lib/services-process.js';

const { values: args } = parseArgs({
  options: {
    /** Internal: run one part (`watch` or `digest`) in this process and print its result as JSON. */
    part: { type: 'string' },
    channels: { type: 'string', default: '2000' },
    workspaces: { type: 'string', default: '100' },
    features: { type: 'string', default: '10' },
    changed: { type: 'string', default: '0.01' },
    latency: { type: 'string', default: '0' },
    interval: { type: 'string', default: String(DEFAULT_WATCH_INTERVAL_MS) },
    /** Also the watch's passes with every channel's canvas of the plan on (`npm run bench:canvas`). */
    canvas: { type: 'boolean', default: false },
  },
});
const CHANNELS = Number(args.channels);
const WORKSPACES = Number(args.workspaces);
const FEATURES = Number(args.features);
const LATENCY = Number(args.latency);
const INTERVAL_MS = Number(args.interval);
/** The channels whose feature changes before pass 3 (at least one). */
const CHANGED = Math.max(1, Math.round(CHANNELS * Number(args.changed)));
for (const [name, value] of Object.entries({
  channels: CHANNELS,
  workspaces: WORKSPACES,
  features: FEATURES,
  interval: INTERVAL_MS,
})) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
}
if (!Number.isInteger(LATENCY) || LATENCY < 0) throw new Error('--latency must be a whole number ≥ 0');
if (CHANGED > CHANNELS || WORKSPACES > CHANNELS)
  throw new Error('more changed channels or workspaces than channels');
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'UTC', 'Asia/Tokyo'];
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The changed channels, spread over the workspaces: with step = ⌊channels ÷ changed⌋, the k-th is
 * channel k × step + (k mod step) — one per step, in different workspaces when step is a multiple
 * of the workspaces (channel c is workspace c mod workspaces).
 */
const changedChannels = Array.from({ length: CHANGED }, (_, k) => {
  const step = Math.floor(CHANNELS / CHANGED);
  return (k * step + (k % step)) % CHANNELS;
});

/**
 * The store's clock (and the watch's): a day behind while the links are made (so their digests
 * are due, as bench:digest does), then on time, then moved on by the watch's intervals.
 */
let clockShiftMs = -DAY_MS;
const now = () => Date.now() + clockShiftMs;

type Services = DigestServices & {
  stats(): Promise<{
    postCount: number;
    cpuMs: number;
    counts: Record<string, number>;
    threadPosts: number;
    dmPosts: number;
  }>;
  stop(): Promise<void>;
};

async function startServices(): Promise<Services> {
  const started = await startServicesProcess({
    orgs: WORKSPACES,
    channels: CHANNELS,
    features: FEATURES,
    latencyMs: LATENCY,
    channelPerLink: true,
  });
  const services = started.ready as DigestServices;
  return {
    ...services,
    async stats() {
      return (await (await fetch(services.statsUrl)).json()) as Awaited<ReturnType<Services['stats']>>;
    },
    stop: started.stop,
  };
}

/** Where link `c` lives: its workspace, organization and planning channel. */
function linkOf(services: Services, c: number) {
  const w = c % WORKSPACES;
  const org = services.orgs[w];
  const channelId = org?.channelIds?.[Math.floor(c / WORKSPACES)];
  if (!org || !channelId) throw new Error(`no planning channel for link ${c}`);
  return { w, org, workspaceId: benchWorkspace(w), slackChannelId: benchChannel(c), channelId };
}

/** The same seeding for both parts: admin tokens, links (due today), members connected. */
async function seed(services: Services, store: Store) {
  for (const [w, org] of services.orgs.entries()) {
    await store.workspaces.setAdminToken(benchWorkspace(w), org.ownerToken, org.orgId);
    await store.identities.save({
      workspaceId: benchWorkspace(w),
      slackUserId: benchMember(w),
      serviceAccountId: org.memberId,
      planningUserId: org.memberId,
      orgId: org.orgId,
      token: org.memberToken,
      origin: 'brought',
    });
  }
  for (let c = 0; c < CHANNELS; c += 1) {
    const { org, workspaceId, slackChannelId, channelId } = linkOf(services, c);
    await store.links.upsert({
      workspaceId,
      slackChannelId,
      teamId: org.teamId,
      channelId,
      createdBy: 'U0',
      digestTime: '00:00',
      timeZone: ZONES[c % ZONES.length] ?? 'UTC',
      weekdaysOnly: false,
    });
  }
  clockShiftMs = 0;
}

/** Counter values by one label, summed over the others. */
async function countsBy(counter: Metrics['planningRequests'] | Metrics['slackApiCalls'], label: string) {
  const by: Record<string, number> = {};
  for (const v of (await counter.get()).values) {
    const key = String((v.labels as Record<string, unknown>)[label]);
    by[key] = (by[key] ?? 0) + v.value;
  }
  return by;
}
const minus = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
      .filter(([, v]) => v !== 0),
  );
const total = (by: Record<string, number>) => Object.values(by).reduce((a, b) => a + b, 0);

interface PassResult {
  name: string;
  wallMs: number;
  cpuMs: number;
  servicesCpuMs: number;
  peakRss: number;
  rssBefore: number;
  /** Planning calls by operation (the clients' metrics). */
  planning: Record<string, number>;
  /** Slack calls by Web API method (the clients' metrics). */
  slack: Record<string, number>;
  /** What the fake Slack received, by method; accepted thread posts and DMs. */
  fake: { counts: Record<string, number>; threadPosts: number; dmPosts: number };
  watch?: WatchReport;
  digest?: { posted: number; failed: number };
  problems: string[];
}

/** Runs `work` measured: wall, CPU, peak RSS (sampled), calls counted by the clients and the fake. */
async function measured(
  name: string,
  services: Services,
  metrics: Metrics,
  work: () => Promise<Pick<PassResult, 'watch' | 'digest'>>,
): Promise<PassResult> {
  (globalThis as { gc?: () => void }).gc?.();
  let peakRss = process.memoryUsage().rss;
  const rssBefore = peakRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const planningBefore = await countsBy(metrics.planningRequests, 'operation');
  const slackBefore = await countsBy(metrics.slackApiCalls, 'method');
  const fakeBefore = await services.stats();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const outcome = await work();
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - started;
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const fakeAfter = await services.stats();
  return {
    name,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    servicesCpuMs: fakeAfter.cpuMs - fakeBefore.cpuMs,
    peakRss,
    rssBefore,
    planning: minus(await countsBy(metrics.planningRequests, 'operation'), planningBefore),
    slack: minus(await countsBy(metrics.slackApiCalls, 'method'), slackBefore),
    fake: {
      counts: minus(fakeAfter.counts, fakeBefore.counts),
      threadPosts: fakeAfter.threadPosts - fakeBefore.threadPosts,
      dmPosts: fakeAfter.dmPosts - fakeBefore.dmPosts,
    },
    ...outcome,
    problems: [],
  };
}

/** The app's clients as the app makes them: counted, posting through the limiter at its defaults. */
function benchClients(services: Services, metrics: Metrics) {
  const logger = createLogger({ level: 'warn', destination: pino.destination({ fd: 2, sync: true }) });
  const clients = createClients({
    planningUrl: services.planningUrl,
    slackApiUrl: services.slackApiUrl,
    logger,
    metrics,
    postLimits: DEFAULT_POST_LIMITS,
  });
  return { logger, clients };
}
const botTokenFor = async (workspaceId: string) => benchBotToken(Number(workspaceId.slice(1)));

/**
 * `canvas`: the same watch passes with every channel's canvas of the plan on (made before pass 1,
 * not measured) and the app's canvases job run after the watch in each pass, as the minute tick runs
 * them: nothing changed must make no canvas call, and each changed channel exactly one edit.
 */
async function runWatch(services: Services, store: Store, canvases = false): Promise<PassResult[]> {
  const metrics = createMetrics();
  const { logger, clients } = benchClients(services, metrics);
  const config = loadConfig({
    NODE_ENV: 'test',
    SLACK_SIGNING_SECRET: 'bench-watch-signing-secret',
    SLACK_BOT_TOKEN: benchBotToken(0),
    SLACK_API_URL: services.slackApiUrl,
    PLANNING_API_URL: services.planningUrl,
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    WATCH_INTERVAL_MS: String(INTERVAL_MS),
    LOG_LEVEL: 'warn',
  });
  const jobs = appJobs({
    store,
    clients,
    logger,
    botTokenFor,
    planningAccessFor: planningAccessFor({ store, clients }),
    config,
    watch: { intervalMs: INTERVAL_MS, clock: () => new Date(now()) },
  });
  const watchJob = jobs.find((job) => job.name === 'watch');
  const canvasJob = jobs.find((job) => job.name === 'canvases');
  if (!watchJob || !canvasJob) throw new Error('the app made no watch or no canvases job');
  if (canvases) {
    // Every channel's canvas on and made (the canvases job makes what waits), before any pass.
    for (let c = 0; c < CHANNELS; c += 1) {
      const { workspaceId, slackChannelId } = linkOf(services, c);
      await store.canvases.turnOn(workspaceId, slackChannelId, benchMember(c % WORKSPACES));
    }
    // A tick makes at most its batch: ticks until every canvas is made.
    for (let made = 0; made < CHANNELS; ) {
      const tick = (await canvasJob.run(new Date(now()))) as { edited: number; failed: number };
      if (tick.edited === 0) throw new Error(`${made} of ${CHANNELS} canvases made (${tick.failed} failed)`);
      made += tick.edited;
    }
  }

  // The feature of each channel that will change: an assumption (the service advances a feature
  // only once it has one), and its cards posted in the linked channel as the flows post them.
  const changing: { c: number; featureId: string; taskId: string }[] = [];
  for (const c of changedChannels) {
    const { w, org, workspaceId, slackChannelId, channelId } = linkOf(services, c);
    const owner = createPlanningClient({ baseUrl: services.planningUrl, token: org.ownerToken });
    let feature: FeatureLite | undefined;
    for await (const listed of owner.features.list(org.teamId, channelId)) {
      feature = listed;
      break;
    }
    const taskId = feature?.tasks[0]?.id;
    if (!feature || !taskId) throw new Error(`channel ${c} has no feature with a task`);
    await owner.assumptions.create(org.teamId, channelId, feature.id, { heading: 'People want it' });
    const coords = { teamId: org.teamId, channelId, featureId: feature.id };
    const place = { orgId: org.orgId, ...coords };
    const reader = { workspaceId, planning: owner };
    const slack = clients.slack(benchBotToken(w));
    const featureView = await readFeatureView({ deps: { store, config } }, reader, coords);
    await postCard(
      { store },
      slack,
      { workspaceId, kind: 'feature', entityId: feature.id, place },
      { channel: slackChannelId },
      featureCard(featureView),
    );
    const taskView = await readTaskView({ store, config }, reader, { ...coords, taskId });
    await postCard(
      { store },
      slack,
      { workspaceId, kind: 'task', entityId: taskId, place },
      { channel: slackChannelId },
      liveTaskCard(taskView),
    );
    changing.push({ c, featureId: feature.id, taskId });
  }

  const pass = (name: string) =>
    measured(name, services, metrics, async () => {
      // Two intervals on: every link is due (each came due at its offset within the last one).
      clockShiftMs += 2 * INTERVAL_MS;
      const watch = (await watchJob.run(new Date(now()))) as WatchReport;
      if (canvases) await canvasJob.run(new Date(now()));
      return { watch };
    });
  // A first deploy: the links predate the watch, so its first tick only gives each its first look at
  // its own slot over the interval (not measured); two intervals on, pass 1 finds every one due.
  const deploy = (await watchJob.run(new Date(now()))) as WatchReport;
  if (deploy.seen + deploy.notClaimed !== CHANNELS)
    throw new Error(`the first tick placed ${deploy.seen + deploy.notClaimed} of ${CHANNELS} links`);
  const label = canvases ? 'watch + canvases' : 'watch';
  const baseline = await pass(`${label} pass 1: baseline`);
  const unchanged = await pass(`${label} pass 2: nothing changed`);

  // Another tool changes the features: the task assigned to the member and done, the feature advanced.
  for (const { c, featureId, taskId } of changing) {
    const { org, channelId } = linkOf(services, c);
    const owner = createPlanningClient({ baseUrl: services.planningUrl, token: org.ownerToken });
    await owner.tasks.assign(org.teamId, channelId, featureId, taskId, org.memberId);
    await owner.tasks.update(org.teamId, channelId, featureId, taskId, { state: 'done' });
    await owner.features.advance(org.teamId, channelId, featureId);
  }
  const changed = await pass(`${label} pass 3: ${CHANGED} changed`);

  // What each pass must show, or the run proves nothing.
  for (const p of [baseline, unchanged, changed]) {
    const r = p.watch!;
    if (r.seen !== CHANNELS || r.failed + r.skipped + r.notClaimed > 0 || r.unread)
      p.problems.push(`${r.seen} of ${CHANNELS} links seen (${JSON.stringify(r)})`);
  }
  for (const p of [baseline, unchanged]) {
    if (p.watch!.changed !== 0) p.problems.push(`${p.watch!.changed} links changed, none expected`);
    // A baseline brings each canvas up to date (every feature is new to the watch): the canvases were
    // written already, so nothing is edited; the workspace's URL (card permalinks) is asked once.
    const calls = { ...p.slack };
    if (canvases && p === baseline) delete calls['auth.test'];
    if (total(calls) !== 0) p.problems.push(`Slack called: ${JSON.stringify(calls)}`);
  }
  const expect = (what: string, got: number, wanted: number) => {
    if (got !== wanted) changed.problems.push(`${what}: ${got}, expected ${wanted}`);
  };
  expect('links changed', changed.watch!.changed, CHANGED);
  expect('cards updated (chat.update)', changed.fake.counts['chat.update'] ?? 0, 2 * CHANGED);
  expect('activity messages in card threads', changed.fake.threadPosts, 2 * CHANGED);
  expect('assignment DMs', changed.fake.dmPosts, CHANGED);
  expect('messages posted', changed.fake.counts['chat.postMessage'] ?? 0, 3 * CHANGED);
  expect('canvas edits', changed.fake.counts['canvases.edit'] ?? 0, canvases ? CHANGED : 0);
  return [baseline, unchanged, changed];
}

async function runDigest(services: Services, store: Store): Promise<PassResult[]> {
  const metrics = createMetrics();
  const { logger, clients } = benchClients(services, metrics);
  // As bench/digest.ts builds it, its limits at their defaults.
  const scheduler = createDigestScheduler({
    store,
    botTokenFor,
    planningClientFor: planningAccessFor({ store, clients }),
    logger,
    slack: clients.slackBots,
    perWorkspace: 2,
    perOrganization: 4,
    maxInFlight: 200,
    gather: { concurrency: 4 },
    catchUpMs: DAY_MS,
  });
  const digest = await measured('digest pass', services, metrics, async () => {
    const report = await scheduler.tick();
    return { digest: { posted: report.posted, failed: report.failed } };
  });
  if (digest.digest!.posted !== CHANNELS || digest.fake.counts['chat.postMessage'] !== CHANNELS)
    digest.problems.push(
      `${digest.digest!.posted} digests recorded, ${digest.fake.counts['chat.postMessage'] ?? 0} posted, of ${CHANNELS}`,
    );
  return [digest];
}

/** One part in this process: services, store, seeding, its passes; prints its results as JSON. */
async function runPart(part: string) {
  const services = await startServices();
  const { store, label, cleanup } = await openBenchStore({
    name: `bench_watch_${part}`,
    databaseUrl: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL,
    now,
  });
  try {
    await seed(services, store);
    const passes =
      part === 'digest'
        ? await runDigest(services, store)
        : await runWatch(services, store, part === 'canvas');
    console.log(JSON.stringify({ store: label, passes }));
  } finally {
    await store.close();
    await cleanup();
    await closePlanningPools();
    await services.stop();
  }
}

/** Runs a part in a child process of its own; resolves with its JSON line. */
async function runChild(part: string): Promise<{ store: string; passes: PassResult[] }> {
  console.error(`bench:watch: ${part}, ${CHANNELS} channels / ${WORKSPACES} workspaces…`);
  const passOn = process.argv.slice(2);
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...passOn, '--part', part],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`the ${part} part failed (${code})`);
  return JSON.parse(line) as { store: string; passes: PassResult[] };
}

async function runAll() {
  const started = performance.now();
  const watch = await runChild('watch');
  const canvas = args.canvas ? await runChild('canvas') : { passes: [] };
  const digest = await runChild('digest');
  const passes = [...watch.passes, ...canvas.passes, ...digest.passes];

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const per = (n: number) => (n / CHANNELS).toFixed(3);
  const list = (by: Record<string, number>) =>
    Object.entries(by)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || 'none';
  const row = (name: string, cell: (p: PassResult) => string) =>
    console.log(`| ${name} | ${passes.map(cell).join(' | ')} |`);
  console.log(`\n| ${CHANNELS} linked channels | ${passes.map((p) => p.name).join(' | ')} |`);
  console.log(`|---|${passes.map(() => '---').join('|')}|`);
  row('links seen / changed / failed (watch); digests posted / failed', (p) =>
    p.watch
      ? `${p.watch.seen} / ${p.watch.changed} / ${p.watch.failed}`
      : `${p.digest!.posted} / ${p.digest!.failed}`,
  );
  row('wall time', (p) => `${(p.wallMs / 1000).toFixed(2)} s`);
  row('**CPU per channel**', (p) => `**${(p.cpuMs / CHANNELS).toFixed(2)} ms**`);
  row('CPU of sandbox + fake Slack during the pass', (p) => `${(p.servicesCpuMs / 1000).toFixed(2)} s`);
  row('**service calls per channel**', (p) => `**${per(total(p.planning))}**`);
  row('service calls by operation', (p) => list(p.planning));
  row('**Slack calls per channel**', (p) => `**${per(total(p.slack))}**`);
  row('Slack calls by method', (p) => list(p.slack));
  row('Slack accepted: thread posts / DMs', (p) => `${p.fake.threadPosts} / ${p.fake.dmPosts}`);
  row('**CPU per changed channel**', (p) =>
    p.name.includes('changed') && !p.name.includes('nothing')
      ? `**${(p.cpuMs / CHANGED).toFixed(1)} ms**`
      : '—',
  );
  row('**peak RSS** (before, after a GC)', (p) => `**${mb(p.peakRss)}** (${mb(p.rssBefore)})`);
  console.log(
    `\nStore ${watch.store}; ${FEATURES} features of one task per channel, one planning channel per link; ` +
      `service latency added ${LATENCY} ms; watch interval ${INTERVAL_MS / 1000} s (the clock moved two ` +
      `intervals before each watch pass, so every link is due in its one tick); ${CHANGED} channels changed ` +
      `(one feature each: task assigned, task done, feature advanced). Whole run ${((performance.now() - started) / 1000).toFixed(0)} s.`,
  );
  console.log(
    `${availableParallelism()} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${load()}.`,
  );
  const problems = passes.flatMap((p) => p.problems.map((problem) => `${p.name}: ${problem}`));
  if (problems.length > 0) {
    console.error('\nThe run did not do what it must:');
    for (const problem of problems) console.error(`  - ${problem}`);
    process.exitCode = 1;
  }
}

if (args.part) await runPart(args.part);
else await runAll();
