/**
 * Test bench for the watch pass: the sandbox over real sockets (its clock is the bench's, so
 * `updatedAt` moves when the test says), changed through its API as another tool would; a store
 * (SQLite in memory, or a PostgreSQL schema other stores can open: replicas); a sink that records
 * every turn and says which features it finished; a logger whose lines the test reads.
 */
import type { Logger } from '../../src/logger.js';
import { createPlanningClient, type PlanningClient } from '../../src/planning/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';
import {
  createWatch,
  type FeatureDelta,
  FeatureSeen,
  type WatchDeps,
  type WatchSink,
  type WatchTurn,
} from '../../src/watch/index.js';
import { capturedLogger } from './logs.js';
import { type PgSchema, withPgSchema } from './postgres.js';

export const INTERVAL = 300_000;
export const LEASE = 60_000;
const KEY = Buffer.alloc(32, 9).toString('base64');

/** What the watch recorded of a link's features, checked as the watch checks it. */
export async function recorded(store: Store, slackChannelId: string) {
  const rows = await store.watch.features('T1', slackChannelId);
  return new Map(
    [...rows].map(([id, row]) => [id, { seen: FeatureSeen.parse(row.seen), seenAt: row.seenAt }]),
  );
}

/** A sink that records each turn; `finish` decides which features it says are done (default all). */
export class RecordingSink implements WatchSink {
  turns: WatchTurn[] = [];
  finish: (delta: FeatureDelta) => boolean = () => true;
  /** Replaces apply's work (a hang, a failure); the turn is recorded first. */
  before?: (turn: WatchTurn) => Promise<void>;

  async apply(turn: WatchTurn): Promise<ReadonlySet<string>> {
    this.turns.push(turn);
    await this.before?.(turn);
    return new Set(turn.deltas.filter((d) => this.finish(d)).map((d) => d.featureId));
  }

  /** Every delta handed over, in order. */
  get deltas(): FeatureDelta[] {
    return this.turns.flatMap((t) => t.deltas);
  }
}

export interface WatchBench {
  sandbox: Sandbox;
  /** The sandbox's owner, as another tool changing the service. */
  planning: PlanningClient;
  teamId: string;
  channelId: string;
  store: Store;
  pg?: PgSchema;
  clock: { t: number; advance(ms: number): void };
  logLines: string[];
  logger: Logger;
  /** Another store on the same PostgreSQL schema (a replica's). */
  openReplicaStore(): Promise<Store>;
  /** Links the Slack channel to the sandbox's channel. */
  link(slackChannelId: string): Promise<void>;
  watch(sink: WatchSink, overrides?: Partial<WatchDeps>): ReturnType<typeof createWatch>;
  /** A feature with one assumption (so it can advance) and one task. */
  feature(heading: string): Promise<{ id: string; taskId: string }>;
  /** featureList requests the sandbox received. */
  listCalls(): number;
  close(): Promise<void>;
}

export async function openWatchBench(backend: 'sqlite' | 'postgres' = 'sqlite'): Promise<WatchBench> {
  const clock = {
    t: Date.parse('2026-05-04T09:00:00Z'),
    advance(ms: number) {
      clock.t += ms;
    },
  };
  const sandbox = await startSandbox({ seed: 'minimal', clock: () => clock.t });
  const planning = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken, retries: 0 });
  const team = await planning.teams.read((await planning.teams.listAll()).teams[0]?.id ?? '');
  const channelId = team.channels[0]?.id ?? '';
  const pg = backend === 'postgres' ? await withPgSchema('watch') : undefined;
  const keyring = createKeyring({ current: KEY });
  const location = pg ? { databaseUrl: pg.url, pgSchema: pg.schema } : { sqliteFile: ':memory:' };
  const store = await openStore({ ...location, keyring, now: () => clock.t });
  const extra: Store[] = [];
  const { logger, lines: logLines } = capturedLogger();
  // The watch reads with its own client (no retries: one failure is one failure).
  const reader = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken, retries: 0 });
  return {
    sandbox,
    planning,
    teamId: team.id,
    channelId,
    store,
    ...(pg ? { pg } : {}),
    clock,
    logLines,
    logger,
    async openReplicaStore() {
      const other = await openStore({ ...location, keyring, now: () => clock.t });
      extra.push(other);
      return other;
    },
    async link(slackChannelId) {
      await store.links.upsert({
        workspaceId: 'T1',
        slackChannelId,
        teamId: team.id,
        channelId,
        createdBy: 'U1',
      });
    },
    watch: (sink, overrides = {}) =>
      createWatch({
        store,
        planningAccessFor: async () => ({ client: reader, orgId: sandbox.orgId }),
        sink,
        logger,
        intervalMs: INTERVAL,
        clock: () => new Date(clock.t),
        leaseMs: LEASE,
        ...overrides,
      }),
    async feature(heading) {
      const feature = await planning.features.create(team.id, channelId, { heading });
      await planning.assumptions.create(team.id, channelId, feature.id, { heading: `${heading} works` });
      const task = await planning.tasks.create(team.id, channelId, feature.id, {
        heading: `Build ${heading}`,
      });
      return { id: feature.id, taskId: task.id };
    },
    listCalls: () => sandbox.requests.count('featureList'),
    async close() {
      for (const other of extra) await other.close();
      await store.close();
      await sandbox.close();
      await pg?.drop();
    },
  };
}
