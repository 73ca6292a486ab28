/**
 * Three replicas sharing one morning on PostgreSQL (issue 26 item 5, the small run of
 * bench:replicas in the suite): the replica processes of the benchmark (bench/lib/replica.ts: the
 * app's scheduler, clients with the posting limiter, store) against the sandbox and the fake Slack
 * on loopback. One replica is killed with SIGKILL once it holds claims; the others take them over
 * after the lease, and every channel gets its digest exactly once.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { benchBotToken, benchChannel, benchWorkspace } from '../../bench/lib/digest-names.js';
import type { ReplicaOptions, ReplicaResult } from '../../bench/lib/replica.js';
import { createPlanningClient } from '../../src/planning/index.js';
import { FakeSlack, startFakeSlack } from '../../src/playground/fake-slack.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';
import { describeWithPostgres, type PgSchema, withPgSchema } from '../helpers/postgres.js';

const SCRIPT = fileURLToPath(new URL('../../bench/lib/replica.ts', import.meta.url));
const KEY = Buffer.alloc(32, 7).toString('base64');
const WORKSPACES = 3;
const CHANNELS = 24;
const DAY = '2026-04-07';

describeWithPostgres('three replicas, one killed mid-pass (PostgreSQL)', () => {
  let pg: PgSchema;
  let store: Store;
  let sandbox: Sandbox;
  let slack: FakeSlack;

  beforeAll(async () => {
    pg = await withPgSchema('replicas');
    store = await openStore({
      databaseUrl: pg.url,
      pgSchema: pg.schema,
      keyring: createKeyring({ current: KEY }),
      // Linked the day before: a link's first digest is at its next time after it was made.
      now: () => Date.parse('2026-04-06T00:00:00Z'),
    });
    sandbox = await startSandbox({ seed: 'minimal' });
    slack = await startFakeSlack({
      tokens: Array.from({ length: WORKSPACES }, (_, w) => benchBotToken(w)),
      record: true,
    });
    const planning = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken });
    const team = await planning.teams.read((await planning.teams.listAll()).teams[0]?.id ?? '');
    const channelId = team.channels[0]?.id ?? '';
    await planning.features.create(team.id, channelId, { heading: 'Shared morning' });
    for (let w = 0; w < WORKSPACES; w += 1)
      await store.workspaces.setAdminToken(benchWorkspace(w), sandbox.ownerToken, sandbox.orgId);
    for (let c = 0; c < CHANNELS; c += 1) {
      slack.workspace.addChannel({ id: benchChannel(c), members: [slack.workspace.bot.userId] });
      await store.links.upsert({
        workspaceId: benchWorkspace(c % WORKSPACES),
        slackChannelId: benchChannel(c),
        teamId: team.id,
        channelId,
        createdBy: 'U1',
        digestTime: '00:00',
        timeZone: 'UTC',
        weekdaysOnly: false,
      });
    }
  });

  afterAll(async () => {
    await store?.close();
    await sandbox?.close();
    await slack?.close();
    await pg?.drop();
  });

  function replica() {
    const options: ReplicaOptions = {
      databaseUrl: pg.url,
      pgSchema: pg.schema,
      key: KEY,
      planningUrl: sandbox.url,
      slackApiUrl: slack.apiUrl,
      // Half an hour after the links' 00:00 digest time: due, within the catch-up window.
      tickAt: `${DAY}T00:30:00Z`,
      tickMs: 300,
      // Long enough for a healthy replica on a loaded machine, short enough to wait out.
      leaseMs: 8_000,
      retryBaseMs: 1_000,
      postLimits: { perWorkspacePerMinute: 600, channelIntervalMs: 1_000 },
    };
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let onClaimed!: () => void;
    const claimed = new Promise<void>((resolve) => {
      onClaimed = resolve;
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('"claimed"')) onClaimed();
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // The bound of a stuck replica: the test fails on its result instead of hanging.
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    const done = new Promise<ReplicaResult | 'killed'>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (signal === 'SIGKILL') return resolve('killed');
        if (code !== 0) return reject(new Error(`replica exited ${code}: ${stderr}`));
        resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ReplicaResult);
      });
    });
    return { child, claimed, done, stderr: () => stderr };
  }

  it('each digest is posted once, the killed replica’s claims taken over after the lease', async () => {
    // The victim starts alone and is killed as soon as it holds claims: started together, the others
    // could claim the whole morning before it claims anything (seen on a busy machine), and the
    // kill would prove nothing. The two started after it finish the day only by taking its claims
    // over once their lease runs out.
    const victim = replica();
    const first = await Promise.race([victim.claimed.then(() => 'claimed' as const), victim.done]);
    expect(first).toBe('claimed');
    victim.child.kill('SIGKILL');
    const replicas = [replica(), replica(), victim];
    const results = await Promise.all(replicas.map((r) => r.done));

    expect(results[2]).toBe('killed');
    const survivors = results.slice(0, 2) as ReplicaResult[];
    const perChannel = new Map<string, number>();
    for (const call of slack.called('chat.postMessage').filter(FakeSlack.accepted)) {
      const payload = (call.body.metadata as { event_payload?: { local_date?: string } })?.event_payload;
      if (payload?.local_date !== DAY) continue;
      const channel = String(call.body.channel);
      perChannel.set(channel, (perChannel.get(channel) ?? 0) + 1);
    }
    const expected = Array.from({ length: CHANNELS }, (_, c) => benchChannel(c));
    expect([...perChannel.keys()].sort()).toEqual(expected);
    expect([...perChannel.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    // The survivors posted the morning between them, the victim's claims included (every channel
    // has its digest, and the victim died holding claims). How they share it is the machine's
    // business: on a busy one a survivor may start after the other has finished the day.
    expect(survivors.reduce((sum, r) => sum + r.posted + r.recovered, 0)).toBeGreaterThan(0);
    const rows = await store.db
      .selectFrom('digest_claims')
      .select(['status'])
      .where('local_date', '=', DAY)
      .execute();
    expect(rows.map((r) => r.status)).toEqual(Array.from({ length: CHANNELS }, () => 'posted'));
  }, 180_000);
});
