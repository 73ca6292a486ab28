/**
 * In-process test bench for the scheduler: a store (SQLite in memory or a PostgreSQL schema), a
 * planning service answered by undici's MockAgent, Slack answered by nock, a settable clock and a
 * logger whose lines the test can read.
 */
import { Writable } from 'node:stream';
import nock from 'nock';
import { MockAgent } from 'undici';
import { type Clients, createClients } from '../../src/clients.js';
import { createDigestScheduler, type DigestSchedulerDeps } from '../../src/digest/scheduler.js';
import { createLogger } from '../../src/logger.js';
import type { FeatureLite, TaskExpanded } from '../../src/planning/models.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';
import { withPgSchema } from '../helpers/postgres.js';

export const SLACK_URL = 'http://slack.test';
export const PLANNING_URL = 'http://planning.test';
export const BOT_TOKEN = 'xoxb-digest-test-token';
export const PLANNING_TOKEN = 'planning-test-token';

export type Backend = 'sqlite' | 'postgres';

export interface Posted {
  channel: string;
  text: string;
  blocks: unknown[];
  metadata: { event_type: string; event_payload: Record<string, unknown> };
  unfurl_links: string;
  unfurl_media: string;
  token?: string;
}

export interface Bench {
  store: Store;
  /** Answers the planning service's calls (pass as a client's dispatcher). */
  agent: MockAgent;
  /** The client factory: planning calls go to `agent`, Slack calls to the nock'd Slack. */
  clients: Clients;
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
  /** Slack: messages posted, and replies to play before answering ok (e.g. a 429). */
  posted: Posted[];
  slackReplies: { status: number; headers?: Record<string, string>; body?: unknown }[];
  /** conversations.history answers: the messages returned (all pages in one). */
  history: unknown[];
  historyCalls: number;
  /** Errors conversations.history answers first, one per call (e.g. `not_in_channel`). */
  historyErrors: string[];
  /** Channels conversations.join was called for. */
  joined: string[];
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
  const logLines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  });
  const clients = createClients({
    planningUrl: `${PLANNING_URL}/v1`,
    slackApiUrl: `${SLACK_URL}/api/`,
    logger,
    planningOptions: { dispatcher: agent, retries: 0 },
  });
  const bench: Bench = {
    store,
    agent,
    clients,
    clock,
    features: [],
    tasks: new Map(),
    missingTasks: new Set(),
    experiences: new Map(),
    taskReads: [],
    planningStatus: 200,
    posted: [],
    slackReplies: [],
    history: [],
    historyCalls: 0,
    historyErrors: [],
    joined: [],
    logLines,
    sleeps: [],
    deps: (overrides = {}) => ({
      store,
      botTokenFor: async () => BOT_TOKEN,
      planningClientFor: async () => ({ client: clients.planning(PLANNING_TOKEN), orgId: 'org-1' }),
      logger,
      slackClientFor: clients.slack,
      clock: () => new Date(clock.now),
      sleep: async (ms) => {
        bench.sleeps.push(ms);
      },
      ...overrides,
    }),
    scheduler: (overrides) => createDigestScheduler(bench.deps(overrides)),
    async close() {
      nock.cleanAll();
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

  nock(SLACK_URL)
    .persist()
    .post('/api/chat.postMessage')
    .reply(function (_uri, body) {
      const next = bench.slackReplies.shift();
      if (next && next.status !== 200) return [next.status, next.body ?? '', next.headers ?? {}];
      const form = new URLSearchParams(String(body));
      const auth = this.req.headers.authorization;
      bench.posted.push({
        channel: form.get('channel') ?? '',
        text: form.get('text') ?? '',
        blocks: JSON.parse(form.get('blocks') ?? '[]'),
        metadata: JSON.parse(form.get('metadata') ?? '{}'),
        unfurl_links: form.get('unfurl_links') ?? '',
        unfurl_media: form.get('unfurl_media') ?? '',
        token: typeof auth === 'string' ? auth : undefined,
      });
      return [
        200,
        next?.body ?? { ok: true, channel: form.get('channel'), ts: `${1000 + bench.posted.length}.000100` },
      ];
    })
    .post('/api/conversations.open')
    .reply((_uri, body) => [
      200,
      { ok: true, channel: { id: `D_${new URLSearchParams(String(body)).get('users')}` } },
    ])
    .post('/api/conversations.history')
    .reply(() => {
      bench.historyCalls += 1;
      const error = bench.historyErrors.shift();
      if (error) return [200, { ok: false, error }];
      return [200, { ok: true, messages: bench.history, has_more: false }];
    })
    .post('/api/conversations.join')
    .reply((_uri, body) => {
      const channel = new URLSearchParams(String(body)).get('channel') ?? '';
      bench.joined.push(channel);
      return [200, { ok: true, channel: { id: channel } }];
    });
  return bench;
}

/** Links a Slack channel with the digest on. */
export async function link(
  store: Store,
  slackChannelId: string,
  settings: { digestTime?: string; timeZone?: string; weekdaysOnly?: boolean; workspaceId?: string } = {},
) {
  return store.links.upsert({
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
