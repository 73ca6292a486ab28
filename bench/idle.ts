/**
 * `npm run bench:idle`: what the app costs at rest, and whether serving commands leaves anything
 * behind. The real app (bench/lib/ack-target.ts, SQLite store, every user connected beforehand)
 * runs in its own process with --expose-gc; its RSS and V8 heap in use are read after a full GC:
 *
 * - after start, and after a warm-up of 1,000 commands (code compiled, pools open);
 * - after 10,000 signed `/plan whoami` commands, and after 10,000 more.
 *
 * The commands come from more distinct Slack users (default 3,000) than any cache of the app keeps
 * (planning clients, Slack clients and decrypted tokens keep 1,000 each), so an unbounded cache would
 * grow between the two last readings; the service answers at once (sandbox, no added latency), and
 * every reply is checked at its response_url. Options: --users 3000 --commands 10000
 * --concurrency 20. Exits non-zero when a command gets no reply.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { closePlanningPools } from '../src/planning/index.js';
import { startSandbox } from '../src/sandbox/index.js';
import { PATHS } from '../src/slack/bolt/manifest.js';
import { startTarget, type Target } from './lib/ack-target-process.js';
import { load, reportBroken, runCleanups } from './lib/bench-kit.js';
import { startBenchSlack } from './lib/bench-slack.js';
import { commandBody, sign } from './lib/slack-command.js';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '3000' },
    commands: { type: 'string', default: '10000' },
    concurrency: { type: 'string', default: '20' },
  },
});
const USERS = Number(args.users);
const COMMANDS = Number(args.commands);
const CONCURRENCY = Number(args.concurrency);
const WARMUP = 1_000;
const SIGNING_SECRET = 'bench-signing-secret';
const TEAM = 'T0IDLE';
const BOT_TOKEN = 'xoxb-bench-bot-token';
const users = Array.from({ length: USERS }, (_, i) => `U${String(i).padStart(7, '0')}`);

const cleanups: (() => Promise<unknown> | unknown)[] = [];
const broken: string[] = [];
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
try {
  const fake = await startBenchSlack({ team: TEAM, tokens: [BOT_TOKEN], users, channel: 'C0BENCH' });
  cleanups.push(() => fake.close());
  const sandbox = await startSandbox({ seed: 'minimal' });
  cleanups.push(
    () => sandbox.close(),
    () => closePlanningPools(),
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-idle-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  console.error(`bench:idle: connecting ${USERS} users…`);
  const target: Target = await startTarget(
    {
      kind: 'app',
      signingSecret: SIGNING_SECRET,
      botToken: BOT_TOKEN,
      team: TEAM,
      slackApiUrl: fake.apiUrl,
      planningUrl: sandbox.url,
      planningTimeoutMs: 10_000,
      sqliteFile: join(dir, 'store.sqlite'),
      encryptionKey: randomBytes(32).toString('base64'),
      users,
      member: { id: sandbox.memberId, orgId: sandbox.orgId, token: sandbox.memberToken },
    },
    { connections: CONCURRENCY, nodeArgs: ['--expose-gc'] },
  );
  cleanups.push(() => target.stop());

  let sent = 0;
  /** Sends `count` commands, CONCURRENCY at a time, from users in turn; waits for every reply. */
  async function serve(count: number) {
    const ids: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next += 1;
        const n = sent++;
        const id = `idle-${n}`;
        ids.push(id);
        const user = users[n % users.length]!;
        const body = commandBody(TEAM, user, 'whoami', fake.responseUrl(id, user));
        const response = await target.pool.request({
          path: PATHS.events,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...sign(SIGNING_SECRET, body) },
          body,
        });
        await response.body.dump();
        if (response.statusCode !== 200) broken.push(`${id}: HTTP ${response.statusCode}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const until = Date.now() + 60_000;
    while (ids.some((id) => !fake.responses.has(id)) && Date.now() < until) await sleep(50);
    const missing = ids.filter((id) => !fake.responses.has(id)).length;
    if (missing > 0) broken.push(`${missing} of ${count} commands got no reply`);
    // Replies are checked, then forgotten: this process must not grow either.
    for (const id of ids) fake.responses.delete(id);
  }

  const readings: [string, { rss: number; heapUsed: number }][] = [];
  readings.push(['after start', await target.memory()]);
  await serve(WARMUP);
  readings.push([`after a ${WARMUP.toLocaleString('en')}-command warm-up`, await target.memory()]);
  await serve(COMMANDS);
  readings.push([`after ${COMMANDS.toLocaleString('en')} commands`, await target.memory()]);
  await serve(COMMANDS);
  readings.push([`after ${(2 * COMMANDS).toLocaleString('en')} commands`, await target.memory()]);

  console.log(
    `\n/plan whoami from ${USERS} distinct users, ${CONCURRENCY} in flight, service without added latency\n`,
  );
  console.log('| app process (after a full GC) | RSS | V8 heap used |');
  console.log('|---|---:|---:|');
  for (const [name, m] of readings) console.log(`| ${name} | ${mb(m.rss)} | ${mb(m.heapUsed)} |`);
  const [, warm] = readings[1]!;
  const [, once] = readings[2]!;
  const [, twice] = readings[3]!;
  console.log(
    `\nGrowth over the second ${COMMANDS.toLocaleString('en')} commands: RSS ${mb(twice.rss - once.rss)}, ` +
      `heap ${mb(twice.heapUsed - once.heapUsed)}; since the warm-up: RSS ${mb(twice.rss - warm.rss)}, heap ${mb(twice.heapUsed - warm.heapUsed)}.`,
  );
  console.log(`Node ${process.version}, ${availableParallelism()} CPUs, load average ${load()}.`);
} catch (error) {
  broken.push(`the benchmark failed: ${(error as Error).stack ?? String(error)}`);
} finally {
  await runCleanups(cleanups, broken);
}
reportBroken(broken);
