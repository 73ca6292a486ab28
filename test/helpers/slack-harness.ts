/**
 * End-to-end harness: the real Bolt app in HTTP mode on a loopback port, the planning sandbox as
 * the service, a SQLite store in a temp dir, and Slack — its Web API, response_urls and uploads —
 * played by the playground's fake Slack (`src/playground/fake-slack.ts`) on another loopback port,
 * with every call recorded. Requests are signed like Slack signs them, and the harness sets the
 * world up as Slack would have it for what it sends: the acting person and the channel exist (the
 * person in it), the message a button or shortcut is on exists, each request carries a trigger id
 * and a response_url the fake issued, and an ack to a form submission is applied to the person's
 * modals as Slack applies it.
 *
 * It is also the one driver of the Slack tests: what people do in Slack, each written once here —
 * a command, a button pressed (`press`) or an option chosen (`choose`) on a message, a modal or the
 * Home tab, a shortcut (global or on a message; `createTaskFrom` is *Create task* on a message), a
 * form opened and submitted (`openForm`, `submit`), a select searched (`suggest`), an event, a
 * Workflow Builder step, an OAuth install — and the few flows many tests start from (`createTask`,
 * `newFeature`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ViewStateValue } from '@slack/bolt';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type Clients, createClients } from '../../src/clients.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { closePlanningPools, createPlanningClient, type PlanningClient } from '../../src/planning/index.js';
import { FakeSlack, type InstallGrant, type SlackCall } from '../../src/playground/fake-slack.js';
import { viewObject } from '../../src/playground/web-api.js';
import { type GuestKind, type PgMessage, Workspace } from '../../src/playground/workspace.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ADMIN_ACTION, ADMIN_VIEW } from '../../src/slack/admin/ids.js';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { FEATURE_CARD_EVENT, FEATURE_FIELD, FEATURE_VIEW } from '../../src/slack/features/ids.js';
import { ACTION, FIELD, type Field } from '../../src/slack/kit/ids.js';
import { PRESS_LOCK_PREFIX } from '../../src/slack/kit/press.js';
import { TASK_FIELD, TASK_SHORTCUT, TASK_VIEW } from '../../src/slack/tasks/ids.js';
import { createKeyring, openStore, type Store, type StoreOptions } from '../../src/store/index.js';
import { type PgSchema, withPgSchema } from './postgres.js';

export type { SlackCall };

export const SIGNING_SECRET = 'test-signing-secret';
export const TEAM = 'T0TEST';
/** The workspace's own address: permalinks start with it. */
export const SLACK_ORIGIN = 'https://slack.test';
/** The single-workspace bot token the harness's app runs with. */
export const BOT_TOKEN = 'xoxb-test-bot-token';
/** Slack's trigger ids live 3 s; a busy CI machine may take longer between a request and the app's views.open. */
const TRIGGER_TTL_MS = 60_000;

/** Slack's interactivity input of a workflow run by `slackUserId` (what the trigger gives a step). */
export const ranBy = (slackUserId: string) => ({
  interactor: { id: slackUserId, secret: `secret-${slackUserId}` },
  interactivity_pointer: `ptr-${slackUserId}`,
});

/** A Slack person: what users.info says of them (default: a full member of TEAM in Paris). */
export interface FakeUser {
  id: string;
  name: string;
  realName?: string;
  displayName?: string;
  isAdmin?: boolean;
  isOwner?: boolean;
  tz?: string;
  /** Slack's own facts that decide who may get an account (default: a full member of TEAM). */
  teamId?: string;
  /** Enterprise Grid organization of the user. */
  enterpriseId?: string;
  guest?: GuestKind;
  bot?: boolean;
  deleted?: boolean;
  stranger?: boolean;
  /** The profile photo's address. */
  photo?: string;
}

