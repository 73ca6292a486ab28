/**
 * In-process test bench for the scheduler: a store (SQLite in memory or a PostgreSQL schema), a
 * planning service answered by undici's MockAgent, Slack played by the playground's fake Slack on
 * loopback (its clock is the bench's, so message ts fall on the bench's days), a settable clock
 * and a logger whose lines the test can read.
 */
import { MockAgent } from 'undici';
import { type Clients, createClients } from '../../src/clients.js';
import { createDigestScheduler, type DigestSchedulerDeps } from '../../src/digest/scheduler.js';
import type { FeatureLite, TaskExpanded } from '../../src/planning/models.js';
import { FakeSlack, startFakeSlack } from '../../src/playground/fake-slack.js';
import { Workspace } from '../../src/playground/workspace.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';
import { capturedLogger } from './logs.js';
import { type PgSchema, withPgSchema } from './postgres.js';

export const PLANNING_URL = 'http://planning.test';
export const BOT_TOKEN = 'xoxb-digest-test-token';
export const PLANNING_TOKEN = 'planning-test-token';

export type Backend = 'sqlite' | 'postgres';

/** A message Slack accepted from chat.postMessage, as the app sent it. */
export interface Posted {
  channel: string;
  /** The ts Slack gave it. */
  ts: string;
  text: string;
  blocks: unknown[];
  metadata: { event_type: string; event_payload: Record<string, unknown> };
  unfurl_links: string;
  unfurl_media: string;
  /** The bot token it was posted with. */
  token?: string;
}

export interface Bench {
  store: Store;
  /** The store's PostgreSQL schema (postgres backend only): more stores can open it. */
  pg?: PgSchema;
  /** Answers the planning service's calls (pass as a client's dispatcher). */
  agent: MockAgent;
  /** The client factory: planning calls go to `agent`, Slack calls to the fake Slack. */
  clients: Clients;
  /** Slack: its workspace (channels, messages, DMs), every call, and answers to replace (a 429, an error). */
  slack: FakeSlack;
  clock: { now: number; set(iso: string): void; advance(ms: number): void };
  /** Features the planning mock serves for every channel. */
  features: FeatureLite[];
  /** Task reads by task id (default: no feedback). */
  tasks: Map<string, TaskExpanded>;
  /** Tasks whose read answers 404 (deleted after the list). */
  missingTasks: Set<string>;
  /** Experiences served by GET /xp, per planning token. */
  experiences: Map<string, unknown[]>;
  /** Task reads made, by task id, in order. */
  taskReads: string[];
  /** Status the planning mock answers with (200 = serve the data). */
  planningStatus: number;
  /** Messages Slack accepted from chat.postMessage, in order. */
  readonly posted: Posted[];
  /** conversations.history calls made. */
  readonly historyCalls: number;
  /** Channels conversations.join was called for. */
  readonly joined: string[];
  /** A Slack person, with their DM with the app (`D<id>`). */
  person(id: string): void;
  logLines: string[];
  sleeps: number[];
  deps(overrides?: Partial<DigestSchedulerDeps>): DigestSchedulerDeps;
  scheduler(overrides?: Partial<DigestSchedulerDeps>): ReturnType<typeof createDigestScheduler>;
  close(): Promise<void>;
}

