/**
 * End-to-end harness: the real Bolt app in HTTP mode on a loopback port, the planning sandbox as
 * the service, a SQLite store in a temp dir, and Slack — its Web API, response_urls and uploads —
 * played by the playground's fake Slack (`src/playground/fake-slack.ts`) on another loopback port,
 * with every call recorded. Requests are signed like Slack signs them, and the harness sets the
 * world up as Slack would have it for what it sends: the acting person and the channel exist (the
 * person in it), the message a button or shortcut is on exists, each request carries a trigger id
 * and a response_url the fake issued, and an ack to a form submission is applied to the person's
 * modals as Slack applies it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ViewStateValue } from '@slack/bolt';
import { request } from 'undici';
import { createClients } from '../../src/clients.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { closePlanningPools, createPlanningClient, type PlanningClient } from '../../src/planning/index.js';
import { FakeSlack, type SlackCall } from '../../src/playground/fake-slack.js';
import { viewObject } from '../../src/playground/web-api.js';
import { type GuestKind, type PgMessage, Workspace } from '../../src/playground/workspace.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import { ACTION, type Field } from '../../src/slack/kit/ids.js';
import { PRESS_LOCK_PREFIX } from '../../src/slack/kit/press.js';
import { createKeyring, openStore, type Store, type StoreOptions } from '../../src/store/index.js';

export type { SlackCall };

export const SIGNING_SECRET = 'test-signing-secret';
export const TEAM = 'T0TEST';
/** The workspace's own address: permalinks start with it. */
export const SLACK_ORIGIN = 'https://slack.test';
/** The single-workspace bot token the harness's app runs with. */
export const BOT_TOKEN = 'xoxb-test-bot-token';
/** Slack's trigger ids live 3 s; a busy CI machine may take longer between a request and the app's views.open. */
const TRIGGER_TTL_MS = 60_000;

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
    const app = createSlackApp({
      config,
      store,
      logger,
      clients: createClients({
        planningUrl: sandbox.url,
        slackApiUrl: config.SLACK_API_URL,
        logger,
        planningOptions: { timeoutMs: options.planningTimeoutMs ?? 1_000, retries: options.retries ?? 0 },
      }),
      envAdminToken: options.provisioning ? sandbox.ownerToken : undefined,
    });
    const { port } = await app.start();
    const url = `http://127.0.0.1:${port}`;
    return new Harness(slack, sandbox, store, app, url, fixture, logs, config, dir, shared, isReplica);
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

  /** `/plan <text>` from `user` in `channel`. */
  command(text: string, user = 'U1', channel = 'C1', team = TEAM) {
    this.slack.ensurePerson(user);
    this.slack.channel(channel, user);
    const body = new URLSearchParams({
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
      response_url: this.slack.responseUrl({ channel, user }),
      trigger_id: this.slack.trigger(user),
    }).toString();
    return this.post(body, 'application/x-www-form-urlencoded');
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

  /** An Events API callback; a user_change is Slack's own record changing first. */
  event(event: Record<string, unknown>, headers: Record<string, string> = {}) {
    if (event.type === 'user_change') this.userChanged(event.user as Record<string, unknown>);
    const body = JSON.stringify({
      token: 'legacy',
      team_id: TEAM,
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: `Ev${randomBytes(4).toString('hex')}`,
      event_time: Math.floor(Date.now() / 1000),
      event,
    });
    return this.post(body, 'application/json', { ...sign(body), ...headers });
  }

  /**
   * A Workflow Builder step run: `function_executed` for `callbackId` with `inputs`, as Slack
   * delivers it — with the execution's own bot token (the fake accepts it) — and, given the same
   * `executionId` again, as Slack retries it (same event id, `x-slack-retry-num`).
   */
  stepExecuted(callbackId: string, inputs: Record<string, unknown>, executionId: string, retry = 0) {
    const token = `xwfp-${executionId}`;
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
