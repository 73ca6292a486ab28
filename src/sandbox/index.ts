/**
 * The sandbox: a local Team Planning Service that speaks the whole contract (all 77 operations
 * under `/v1`) over real HTTP, with state in memory (optionally in a JSON file), for tests, demos
 * and `PLANNING_API_URL=sandbox`.
 *
 * ```ts
 * const sandbox = await startSandbox({ seed: 'demo' });
 * const client = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.memberToken });
 * // …
 * await sandbox.close();
 * ```
 */
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createLogger, type Logger } from '../logger.js';
import type { Subscription } from '../planning/models.js';
import { Tokens } from './auth.js';
import { DataFile, loadState } from './data-file.js';
import { seedDemo } from './demo-seed.js';
import { Engine } from './engine.js';
import { type FaultRule, Faults, RequestLog } from './faults.js';
import { subscribe } from './handlers/billing.js';
import { handleOf, type OrgHandle, seedMinimal, seedOrganization } from './seed.js';
import { createSandboxServer } from './server.js';
import { emptyState, type SandboxState } from './state.js';
import { Store } from './store.js';
import { subscriptionView } from './views.js';

export type { FaultRule, RequestLog, RequestRecord } from './faults.js';
export type { OrgHandle } from './seed.js';

export interface SandboxOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /**
   * What to start with when there is no saved state: `minimal` (default), `demo`, or `none` (no
   * organization at all: create them with {@link Sandbox.createOrganization}).
   */
  seed?: 'minimal' | 'demo' | 'none';
  /** JSON file to load the state from and save it to after each change (atomically, debounced). */
  dataFile?: string;
  /** Delay added to every response, in ms. */
  latencyMs?: number;
  /** The current time in epoch ms; inject it to move through the 24-hour grading window and expiries. */
  clock?: () => number;
  /** HS256 secret for tokens; random unless given (or saved in the data file). */
  jwtSecret?: string;
  /** Where logs go; by default warnings and errors on stderr, tokens scrubbed. */
  logger?: Logger;
}

/** A running sandbox and its test handles. */
export interface BareSandbox {
  /** Base URL of the API, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Opens a new, isolated organization with an owner, an admin and a member service account. */
  createOrganization(name: string): Promise<OrgHandle>;
  /**
   * Makes the next matching request(s) fail or stall: `{ status: 503 }`, `{ status: 429 }` (with
   * Retry-After), `{ status: 401 }`, `{ delayMs: 5000 }`, `{ hang: true }`, optionally limited to
   * one `operationId` (`teamCreate` or `teams.create`), a `method`, and `times` requests.
   */
  inject(rule: FaultRule): void;
  /** Drops every injected rule not yet used up. */
  clearFaults(): void;
  /** Delay added to every response from now on, in ms. */
  setLatency(ms: number): void;
  /** Every request each operation received, failed ones included — e.g. `requests.count('teamCreate')`. */
  requests: RequestLog;
  /**
   * Starts an active subscription, as a completed checkout would (the contract has no "pay"
   * operation). Refused (403) while the organization has a live subscription.
   */
  subscribe(orgId: string, pricePlanId: string): Subscription;
  /** A fresh token for an account's current version, e.g. with an expiry in the past. */
  issueToken(accountId: string, options?: { expiresAt?: number }): Promise<string>;
  /** The state, live — for assertions that have no operation (e.g. "nothing reveals the grader"). */
  state(): SandboxState;
  /** Stops listening, ends hanging requests and saves the data file. */
  close(): Promise<void>;
}

/** A sandbox seeded with an organization, whose ids and tokens it exposes. */
export interface Sandbox extends BareSandbox, OrgHandle {}

export function startSandbox(options: SandboxOptions & { seed: 'none' }): Promise<BareSandbox>;
export function startSandbox(options?: SandboxOptions): Promise<Sandbox>;
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox | BareSandbox> {
  const logger =
    options.logger ?? createLogger({ level: 'warn', destination: pino.destination({ fd: 2, sync: true }) });
  const saved = options.dataFile ? await loadState(options.dataFile) : undefined;
  const secret = options.jwtSecret
    ? Buffer.from(options.jwtSecret, 'utf8').toString('base64url')
    : (saved?.secret ?? randomBytes(32).toString('base64url'));
  const store = new Store(saved ?? emptyState(secret), options.clock ?? Date.now);
  const tokens = new Tokens(secret, store);
  const engine = new Engine(store, tokens);

  if (saved && saved.secret !== secret) {
    // A new secret invalidates every saved token: sign them again so the printed ones work.
    saved.secret = secret;
    for (const account of Object.values(store.state.accounts))
      account.serviceToken = await tokens.issue(account);
  }
  if (!saved && options.seed !== 'none') {
    const seeded = options.seed === 'demo' ? await seedDemo(engine) : await seedMinimal(engine);
    const { orgId, ownerId, adminId, memberId } = seeded.handle;
    store.state.primary = { orgId, ownerId, adminId, memberId };
  }

  const faults = new Faults();
  faults.latencyMs = options.latencyMs ?? 0;
  const requests = new RequestLog();
  const dataFile = options.dataFile ? new DataFile(options.dataFile, () => store.state, logger) : undefined;
  const shutdown = new AbortController();
  // Every delayed request waits on this signal (one listener each, removed when it answers).
  setMaxListeners(0, shutdown.signal);
  const server = createSandboxServer({
    engine,
    faults,
    requests,
    logger,
    signal: shutdown.signal,
    afterRequest: () => dataFile?.schedule(),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  await dataFile?.flush();

  const { port, address } = server.address() as AddressInfo;
  const host =
    address === '0.0.0.0' || address === '::'
      ? '127.0.0.1'
      : address.includes(':')
        ? `[${address}]`
        : address;
  const bare: BareSandbox = {
    url: `http://${host}:${port}/v1`,
    createOrganization: async (name) => {
      const seeded = await seedOrganization(engine, name);
      dataFile?.schedule();
      return seeded.handle;
    },
    inject: (rule) => faults.inject(rule),
    clearFaults: () => faults.clear(),
    setLatency: (ms) => {
      faults.latencyMs = ms;
    },
    requests,
    subscribe: (orgId, pricePlanId) => {
      const org = store.org(orgId);
      subscribe(store, org, pricePlanId);
      dataFile?.schedule();
      return subscriptionView(store, org, `http://${host}:${port}`) as Subscription;
    },
    issueToken: async (accountId, issue) => {
      const account = store.account(accountId);
      if (!account) throw new Error(`No account ${accountId}`);
      return tokens.issue(account, issue);
    },
    state: () => store.state,
    close: async () => {
      shutdown.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await dataFile?.flush();
    },
  };
  const primary = store.state.primary;
  if (!primary) return bare;
  const account = (id: string) => store.account(id) ?? raiseMissing(id);
  return {
    ...bare,
    ...handleOf(account(primary.ownerId), account(primary.adminId), account(primary.memberId)),
  };
}

function raiseMissing(id: string): never {
  throw new Error(`The saved state names account ${id}, which it does not hold`);
}