export async function openBench(backend: Backend): Promise<Bench> {
  const clock = {
    now: Date.parse('2026-03-10T00:00:00Z'),
    set(iso: string) {
      clock.now = Date.parse(iso);
    },
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const pg = backend === 'postgres' ? await withPgSchema('digest') : undefined;
  const keyring = createKeyring({ current: Buffer.alloc(32, 7).toString('base64') });
  const store = await openStore({
    ...(pg ? { databaseUrl: pg.url, pgSchema: pg.schema } : { sqliteFile: ':memory:' }),
    keyring,
    now: () => clock.now,
  });

  const agent = new MockAgent();
  agent.disableNetConnect();
  const { logger, lines: logLines } = capturedLogger();
  const slack = await startFakeSlack({
    workspace: new Workspace({ team: { id: 'T1', name: 'Digest', domain: 'digest' }, now: () => clock.now }),
    tokens: [BOT_TOKEN],
  });
  const sleeps: number[] = [];
  const clients = createClients({
    planningUrl: `${PLANNING_URL}/v1`,
    slackApiUrl: slack.apiUrl,
    logger,
    planningOptions: { dispatcher: agent, retries: 0 },
    // The Slack sender's waits (a 429's Retry-After, a backoff) are noted, not waited.
    slackSender: {
      backoff: {
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      },
      // The fake Slack stamps messages by the bench's clock: a post looked for is looked for by it.
      now: () => clock.now,
    },
  });
  const bench: Bench = {
    store,
    ...(pg ? { pg } : {}),
    agent,
    clients,
    slack,
    clock,
    features: [],
    tasks: new Map(),
    missingTasks: new Set(),
    experiences: new Map(),
    taskReads: [],
    planningStatus: 200,
    get posted() {
      return slack
        .called('chat.postMessage')
        .filter(FakeSlack.accepted)
        .map((c) => ({
          channel: String(c.body.channel),
          ts: String(c.answer?.ts),
          text: String(c.body.text ?? ''),
          blocks: (c.body.blocks ?? []) as unknown[],
          metadata: c.body.metadata as Posted['metadata'],
          unfurl_links: String(c.body.unfurl_links),
          unfurl_media: String(c.body.unfurl_media),
          ...(c.token ? { token: c.token } : {}),
        }));
    },
    get historyCalls() {
      return slack.called('conversations.history').length;
    },
    get joined() {
      return slack.called('conversations.join').map((c) => String(c.body.channel));
    },
    person(id) {
      slack.workspace.addUser({ id, name: id.toLowerCase() });
      slack.workspace.imWith(id, `D${id}`);
    },
    logLines,
    sleeps,
    deps: (overrides = {}) => ({
      store,
      botTokenFor: async () => BOT_TOKEN,
      planningClientFor: async () => ({ client: clients.planning(PLANNING_TOKEN), orgId: 'org-1' }),
      logger,
      slack: clients.slackBots,
      clock: () => new Date(clock.now),
      ...overrides,
    }),
    scheduler: (overrides) => createDigestScheduler(bench.deps(overrides)),
    async close() {
      await slack.close();
      await agent.close();
      await store.close();
      await pg?.drop();
    },
  };
  const planning = agent.get(PLANNING_URL);
  const json = (statusCode: number, data: unknown) => ({
    statusCode,
    data: JSON.stringify(data),
    responseOptions: { headers: { 'content-type': 'application/json' } },
  });
  planning
    .intercept({ path: (p) => /\/features(\?|$)/.test(p), method: 'GET' })
    .reply(() =>
      bench.planningStatus === 200
        ? json(200, { pageNumber: 1, pageSize: 500, total: bench.features.length, features: bench.features })
        : json(bench.planningStatus, { id: 'internal', message: 'service failure' }),
    )
    .persist();
  planning
    .intercept({ path: (p) => /\/tasks\/[^/?]+$/.test(p), method: 'GET' })
    .reply((request) => {
      if (bench.planningStatus !== 200) return json(bench.planningStatus, { id: 'internal', message: 'x' });
      const taskId = request.path.split('/').at(-1) ?? '';
      bench.taskReads.push(taskId);
      if (bench.missingTasks.has(taskId)) return json(404, { id: 'not-found', message: 'gone' });
      return json(200, bench.tasks.get(taskId) ?? { id: taskId, state: 'idle' });
    })
    .persist();
  planning
    .intercept({ path: (p) => /^\/v1\/xp(\?|$)/.test(p), method: 'GET' })
    .reply((request) => {
      const headers = request.headers as Record<string, string>;
      const token = (headers.authorization ?? '').replace(/^Bearer /, '');
      const experiences = bench.experiences.get(token) ?? [];
      return json(200, { pageNumber: 1, pageSize: 500, total: experiences.length, experiences });
    })
    .persist();

  return bench;
}

/**
 * Links a Slack channel with the digest on; the channel exists in Slack with the bot in it (unless
 * `botInChannel` is false: the bot then posts there with chat:write.public, never having joined).
 */
export async function link(
  bench: Bench,
  slackChannelId: string,
  settings: {
    digestTime?: string;
    timeZone?: string;
    weekdaysOnly?: boolean;
    workspaceId?: string;
    botInChannel?: boolean;
  } = {},
) {
  const bot = bench.slack.workspace.bot.userId;
  bench.slack.workspace.addChannel({
    id: slackChannelId,
    members: settings.botInChannel === false ? ['U1'] : ['U1', bot],
  });
  return bench.store.links.upsert({
    workspaceId: settings.workspaceId ?? 'T1',
    slackChannelId,
    teamId: 'team-1',
    channelId: 'chan-1',
    createdBy: 'U1',
    digestTime: settings.digestTime ?? '09:00',
    timeZone: settings.timeZone ?? 'Europe/Berlin',
    weekdaysOnly: settings.weekdaysOnly ?? true,
  });
}