/** The id of the view a views.open or views.push call opened (from Slack's answer). */
export function viewIdOf(call: SlackCall): string {
  const id = (call.answer?.view as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string')
    throw new Error(`${call.method} opened no view: ${JSON.stringify(call.answer)}`);
  return id;
}

/** The fake Slack as the tests see it: the shared fake, with people and views by id. */
export class TestSlack extends FakeSlack {
  /** People: `set` makes one (and their DM with the app, `D<id>`) as Slack has them. */
  readonly users = {
    set: (id: string, user: FakeUser) => this.person({ ...user, id }),
    get: (id: string) => this.workspace.users.get(id),
    has: (id: string) => this.workspace.users.has(id),
  };

  /** Views as Slack shows them now (with their id and current hash), by view id. */
  readonly views = {
    get: (id: string): Record<string, unknown> | undefined => {
      const v = this.workspace.views.get(id);
      return v ? viewObject(this.workspace, v) : undefined;
    },
    keys: () => this.workspace.views.keys(),
  };

  /** Adds or changes a person, and opens their DM with the app. */
  person(user: FakeUser) {
    const { id } = user;
    this.workspace.addUser({
      id,
      name: user.name,
      realName: user.realName ?? user.name,
      displayName: user.displayName ?? '',
      isAdmin: Boolean(user.isAdmin),
      isOwner: Boolean(user.isOwner),
      guest: user.guest ?? false,
      isBot: Boolean(user.bot),
      tz: user.tz ?? this.workspace.tz,
      ...(user.teamId ? { teamId: user.teamId } : {}),
      ...(user.enterpriseId ? { enterpriseId: user.enterpriseId } : {}),
      ...(user.deleted ? { deleted: true } : {}),
      ...(user.stranger ? { stranger: true } : {}),
      ...(user.photo ? { photo: user.photo } : {}),
    });
    if (!user.bot) this.workspace.imWith(id, `D${id}`);
    return this.workspace.users.get(id);
  }

  /** A person who acts (sends a command, presses a button) exists in Slack: made when unknown. */
  ensurePerson(id: string) {
    if (!this.workspace.users.has(id)) this.person({ id, name: `user-${id}` });
  }

  /** A channel (a public one unless it exists), with `members` in it. */
  channel(id: string, ...members: string[]) {
    if (id.startsWith('D')) return this.workspace.channels.get(id);
    return this.workspace.addChannel({ id, members });
  }

  /** The message at `ts` in `channel` as Slack has it now (its last update applied). */
  message(channel: string, ts: string): PgMessage | undefined {
    return this.workspace.find(channel, ts);
  }

  /** A message the app posted earlier (a card, a digest), put straight into the channel; its ts. */
  postAsBot(channel: string, message: Omit<PgMessage, 'ts' | 'channel' | 'user'> & { ts?: string }): string {
    this.channel(channel);
    const ws = this.workspace;
    return ws.post({ ...message, channel, user: ws.bot.userId, botId: ws.bot.botId }).ts;
  }
}

/** Polls `condition` every 10 ms for at most 10 s (CI machines are busy); the listener's work runs after its ack. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Who sends a command, where, and what Slack adds to or replaces in it. */
export interface CommandFrom {
  user?: string;
  channel?: string;
  team?: string;
  fields?: Record<string, string>;
}

/**
 * `/plan <text>` from `user` in `channel` as Slack posts it (form-encoded), with a trigger id and a
 * response_url `slack` issued. For an app the harness did not start (the whole composition, a
 * process); `Harness.command` sends it for its own.
 */
export function commandBody(slack: FakeSlack, text: string, from: CommandFrom = {}): string {
  return new URLSearchParams(commandFields(slack, text, from)).toString();
}

/** The fields of `/plan <text>` as Slack sends them (a Socket Mode envelope's payload). */
export function commandFields(
  slack: FakeSlack,
  text: string,
  { user = 'U1', channel = 'C1', team = TEAM, fields = {} }: CommandFrom = {},
): Record<string, string> {
  return {
    token: 'legacy',
    team_id: team,
    team_domain: 'test',
    channel_id: channel,
    channel_name: 'general',
    user_id: user,
    user_name: `user-${user}`,
    command: '/plan',
    text,
    api_app_id: 'A1',
    is_enterprise_install: 'false',
    response_url: slack.responseUrl({ channel, user }),
    trigger_id: slack.trigger(user),
    ...fields,
  };
}

/** Signs a body as Slack does (v0, HMAC-SHA256 of `v0:<ts>:<body>`). */
export function sign(body: string, timestamp = Math.floor(Date.now() / 1000), secret = SIGNING_SECRET) {
  const digest = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${digest}` };
}

export interface HarnessOptions {
  /** Set PLANNING_ADMIN_TOKEN (the sandbox owner's) so users are provisioned on first use. */
  provisioning?: boolean;
  /** Many workspaces: OAuth install instead of a bot token. */
  oauth?: boolean;
  /** The planning client's retries (default 0, so failures show at once). */
  retries?: number;
  /** The planning client's time bound per call (default 1 s, so failures show at once). */
  planningTimeoutMs?: number;
  /** The store on this PostgreSQL schema instead of a SQLite file (replicas share it). */
  postgres?: { url: string; schema: string };
  /** More environment for the app (e.g. the web app's link templates). */
  env?: Record<string, string>;
  /**
   * The posting limiter as the process has it (src/app/start-app.ts), from SLACK_POSTS_PER_MINUTE and
   * SLACK_CHANNEL_POST_INTERVAL_MS (`env`); off by default, so other tests are not spaced.
   */
  postLimits?: boolean;
}

/** What a harness's replicas share with it: the same service, the same Slack, the same database. */
interface Shared {
  sandbox: Sandbox;
  slack: TestSlack;
  key: string;
  location: Pick<StoreOptions, 'databaseUrl' | 'pgSchema' | 'sqliteFile'>;
  options: HarnessOptions;
}

/** A planning team with its default channel and one feature, made with the owner's token. */
export interface Fixture {
  teamId: string;
  channelId: string;
  featureId: string;
  featureHeading: string;
}

export class Harness {
  private constructor(
    readonly slack: TestSlack,
    readonly sandbox: Sandbox,
    readonly store: Store,
    readonly app: SlackApp,
    readonly url: string,
    readonly fixture: Fixture,
    readonly logs: string[],
    /** The app's configuration (what a job or a renderer outside the app takes). */
    readonly config: Config,
    /** The app's clients (what the process's jobs share with it: the posting limiter). */
    readonly clients: Clients,
    private readonly dir: string,
    private readonly shared: Shared,
    /** A replica closes its own app and store only: the rest belongs to the harness it came from. */
    private readonly isReplica = false,
  ) {}

  static async start(options: HarnessOptions = {}): Promise<Harness> {
    const sandbox = await startSandbox({ seed: 'minimal' });
    const dir = mkdtempSync(join(tmpdir(), 'slack-e2e-'));
    const key = randomBytes(32).toString('base64');
    const slack = new TestSlack({
      workspace: new Workspace({
        team: { id: TEAM, name: 'Test', domain: 'test', url: `${SLACK_ORIGIN}/` },
        bot: { userId: 'UBOT', botId: 'BBOT', appId: 'A1', name: 'Team Planning' },
        tz: 'Europe/Paris',
      }),
      tokens: options.oauth ? [] : [BOT_TOKEN],
      triggerTtlMs: TRIGGER_TTL_MS,
    });
    await slack.listen();

    const owner = createPlanningClient({ baseUrl: sandbox.url, token: sandbox.ownerToken });
    const team = await owner.teams.create({ teamName: 'Core team' });
    const channel = team.channels[0]!;
    const feature = await owner.features.create(team.id, channel.id, { heading: 'Login page' });
    const fixture = {
      teamId: team.id,
      channelId: channel.id,
      featureId: feature.id,
      featureHeading: 'Login page',
    };
    const location = options.postgres
      ? { databaseUrl: options.postgres.url, pgSchema: options.postgres.schema }
      : { sqliteFile: join(dir, 'store.sqlite') };
    return Harness.boot({ sandbox, slack, key, location, options }, fixture, dir, false);
  }

  /**
   * Another replica of the app beside this one: its own store connection, clients and HTTP port,
   * on the same database, service and Slack — as two processes behind one load balancer.
   */
  replica(): Promise<Harness> {
    return Harness.boot(this.shared, this.fixture, this.dir, true);
  }

  private static async boot(shared: Shared, fixture: Fixture, dir: string, isReplica: boolean) {
    const { sandbox, slack, key, location, options } = shared;
    const store = await openStore({ ...location, keyring: createKeyring({ current: key }) });
    const config = loadConfig({
      NODE_ENV: 'test',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      ...(options.oauth
        ? {
            SLACK_CLIENT_ID: '111.222',
            SLACK_CLIENT_SECRET: 'client-secret',
            SLACK_STATE_SECRET: 'state-secret',
          }
        : { SLACK_BOT_TOKEN: BOT_TOKEN }),
      SLACK_API_URL: slack.apiUrl,
      PLANNING_API_URL: sandbox.url,
      ENCRYPTION_KEY: key,
      PORT: '0',
      LOG_LEVEL: 'debug',
      ...options.env,
    });
    const logs: string[] = [];
    const logger: Logger = createLogger({
      level: 'debug',
      destination: { write: (line: string) => logs.push(line) },
    });
    const clients = createClients({
      planningUrl: sandbox.url,
      slackApiUrl: config.SLACK_API_URL,
      logger,
      planningOptions: { timeoutMs: options.planningTimeoutMs ?? 1_000, retries: options.retries ?? 0 },
      ...(options.postLimits
        ? {
            postLimits: {
              perWorkspacePerMinute: config.SLACK_POSTS_PER_MINUTE,
              channelIntervalMs: config.SLACK_CHANNEL_POST_INTERVAL_MS,
            },
          }
        : {}),
    });
    const app = createSlackApp({
      config,
      store,
      logger,
      clients,
      envAdminToken: options.provisioning ? sandbox.ownerToken : undefined,
    });
    const { port } = await app.start();
    const url = `http://127.0.0.1:${port}`;
    return new Harness(
      slack,
      sandbox,
      store,
      app,
      url,
      fixture,
      logs,
      config,
      clients,
      dir,
      shared,
      isReplica,
    );
  }

  /** A task of the fixture's feature, created by the owner and assigned to the sandbox's member. */
  async assignedTask(heading: string) {
    const { teamId, channelId, featureId } = this.fixture;
    const owner = this.owner();
    const task = await owner.tasks.create(teamId, channelId, featureId, { heading });
    await owner.tasks.assign(teamId, channelId, featureId, task.id, this.sandbox.memberId);
    return { teamId, channelId, featureId, taskId: task.id };
  }

  /** The tasks of the fixture's feature, as the service has them. */
  async tasksOfFeature() {
    const { teamId, channelId, featureId } = this.fixture;
    return (await this.owner().tasks.list(teamId, channelId, featureId)).tasks;
  }

  /** Resolves once no card press holds its lock (kit/press.ts): a next press will be applied. */
  pressesSettled() {
    return eventually(async () => {
      // Locks are rows of this table (store/processed-interactions.ts), deleted when released.
      const keys = await this.store.db.selectFrom('processed_interactions').select('key').execute();
      return !keys.some((k) => k.key.startsWith(PRESS_LOCK_PREFIX));
    }, 'the press to finish');
  }

  async close() {
    await this.app.stop();
    if (this.isReplica) {
      await this.store.close();
      return;
    }
    await this.sandbox.close();
    await this.store.close();
    await closePlanningPools();
    await this.slack.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A planning client acting as the sandbox's owner (to check what was saved). */
  owner(): PlanningClient {
    return createPlanningClient({ baseUrl: this.sandbox.url, token: this.sandbox.ownerToken });
  }

  /**
   * Accounts open in the organization the app provisions into that no stored identity holds (its
   * seeded owner, admin and member aside): accounts the app made whose token nobody has.
   */
  async unheldAccounts(): Promise<string[]> {
    const seeded = new Set([this.sandbox.ownerId, this.sandbox.adminId, this.sandbox.memberId]);
    const held = new Set((await this.store.identities.listByWorkspace(TEAM)).map((i) => i.serviceAccountId));
    return Object.values(this.sandbox.state().accounts)
      .filter((a) => a.homeOrgId === this.sandbox.orgId && a.closedTime === 0)
      .filter((a) => !seeded.has(a.id) && !held.has(a.id))
      .map((a) => a.id);
  }

  /** Stores an identity for a Slack user with a sandbox account's token (as `/plan connect` would). */
  async connect(slackUserId: string, who: 'member' | 'admin' | 'owner' = 'member') {
    const token = {
      member: this.sandbox.memberToken,
      admin: this.sandbox.adminToken,
      owner: this.sandbox.ownerToken,
    }[who];
    const id = { member: this.sandbox.memberId, admin: this.sandbox.adminId, owner: this.sandbox.ownerId }[
      who
    ];
    this.slack.ensurePerson(slackUserId);
    return this.store.identities.save({
      workspaceId: TEAM,
      slackUserId,
      serviceAccountId: id,
      planningUserId: id,
      orgId: this.sandbox.orgId,
      token,
      origin: 'brought',
    });
  }

  /**
   * A modal the app opened for `user` earlier — before a deploy, or before they were demoted — as
   * Slack holds it: opened through the Web API with a trigger of theirs. Resolves with its view id.
   */
  async openedModal(user: string, view: unknown): Promise<string> {
    this.slack.ensurePerson(user);
    const res = await request(`${this.slack.apiUrl}views.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ trigger_id: this.slack.trigger(user), view }),
    });
    const answer = (await res.body.json()) as { ok: boolean; view?: { id: string }; error?: string };
    if (!answer.ok || !answer.view) throw new Error(`views.open refused the modal: ${answer.error}`);
    return answer.view.id;
  }

  /** Links a Slack channel to the fixture's planning channel (as `/plan link` would, from inside it). */
  link(slackChannelId = 'C1', createdBy = 'U1') {
    this.slack.channel(slackChannelId, createdBy);
    const { teamId, channelId } = this.fixture;
    return this.store.links.upsert({ workspaceId: TEAM, slackChannelId, teamId, channelId, createdBy });
  }

  // -- Requests as Slack sends them ----------------------------------------------------------

  /** POSTs a raw body to /slack/events, signed unless `headers` says otherwise. */
  async post(body: string, contentType: string, headers: Record<string, string> = sign(body)) {
    const res = await request(`${this.url}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...headers },
      body,
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text, json: () => JSON.parse(text) as Record<string, unknown> };
  }

  /**
   * `/plan <text>` from `user` in `channel`; `fields` adds to or replaces what Slack sends (an
   * Enterprise Grid workspace's `enterprise_id`, say).
   */
  command(text: string, user = 'U1', channel = 'C1', team = TEAM, fields: Record<string, string> = {}) {
    this.slack.ensurePerson(user);
    this.slack.channel(channel, user);
    return this.post(
      commandBody(this.slack, text, { user, channel, team, fields }),
      'application/x-www-form-urlencoded',
    );
  }

  /**
   * An interactivity payload (`payload=<json>`), with team, user, a trigger id and a response_url
   * filled in (the payload's own fields win). What it acts on is made to exist as in Slack: the
   * channel with the person in it, the message (a message Slack has not seen is put there as the
   * app's own — a card or digest it posted before), and for a modal's button the view on top of the
   * person's stack. The ack of a view_submission is applied to the person's modals.
   */
  async interact(payload: Record<string, unknown>, user = 'U1', extraHeaders: Record<string, string> = {}) {
    const context = this.world(payload, user);
    const full = {
      api_app_id: 'A1',
      token: 'legacy',
      is_enterprise_install: false,
      team: { id: TEAM, domain: 'test' },
      user: { id: user, name: `user-${user}`, team_id: TEAM },
      trigger_id: this.slack.trigger(user),
      response_url: this.slack.responseUrl(context.target),
      ...payload,
    };
    const body = new URLSearchParams({ payload: JSON.stringify(full) }).toString();
    const res = await this.post(body, 'application/x-www-form-urlencoded', {
      ...sign(body),
      ...extraHeaders,
    });
    if (context.submitted && res.status === 200) {
      const { view, version } = context.submitted;
      let ack = {};
      try {
        ack = res.body ? (JSON.parse(res.body) as Record<string, unknown>) : {};
      } catch {
        // An empty or plain-text ack closes the view, as in Slack.
      }
      this.slack.applyViewAck(user, view, version, ack);
    }
    return res;
  }

  /** Makes what `payload` acts on exist, as Slack would have it; where its replies go. */
  private world(payload: Record<string, unknown>, user: string) {
    const ws = this.slack.workspace;
    this.slack.ensurePerson(user);
    const container = (payload.container ?? {}) as Record<string, unknown>;
    const channelId =
      (payload.channel as { id?: unknown } | undefined)?.id ?? container.channel_id ?? undefined;
    const channel = typeof channelId === 'string' ? this.slack.channel(channelId, user) : undefined;
    const message = payload.message as Record<string, unknown> | undefined;
    const ephemeral = container.is_ephemeral === true;
    const ts = typeof message?.ts === 'string' ? message.ts : undefined;
    if (channel && ts && !ephemeral && !ws.find(channel.id, ts)) {
      const byPerson = typeof message?.user === 'string' && message.bot_id === undefined;
      ws.post({
        channel: channel.id,
        ts,
        user: byPerson ? String(message?.user) : ws.bot.userId,
        ...(byPerson ? {} : { botId: ws.bot.botId }),
        text: typeof message?.text === 'string' ? message.text : '',
        ...(Array.isArray(message?.blocks) ? { blocks: message.blocks } : {}),
        ...(typeof message?.thread_ts === 'string' ? { threadTs: message.thread_ts } : {}),
        ...(message?.metadata ? { metadata: message.metadata as PgMessage['metadata'] } : {}),
      });
    }
    // A channel picked in a form is one the person could pick: it exists.
    const state = (payload.view as { state?: { values?: unknown } } | undefined)?.state?.values ?? {};
    for (const block of Object.values(state as Record<string, Record<string, Record<string, unknown>>>)) {
      for (const element of Object.values(block ?? {})) {
        const picked = element?.selected_conversation ?? element?.selected_channel;
        if (typeof picked === 'string' && /^[CG]/.test(picked)) this.slack.channel(picked, user);
      }
    }
    const viewId =
      (payload.view as { id?: unknown } | undefined)?.id ?? (container.view_id as string | undefined);
    const view = typeof viewId === 'string' ? ws.views.get(viewId) : undefined;
    const mine = view && view.type === 'modal' && view.user === user ? view : undefined;
    if (mine && payload.type === 'block_actions') this.slack.backTo(user, mine.id);
    const threadTs = typeof message?.thread_ts === 'string' ? message.thread_ts : undefined;
    return {
      target: {
        channel: channel?.id ?? ws.imWith(user, `D${user}`).id,
        user,
        ...(ts ? { source: { ts, ephemeral } } : {}),
        ...(threadTs ? { threadTs } : {}),
      },
      submitted:
        mine && payload.type === 'view_submission' ? { view: mine, version: mine.version } : undefined,
    };
  }

  /**
   * An Events API callback; a user_change is Slack's own record changing first. `envelope` adds to
   * or replaces the callback's own fields (an org-wide install's `enterprise_id`, a fixed event id).
   */
  event(
    event: Record<string, unknown>,
    headers: Record<string, string> = {},
    envelope: Record<string, unknown> = {},
  ) {
    if (event.type === 'user_change') this.userChanged(event.user as Record<string, unknown>);
    const body = JSON.stringify({
      token: 'legacy',
      team_id: TEAM,
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: `Ev${randomBytes(4).toString('hex')}`,
      event_time: Math.floor(Date.now() / 1000),
      ...envelope,
      event,
    });
    return this.post(body, 'application/json', { ...sign(body), ...headers });
  }

  /**
   * A Workflow Builder step run: `function_executed` for `callbackId` with `inputs`, as Slack
   * delivers it — with the execution's own bot token (the fake accepts it) — and, given the same
   * `executionId` again, as Slack retries it (same event id, `x-slack-retry-num`).
   */
  stepExecuted(callbackId: string, given: Record<string, unknown>, executionId: string, retry = 0) {
    const token = `xwfp-${executionId}`;
    // Run by the person it acts as, unless the inputs say who ran it (`interactivity: undefined`: a
    // scheduled run, nobody): Slack fills the interactivity input from the trigger.
    const runner = given.act_as;
    const inputs =
      'interactivity' in given || typeof runner !== 'string'
        ? given
        : { ...given, interactivity: ranBy(runner) };
    this.slack.acceptToken(token);
    const body = JSON.stringify({
      token: 'legacy',
      team_id: TEAM,
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: `Ev${executionId}`,
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'function_executed',
        function: {
          id: `Fn${callbackId}`,
          callback_id: callbackId,
          title: callbackId,
          type: 'app',
          app_id: 'A1',
        },
        inputs,
        function_execution_id: executionId,
        workflow_execution_id: `Wx${executionId}`,
        event_ts: String(Date.now() / 1000),
        bot_access_token: token,
      },
    });
    const headers: Record<string, string> = retry
      ? { 'x-slack-retry-num': String(retry), 'x-slack-retry-reason': 'http_timeout' }
      : {};
    return this.post(body, 'application/json', { ...sign(body), ...headers });
  }

  private userChanged(changed: Record<string, unknown> | undefined) {
    const known = typeof changed?.id === 'string' ? this.slack.workspace.users.get(changed.id) : undefined;
    if (!known || !changed) return;
    const profile = (changed.profile ?? {}) as Record<string, unknown>;
    if (typeof changed.tz === 'string') known.tz = changed.tz;
    if (typeof changed.deleted === 'boolean') known.deleted = changed.deleted;
    // Who counts as a full member: a guest (and which kind), a bot, another organization's person.
    if (typeof changed.is_restricted === 'boolean') {
      const single = changed.is_ultra_restricted === true;
      known.guest = single ? 'single-channel' : changed.is_restricted ? 'multi-channel' : false;
    }
    if (typeof changed.is_bot === 'boolean') known.isBot = changed.is_bot;
    if (typeof changed.team_id === 'string') known.teamId = changed.team_id;
    if (typeof profile.display_name === 'string') known.displayName = profile.display_name;
    if (typeof profile.real_name === 'string') known.realName = profile.real_name;
    if (typeof profile.image_original === 'string') known.photo = profile.image_original;
  }

  /**
   * Submits the modal `viewId` as Slack has it now, with the given field values and its current
   * hash (unless `hash` says otherwise); the ack is applied to the person's modals.
   */
  submit(
    viewId: string,
    values: [Field, ViewStateValue][],
    {
      user = 'U1',
      hash,
      headers = {},
    }: { user?: string; hash?: string; headers?: Record<string, string> } = {},
  ) {
    const view = this.slack.views.get(viewId);
    if (!view) throw new Error(`no view ${viewId} was opened`);
    return this.interact(
      { type: 'view_submission', view: submitted(viewId, view, values, hash) },
      user,
      headers,
    );
  }

  // -- What people do in Slack: the driver every Slack test uses -----------------------------

  /**
   * Presses the button `action` (its action id, or the element itself) on `on` as `user`. Its value
   * and block id are the pressed element's as `on` shows it — a message's blocks as given, a modal
   * as Slack shows it now — unless `value` or `blockId` say otherwise (a forged or stale press);
   * where nothing is shown, only what is given is sent.
   */
  press(on: On, action: string | Button, { value, blockId, user = 'U1', headers = {} }: PressOptions = {}) {
    const actionId = typeof action === 'string' ? action : (action.action_id ?? '');
    const given = value ?? (typeof action === 'string' ? undefined : action.value);
    const shown = this.shownBlocks(on);
    const found = shown ? findElement(shown, actionId) : undefined;
    if (shown && !found && given === undefined)
      throw new Error(`no ${actionId} button in ${JSON.stringify(shown).slice(0, 300)}`);
    const pressedValue = given ?? found?.element.value;
    return this.interact(
      this.actionOn(on, {
        type: 'button',
        action_id: actionId,
        block_id: blockId ?? found?.blockId ?? 'b',
        ...(pressedValue === undefined ? {} : { value: pressedValue }),
        action_ts: '1',
      }),
      user,
      headers,
    );
  }

  /**
   * Chooses `value` (a select's option, a radio button, an overflow item) in `field` on `on` as
   * `user`. In a modal the choice is in the view's state too, as Slack sends it; on the Home tab the
   * state is what `on.home` says.
   */
  choose(
    on: On,
    field: Field,
    value: ViewStateValue,
    { user = 'U1', headers = {} }: { user?: string; headers?: Record<string, string> } = {},
  ) {
    const action = { ...value, action_id: field.action, block_id: field.block, action_ts: '1' };
    return this.interact(this.actionOn(on, action, [[field, value]]), user, headers);
  }

  /**
   * A shortcut as `user`: a global one, or — given `message` — the message shortcut on that
   * message in `channel` (C1 unless told). `fields` adds to or replaces what Slack sends.
   */
  shortcut(
    callbackId: string,
    {
      message,
      channel = 'C1',
      channelName = 'general',
      user = 'U1',
      fields = {},
    }: {
      message?: ShownMessage;
      channel?: string;
      channelName?: string;
      user?: string;
      fields?: Record<string, unknown>;
    } = {},
  ) {
    const payload = message
      ? {
          type: 'message_action',
          callback_id: callbackId,
          channel: { id: channel, name: channelName },
          message: { type: 'message', ...message },
          message_ts: message.ts,
          action_ts: '1',
        }
      : { type: 'shortcut', callback_id: callbackId, action_ts: '1' };
    return this.interact({ ...payload, ...fields }, user);
  }

  /**
   * *Create task* on a message (the message shortcut): by default U9's message "Fix the login" in
   * C1, or the message given (its text alone, or the message as Slack shows it).
   */
  createTaskFrom(
    message: string | ShownMessage = 'Fix the login',
    options: { channel?: string; user?: string } = {},
  ) {
    const shown = typeof message === 'string' ? { user: 'U9', ts: SOURCE_TS, text: message } : message;
    return this.shortcut(TASK_SHORTCUT.createTask, { ...options, message: shown });
  }

  /**
   * Opens a form by doing `open` (a command, a shortcut, a press) and resolves with its view id once
   * Slack shows it as `callbackId` — opened or pushed as it is, or a loading view filled in. The
   * request that opens it must be acked (200).
   */
  async openForm(open: () => Promise<unknown>, callbackId: string): Promise<string> {
    const since = this.slack.calls.length;
    const res = await open();
    const status = (res as { status?: unknown } | undefined)?.status;
    if (typeof status === 'number' && status !== 200)
      throw new Error(`the request opening ${callbackId} was answered HTTP ${status}`);
    return this.formShown(callbackId, since);
  }

  /**
   * `/plan admin` opened by `admin`, then its `section` pushed from the root view: resolves with the
   * section view's id as soon as Slack pushed it (its content is filled in after).
   */
  async adminSection(section: string, admin = 'U1'): Promise<string> {
    const opened = this.slack.calls.length;
    await this.command('admin', admin);
    const root = await this.slack.waitFor(
      'views.update',
      (b) => (b.view as { callback_id?: string }).callback_id === ADMIN_VIEW.root,
      { since: opened },
    );
    const since = this.slack.calls.length;
    await this.press({ view: String(root.body.view_id) }, ADMIN_ACTION.section, {
      value: section,
      user: admin,
    });
    return viewIdOf(await this.slack.waitFor('views.push', undefined, { since }));
  }

  /** The view id of the first form Slack shows as `callbackId` from call `since` on. */
  async formShown(callbackId: string, since = 0): Promise<string> {
    let id: string | undefined;
    await eventually(() => {
      for (const call of this.slack.calls.slice(since)) {
        const view = call.body.view as { callback_id?: unknown } | undefined;
        if (view?.callback_id !== callbackId || !FakeSlack.accepted(call)) continue;
        if (call.method === 'views.update') id = String(call.body.view_id);
        else if (call.method === 'views.open' || call.method === 'views.push') id = viewIdOf(call);
        if (id) return true;
      }
      return false;
    }, `the ${callbackId} form`);
    return id!;
  }

  /** The *Create task* form opened on a message (see `createTaskFrom`): its view id once filled. */
  createTaskForm(message?: string | ShownMessage, options: { channel?: string; user?: string } = {}) {
    return this.openForm(() => this.createTaskFrom(message, options), TASK_VIEW.create);
  }

  /**
   * A task of the fixture's feature made in the service (by the owner) whose card the app posted in
   * `channel` and remembers with its place — a thread reply's target, without the form's round trip.
   */
  async taskWithCard(heading = 'Fix login', channel = 'C1') {
    const { teamId, channelId, featureId } = this.fixture;
    const created = await this.owner().tasks.create(teamId, channelId, featureId, { heading });
    const task = { teamId, channelId, featureId, taskId: created.id };
    const cardTs = this.slack.postAsBot(channel, { text: `Task: ${heading}` });
    await this.store.cards.record({
      workspaceId: TEAM,
      kind: 'task',
      entityId: task.taskId,
      slackChannelId: channel,
      messageTs: cardTs,
      place: { orgId: this.sandbox.orgId, teamId, channelId, featureId },
    });
    return { task, cardTs };
  }

  /**
   * A task of the fixture's feature created from a message through the real form, as `user` (U1)
   * in a linked C1 (`details` typed when given): its coordinates and its card's ts, once the card is
   * remembered.
   */
  async createTask(
    heading = 'Fix the login',
    { message, user = 'U1', details }: { message?: ShownMessage; user?: string; details?: string } = {},
  ) {
    const viewId = await this.createTaskForm(message ?? { user: 'U9', ts: SOURCE_TS, text: heading }, {
      user,
    });
    const values: [Field, ViewStateValue][] = [
      [TASK_FIELD.feature, external(this.fixture.featureId, this.fixture.featureHeading)],
      [FIELD.heading, text(heading)],
    ];
    if (details !== undefined) values.push([FIELD.details, text(details)]);
    const since = this.slack.calls.length;
    await this.submit(viewId, values, { user });
    await this.taskFormAnswered(viewId, since);
    const { teamId, channelId, featureId } = this.fixture;
    let taskId = '';
    await eventually(async () => {
      taskId = (await this.tasksOfFeature()).find((t) => t.heading === heading)?.id ?? '';
      return taskId !== '' && (await this.store.cards.list(TEAM, 'task', taskId)).length === 1;
    }, 'the task and its card');
    const [card] = await this.store.cards.list(TEAM, 'task', taskId);
    return { taskId, coords: { teamId, channelId, featureId, taskId }, cardTs: card!.messageTs };
  }

  /**
   * Resolves once the *Create task* form `viewId` shows that the task was created (from call `since`
   * on). The submission's work is all done by then: the card remembered, who made the task
   * (store.taskOrigins), the change funnel's card updates, DMs and canvas edits — written after
   * Slack answered the card's chat.postMessage, so a wait on the task or its card alone is too early.
   */
  taskFormAnswered(viewId: string, since = 0) {
    return this.slack.waitFor(
      'views.update',
      (b) => b.view_id === viewId && JSON.stringify(b.view).includes(' created.'),
      { since },
    );
  }

  /**
   * `/plan feature new` in C1 by U1, submitted for the fixture's team and channel with `heading`
   * and priority 5: the feature's id and its card's ts, once the card is remembered.
   */
  async newFeature(heading: string) {
    const since = this.slack.calls.length;
    const viewId = await this.openForm(() => this.command('feature new'), FEATURE_VIEW.feature);
    await this.submit(viewId, [
      [FIELD.team, choice(this.fixture.teamId)],
      [FIELD.channel, choice(this.fixture.channelId)],
      [FIELD.heading, text(heading)],
      [FEATURE_FIELD.priority, choice('5')],
    ]);
    const posted = await this.slack.waitFor(
      'chat.postMessage',
      (b) => (b.metadata as { event_type?: string } | undefined)?.event_type === FEATURE_CARD_EVENT,
      { since },
    );
    const featureId = (posted.body.metadata as { event_payload: { featureId: string } }).event_payload
      .featureId;
    let ts = '';
    await eventually(async () => {
      ts = (await this.store.cards.list(TEAM, 'feature', featureId))[0]?.messageTs ?? '';
      return ts !== '';
    }, 'the feature card remembered');
    return { featureId, ts };
  }

  /**
   * What a searchable select in `view` answers when `typed` is typed in `field`: `view` is a modal
   * as Slack shows it now, or the view as Slack would send it (one the app never opened).
   */
  suggest(view: string | Record<string, unknown>, field: Field, typed: string, user = 'U1') {
    let sent = view;
    if (typeof view === 'string') {
      const shown = this.slack.views.get(view);
      if (!shown) throw new Error(`no view ${view} was opened`);
      sent = submitted(view, shown, []);
    }
    return this.interact(
      { type: 'block_suggestion', action_id: field.action, block_id: field.block, value: typed, view: sent },
      user,
    );
  }

  /**
   * The start of an OAuth install as a browser goes through it: the landing page at /slack/install
   * (with Bolt's state cookie), and the authorize URL its *Add to Slack* link leads to.
   */
  async beginInstall() {
    const res = await request(`${this.url}/slack/install`);
    const page = await res.body.text();
    const href = /id="add-to-slack" href="([^"]+)"/.exec(page)?.[1];
    if (res.statusCode !== 200 || !href) throw new Error(`no install page (HTTP ${res.statusCode})`);
    const authorize = new URL(
      href.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))),
    );
    return {
      status: res.statusCode,
      page,
      authorize,
      state: authorize.searchParams.get('state') ?? '',
      cookie: String(res.headers['set-cookie']).split(';')[0] ?? '',
    };
  }

  /** Slack sending the browser back with `code` after the person allowed the install begun. */
  async finishInstall(code: string, begun: { state: string; cookie: string }) {
    const redirect = await request(
      `${this.url}/slack/oauth_redirect?code=${code}&state=${encodeURIComponent(begun.state)}`,
      { headers: begun.cookie ? { cookie: begun.cookie } : {} },
    );
    return { status: redirect.statusCode, page: await redirect.body.text() };
  }

  /** An install through /slack/install and the redirect, Slack granting `grant`: the redirect's page. */
  async install(grant: InstallGrant) {
    const begun = await this.beginInstall();
    return this.finishInstall(this.slack.grantInstall(grant), begun);
  }

  /** The blocks `on` shows the presser, where a pressed element is read from; undefined when none. */
  private shownBlocks(on: On): unknown[] | undefined {
    if ('view' in on) return (this.slack.views.get(on.view)?.blocks ?? []) as unknown[];
    if ('message' in on && typeof on.message === 'object') return (on.message.blocks ?? []) as unknown[];
    return undefined;
  }

  /**
   * A block_actions payload for `action` on `on`, as Slack sends it: a message's container, its
   * channel and (unless ephemeral) the message; a modal as Slack shows it now, `state` in it; the
   * Home tab as `on.home` says.
   */
  private actionOn(on: On, action: Record<string, unknown>, state: [Field, ViewStateValue][] = []) {
    if ('view' in on) {
      const view = this.slack.views.get(on.view);
      if (!view) throw new Error(`no view ${on.view} was opened`);
      return {
        type: 'block_actions',
        container: { type: 'view', view_id: on.view },
        view: submitted(on.view, view, state, on.hash),
        actions: [action],
      };
    }
    if ('home' in on) {
      return {
        type: 'block_actions',
        container: { type: 'view', view_id: HOME_VIEW },
        view: { id: HOME_VIEW, type: 'home', ...on.home },
        actions: [action],
      };
    }
    const message = typeof on.message === 'string' ? { ts: on.message } : on.message;
    const channel = on.channel ?? (message ? 'C1' : undefined);
    return {
      type: 'block_actions',
      container: {
        type: 'message',
        ...(message ? { message_ts: message.ts, channel_id: channel } : {}),
        ...(on.ephemeral ? { is_ephemeral: true } : {}),
      },
      ...(channel ? { channel: { id: channel, name: 'general' } } : {}),
      ...(message && !on.ephemeral ? { message: { type: 'message', ...message } } : {}),
      actions: [action],
    };
  }
}

