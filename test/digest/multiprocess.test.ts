/**
 * Exactly once across PROCESSES on PostgreSQL: schedulers run as child processes (fixtures/
 * scheduler-process.ts) against one schema, the sandbox as the planning service and the
 * playground's fake Slack on loopback, and every channel gets exactly one digest per local day —
 * with two schedulers racing, with a process killed after its claim or after its post, with Slack
 * answering 429, and with the service failing.
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TickReport } from '../../src/digest/scheduler.js';
import { createPlanningClient } from '../../src/planning/index.js';
import { FakeSlack, startFakeSlack } from '../../src/playground/fake-slack.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';
import { describeWithPostgres, type PgSchema, withPgSchema } from '../helpers/postgres.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/scheduler-process.ts', import.meta.url));
const KEY = Buffer.alloc(32, 3).toString('base64');
// Long enough that a healthy process on a loaded machine finishes within it, short enough to wait out.
const LEASE_MS = 6_000;
const CHANNELS = ['C1', 'C2', 'C3', 'C4', 'C5', 'C6'];
/** The bot token the scheduler processes post with (fixtures/scheduler-process.ts). */
const BOT_TOKEN = 'xoxb-fake-bot-token';

describeWithPostgres('digest scheduler across processes (PostgreSQL)', () => {
  let pg: PgSchema;
  let store: Store;
  let sandbox: Sandbox;
  let slack: FakeSlack;

  beforeAll(async () => {
    pg = await withPgSchema('digest_mp');
    store = await openStore({
      databaseUrl: pg.url,
      pgSchema: pg.schema,
      keyring: createKeyring({ current: KEY }),
      // The channels are linked before the March days the processes run on: their digests are expected.
      now: () => Date.parse('2026-03-01T00:00:00Z'),
    });
    sandbox = await startSandbox({ seed: 'minimal' });
    slack = await startFakeSlack({ tokens: [BOT_TOKEN] });
    // The linked channels, with the bot in them (it reads their history after a crash).
    for (const id of CHANNELS) slack.workspace.addChannel({ id, members: [slack.workspace.bot.userId] });

    const planning = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken });
    const teams = await planning.teams.listAll();
    const team = await planning.teams.read(teams.teams[0]?.id ?? '');
    const channelId = team.channels[0]?.id ?? '';
    await planning.features.create(team.id, channelId, { heading: 'Digest across processes' });
    // Two workspaces, both reading with the organization's owner token.
    for (const [i, slackChannelId] of CHANNELS.entries()) {
      const workspaceId = i % 2 === 0 ? 'T_A' : 'T_B';
      await store.workspaces.setAdminToken(workspaceId, sandbox.ownerToken, sandbox.orgId);
      await store.links.upsert({
        workspaceId,
        slackChannelId,
        teamId: team.id,
        channelId,
        createdBy: 'U1',
        digestTime: '09:00',
        timeZone: i < 3 ? 'Europe/Berlin' : 'Asia/Kolkata',
        weekdaysOnly: true,
      });
    }
  });

  afterAll(async () => {
    await store?.close();
    await sandbox?.close();
    await slack?.close();
    await pg?.drop();
  });

  /** Runs one scheduler process; resolves with its report, or `killed` when it died by its own hand. */
  function runProcess(
    tickAt: string,
    extra: { die?: 'after-claim' | 'after-post'; retryBaseMs?: number } = {},
  ) {
    const options = {
      databaseUrl: pg.url,
      pgSchema: pg.schema,
      key: KEY,
      planningUrl: sandbox.url,
      slackApiUrl: slack.apiUrl,
      tickAt,
      leaseMs: LEASE_MS,
      retryBaseMs: extra.retryBaseMs ?? 1_000,
      ...(extra.die ? { die: extra.die } : {}),
    };
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    return new Promise<{ report?: TickReport; killed: boolean; stderr: string }>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (signal === 'SIGKILL') return resolve({ killed: true, stderr });
        if (code !== 0) return reject(new Error(`scheduler process exited ${code}: ${stderr}`));
        resolve({
          report: JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as TickReport,
          killed: false,
          stderr,
        });
      });
    });
  }

  /** Messages Slack accepted from chat.postMessage: channel, ts, text, metadata and the fields sent. */
  const posts = () =>
    slack
      .called('chat.postMessage')
      .filter(FakeSlack.accepted)
      .map((c) => ({
        channel: String(c.body.channel),
        ts: String(c.answer?.ts),
        text: String(c.body.text ?? ''),
        metadata: c.body.metadata as
          | { event_type: string; event_payload: Record<string, unknown> }
          | undefined,
        fields: c.body,
      }));

  /** Digests posted per channel for a local date. */
  function postsFor(localDate: string): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const post of posts()) {
      if (post.metadata?.event_payload.local_date !== localDate) continue;
      counts[post.channel] = (counts[post.channel] ?? 0) + 1;
    }
    return counts;
  }
  const oncePerChannel = Object.fromEntries(CHANNELS.map((c) => [c, 1]));

  it('two scheduler processes racing: one digest per channel', async () => {
    // Tuesday 10 March 2026, 09:30 in Berlin and 14:00 in Kolkata: every link is due.
    const [a, b] = await Promise.all([
      runProcess('2026-03-10T08:30:00Z'),
      runProcess('2026-03-10T08:30:00Z'),
    ]);
    expect((a.report?.posted ?? 0) + (b.report?.posted ?? 0)).toBe(CHANNELS.length);
    expect(postsFor('2026-03-10')).toEqual(oncePerChannel);
    const post = posts()[0];
    expect(post?.metadata?.event_type).toBe('planning_digest');
    expect(post?.fields.unfurl_links).toBe('false');
    expect(post?.text).toContain('1 feature');
    // A third process later that day finds everything posted.
    expect((await runProcess('2026-03-10T12:00:00Z')).report).toMatchObject({
      posted: 0,
      notClaimed: CHANNELS.length,
    });
  }, 90_000);

  it('a process killed after its claim, before posting: another one posts once the lease ends', async () => {
    const at = '2026-03-11T08:30:00Z';
    expect((await runProcess(at, { die: 'after-claim' })).killed).toBe(true);
    await runProcess(at);
    await sleep(LEASE_MS + 500);
    await runProcess(at);
    expect(postsFor('2026-03-11')).toEqual(oncePerChannel);
  }, 90_000);

  it('a process killed after posting, before recording: the next finds the message and does not post again', async () => {
    const at = '2026-03-12T08:30:00Z';
    expect((await runProcess(at, { die: 'after-post' })).killed).toBe(true);
    const orphan = posts().filter((p) => p.metadata?.event_payload.local_date === '2026-03-12');
    expect(orphan.length).toBeGreaterThanOrEqual(1);
    // Depending on how fast it starts, this one finds the orphans held (lease) or already recovers them.
    const next = await runProcess(at);
    await sleep(LEASE_MS + 500);
    const last = await runProcess(at);
    expect((next.report?.recovered ?? 0) + (last.report?.recovered ?? 0)).toBe(orphan.length);
    expect(postsFor('2026-03-12')).toEqual(oncePerChannel);
    // Recovered digests are recorded as posted with the orphan message's ts.
    const orphanChannel = orphan[0]?.channel ?? '';
    const workspace = CHANNELS.indexOf(orphanChannel) % 2 === 0 ? 'T_A' : 'T_B';
    const rows = await store.db
      .selectFrom('digest_claims')
      .select(['status', 'message_ts'])
      .where('workspace_id', '=', workspace)
      .where('slack_channel_id', '=', orphanChannel)
      .where('local_date', '=', '2026-03-12')
      .execute();
    expect(rows).toEqual([{ status: 'posted', message_ts: orphan[0]?.ts }]);
  }, 90_000);

  it('Slack 429 with Retry-After during a run: waited for, and each digest posted once', async () => {
    slack.rateLimit('chat.postMessage', 1, 2);
    const before = slack.counts.get('chat.postMessage') ?? 0;
    const { report } = await runProcess('2026-03-13T08:30:00Z');
    expect(report).toMatchObject({ posted: CHANNELS.length, failed: 0 });
    expect(postsFor('2026-03-13')).toEqual(oncePerChannel);
    expect((slack.counts.get('chat.postMessage') ?? 0) - before).toBe(CHANNELS.length + 2);
  }, 90_000);

  it('service 5xx during a run: logged, nothing posted, retried later and posted once', async () => {
    const at = '2026-03-16T08:30:00Z';
    sandbox.inject({ status: 503, operationId: 'featureList', times: 1000 });
    const failing = await runProcess(at);
    expect(failing.report).toMatchObject({ posted: 0, failed: CHANNELS.length });
    expect(failing.stderr).toContain('will retry');
    expect(failing.stderr).not.toContain(sandbox.ownerToken);
    expect(postsFor('2026-03-16')).toEqual({});

    sandbox.clearFaults();
    await sleep(1_200);
    const { report } = await runProcess(at);
    expect(report).toMatchObject({ posted: CHANNELS.length });
    expect(postsFor('2026-03-16')).toEqual(oncePerChannel);
  }, 90_000);
});