/** The ts of the message a task is created from unless a test says otherwise (`createTaskFrom`). */
export const SOURCE_TS = '1700000000.000100';
/** The Home tab's view id in the tests. */
const HOME_VIEW = 'VHOME';

/** A message as Slack shows it to the person acting on it: its ts, and its blocks, text, metadata… */
export interface ShownMessage {
  ts: string;
  blocks?: readonly unknown[];
  [field: string]: unknown;
}

/**
 * Where a button or a select is: a message — by ts or as shown, in C1 unless told, ephemeral (a
 * list, a reply) or not; or no message Slack names (`{}`: a DM's, an old payload's) — an open modal,
 * or the Home tab (its view's fields).
 */
export type On =
  | { message?: string | ShownMessage; channel?: string; ephemeral?: boolean }
  | { view: string; hash?: string }
  | { home: Record<string, unknown> };

/** A button as a test found it in what Slack shows. */
export interface Button {
  action_id?: string;
  value?: string;
}

export interface PressOptions {
  /** The value sent, instead of the shown button's (a forged or stale press). */
  value?: string;
  /** The block id sent, instead of the shown button's block's ('b' when none). */
  blockId?: string;
  user?: string;
  headers?: Record<string, string>;
}

/** The element with `actionId` among `blocks` (a block's elements or accessory) and its block's id. */
function findElement(blocks: unknown[], actionId: string) {
  type Element = { action_id?: string; value?: string };
  for (const b of blocks as { block_id?: string; elements?: Element[]; accessory?: Element }[]) {
    const element = [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])].find(
      (e) => e.action_id === actionId,
    );
    if (element) return { element, blockId: b.block_id };
  }
  return undefined;
}

/** The view as Slack sends it back on submission: ids, metadata, blocks, its hash and the state values. */
export function submitted(
  viewId: string,
  view: Record<string, unknown>,
  values: [Field, ViewStateValue][],
  hash = typeof view.hash === 'string' ? view.hash : `${viewId}-submitted`,
) {
  const blocks = (view.blocks ?? []) as { block_id?: string }[];
  const state: Record<string, Record<string, ViewStateValue>> = {};
  for (const [field, value] of values) {
    const blockId = blocks.find(
      (b) => b.block_id === field.block || b.block_id?.startsWith(`${field.block}|`),
    )?.block_id;
    state[blockId ?? field.block] = { [field.action]: value };
  }
  return {
    id: viewId,
    hash,
    type: 'modal',
    team_id: TEAM,
    app_id: 'A1',
    bot_id: 'BBOT',
    callback_id: view.callback_id,
    private_metadata: view.private_metadata ?? '',
    title: view.title,
    blocks,
    state: { values: state },
    root_view_id: typeof view.root_view_id === 'string' ? view.root_view_id : viewId,
    previous_view_id: typeof view.previous_view_id === 'string' ? view.previous_view_id : null,
    clear_on_close: false,
    notify_on_close: false,
  };
}

export const text = (value: string): ViewStateValue => ({ type: 'plain_text_input', value });
export const choice = (value: string, label = value): ViewStateValue => ({
  type: 'static_select',
  selected_option: { value, text: { type: 'plain_text', text: label } },
});
export const external = (value: string, label = value): ViewStateValue => ({
  type: 'external_select',
  selected_option: { value, text: { type: 'plain_text', text: label } },
});
export const user = (id: string): ViewStateValue => ({ type: 'users_select', selected_user: id });

/** Whose *Planning profile* the blocks offer: the Slack user ids its buttons carry, in order. */
export function profilesOffered(blocks: unknown): string[] {
  type Element = { action_id?: string; value?: string };
  return ((blocks ?? []) as { elements?: Element[]; accessory?: Element }[])
    .flatMap((b) => [...(b.elements ?? []), ...(b.accessory ? [b.accessory] : [])])
    .filter((e) => e.action_id === ACTION.profileOpen)
    .map((e) => e.value ?? '');
}

/**
 * Two replicas of the app on one PostgreSQL schema, as two processes behind one load balancer: the
 * schema made once for the calling describe block (a `describeWithPostgres`) and dropped after it;
 * before each test the first replica started with `options` and the second beside it, both closed
 * after it. `use` is handed the two each time (`(r) => ({ a, b } = r)`).
 */
export function onTwoReplicas(
  schemaName: string,
  options: Omit<HarnessOptions, 'postgres'>,
  use: (replicas: { a: Harness; b: Harness }) => void,
): void {
  let pg: PgSchema | undefined;
  let started: { a?: Harness; b?: Harness } = {};
  beforeAll(async () => {
    pg = await withPgSchema(schemaName);
  });
  afterAll(() => pg?.drop());
  beforeEach(async () => {
    const a = await Harness.start({ ...options, postgres: pg! });
    started = { a };
    const b = await a.replica();
    started = { a, b };
    use({ a, b });
  });
  afterEach(async () => {
    await started.b?.close();
    await started.a?.close();
    started = {};
  });
}

/**
 * A new harness for each test, its store on `backend` — on PostgreSQL in a schema of its own
 * (`schemaName`), dropped after — handed to `use` before the test runs (set people, connect, link).
 */
export function harnessEachTest(
  backend: 'sqlite' | 'postgres',
  schemaName: string,
  use: (h: Harness) => unknown,
): void {
  let pg: PgSchema | undefined;
  let h: Harness | undefined;
  beforeEach(async () => {
    pg = backend === 'postgres' ? await withPgSchema(schemaName) : undefined;
    h = await Harness.start(pg ? { postgres: pg } : {});
    await use(h);
  });
  afterEach(async () => {
    await h?.close();
    await pg?.drop();
    h = undefined;
    pg = undefined;
  });
}
