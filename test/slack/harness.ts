/**
 * End-to-end harness: the real Bolt app in HTTP mode on a loopback port, the planning sandbox as
 * the service, a SQLite store in a temp dir, and Slack's Web API (and response_urls) answered by
 * nock at SLACK_API_URL with every call recorded. Requests are signed like Slack signs them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ViewStateValue } from '@slack/bolt';
import nock from 'nock';
import { request } from 'undici';
import { createClients } from '../../src/clients.js';
import { loadConfig } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { closePlanningPools, createPlanningClient, type PlanningClient } from '../../src/planning/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { createSlackApp, type SlackApp } from '../../src/slack/app.js';
import type { Field } from '../../src/slack/kit/ids.js';
import { createKeyring, openStore, type Store } from '../../src/store/index.js';

export const SIGNING_SECRET = 'test-signing-secret';
export const TEAM = 'T0TEST';
export const SLACK_ORIGIN = 'https://slack.test';
const BOT_TOKEN = 'xoxb-test-bot-token';

/** One recorded Slack call: the Web API method (or `respond` for a response_url) and its body. */
export interface SlackCall {
  method: string;
  body: Record<string, unknown>;
}

/** A Slack user the fake `users.info` knows. */
export interface FakeUser {
  id: string;
  name: string;
  realName?: string;
  isAdmin?: boolean;
  tz?: string;
  /** Slack's own facts that decide who may get an account (default: a full member of TEAM). */
  teamId?: string;
  /** Enterprise Grid organization of the user. */
  enterpriseId?: string;
  guest?: 'multi-channel' | 'single-channel';
  bot?: boolean;
  deleted?: boolean;
  stranger?: boolean;
}

/** Answers a Web API call: its JSON, or `{ httpStatus }` for an HTTP-level failure. */
type Responder = (body: Record<string, unknown>) => Record<string, unknown>;

/** Form fields whose values are JSON (blocks, view…), as the WebClient encodes them. */
function parseBody(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === 'object') return raw as Record<string, unknown>;
  const text = String(raw ?? '');
  if (text.startsWith('{')) return JSON.parse(text) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    out[key] = /^[[{]/.test(value) ? JSON.parse(value) : value;
  }
  return out;
}

/** The fake Slack: records calls, answers each method plausibly, lets tests override answers. */
export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly users = new Map<string, FakeUser>();
  private readonly responders = new Map<string, Responder>();
  private viewCount = 0;
  /** Last view sent for each view id (views.open assigns ids V1, V2…). */
  readonly views = new Map<string, Record<string, unknown>>();

  constructor() {
    const ok = (extra: Record<string, unknown> = {}) => ({ ok: true, ...extra });
    this.on('auth.test', () => ok({ user_id: 'UBOT', bot_id: 'BBOT', team_id: TEAM, team: 'Test' }));
    this.on('views.open', (body) => {
      const id = `V${++this.viewCount}`;
      this.views.set(id, body.view as Record<string, unknown>);
      return ok({ view: { id, hash: `${id}-h0` } });
    });
    // A pushed view gets its own id, like an opened one.
    this.on('views.push', (body) => {
      const id = `V${++this.viewCount}`;
      this.views.set(id, body.view as Record<string, unknown>);
      return ok({ view: { id, hash: `${id}-h0` } });
    });
    this.on('views.update', (body) => {
      const id = String(body.view_id);
      this.views.set(id, body.view as Record<string, unknown>);
      return ok({ view: { id, hash: `${id}-h${this.calls.length}` } });
    });
    this.on('chat.postMessage', (body) => ok({ ts: `${Date.now() / 1000}`, channel: body.channel }));
    this.on('chat.getPermalink', (body) =>
      ok({
        permalink: `${SLACK_ORIGIN}/archives/${body.channel}/p${String(body.message_ts).replace('.', '')}`,
      }),
    );
    this.on('conversations.open', (body) => ok({ channel: { id: `D${body.users}` } }));
    this.on('users.info', (body) => {
      const user = this.users.get(String(body.user));
      if (!user) return { ok: false, error: 'user_not_found' };
      return ok({
        user: {
          id: user.id,
          team_id: user.teamId ?? TEAM,
          name: user.name,
          is_admin: Boolean(user.isAdmin),
          is_owner: false,
          is_restricted: user.guest !== undefined,
          is_ultra_restricted: user.guest === 'single-channel',
          is_bot: Boolean(user.bot),
          deleted: Boolean(user.deleted),
          ...(user.stranger ? { is_stranger: true } : {}),
          ...(user.enterpriseId ? { enterprise_user: { enterprise_id: user.enterpriseId } } : {}),
          tz: user.tz ?? 'Europe/Paris',
          profile: { real_name: user.realName ?? user.name, display_name: '' },
        },
      });
    });
  }

  on(method: string, responder: Responder) {
    this.responders.set(method, responder);
  }

  /** The current answer of `method` (to put back after a test replaced it). */
  responder(method: string): Responder {
    return this.responders.get(method) ?? (() => ({ ok: true }));
  }

  answer(method: string, body: Record<string, unknown>): Record<string, unknown> {
    this.calls.push({ method, body });
    return (this.responders.get(method) ?? (() => ({ ok: true })))(body);
  }

  called(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Waits (bounded) until a call of `method` matching `match` was made; returns it. */
  async waitFor(method: string, match: (body: Record<string, unknown>) => boolean = () => true) {
    let found: SlackCall | undefined;
    await eventually(() => {
      found = this.calls.find((c) => c.method === method && match(c.body));
      return found !== undefined;
    }, `a ${method} call`);
    return found as SlackCall;
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
}

/** A planning team with its default channel and one feature, made with the owner's token. */
export interface Fixture {
  teamId: string;
  channelId: string;
  featureId: string;
  featureHeading: string;
}

/** Answers Slack's Web API and response_urls from `slack`; nothing else may leave the machine. */
function mockSlack(slack: FakeSlack) {
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
  nock(SLACK_ORIGIN)
    .persist()
    .post(/^\/api\/[\w.]+$/)
    .reply((uri, body) => {
      const answer = slack.answer(uri.replace('/api/', ''), parseBody(body));
      // A responder may answer at the HTTP level (a 500), as Slack does when it fails.
      return typeof answer.httpStatus === 'number' ? [answer.httpStatus, 'error'] : [200, answer];
    })
    .post(/^\/respond\//)
    .reply(200, (_uri, body) => {
      slack.answer('respond', parseBody(body));
      return { ok: true };
    });
}

export class Harness {
  private constructor(
    readonly slack: FakeSlack,
    readonly sandbox: Sandbox,
    readonly store: Store,
    readonly app: SlackApp,
    readonly url: string,
    readonly fixture: Fixture,
    readonly logs: string[],
    private readonly dir: string,
  ) {}

  static async start(options: HarnessOptions = {}): Promise<Harness> {
    const sandbox = await startSandbox({ seed: 'minimal' });
    const dir = mkdtempSync(join(tmpdir(), 'slack-e2e-'));
    const key = randomBytes(32).toString('base64');
    const store = await openStore({
      sqliteFile: join(dir, 'store.sqlite'),
      keyring: createKeyring({ current: key }),
    });
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
      SLACK_API_URL: `${SLACK_ORIGIN}/api/`,
      PLANNING_API_URL: sandbox.url,
      ENCRYPTION_KEY: key,
      PORT: '0',
      LOG_LEVEL: 'debug',
    });
    const logs: string[] = [];
    const logger: Logger = createLogger({
      level: 'debug',
      destination: { write: (line: string) => logs.push(line) },
    });

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

    const slack = new FakeSlack();
    mockSlack(slack);
    const app = createSlackApp({
      config,
      store,
      logger,
      clients: createClients({
        planningUrl: sandbox.url,
        slackApiUrl: config.SLACK_API_URL,
        logger,
        planningOptions: { timeoutMs: 1_000, retries: options.retries ?? 0 },
      }),
      envAdminToken: options.provisioning ? sandbox.ownerToken : undefined,
    });
    const { port } = await app.start();
    return new Harness(slack, sandbox, store, app, `http://127.0.0.1:${port}`, fixture, logs, dir);
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

  /** Resolves once no card press holds its lock (cards/press.ts): a next press will be applied. */
  pressesSettled() {
    return eventually(async () => {
      const keys = await this.store.db.selectFrom('processed_interactions').select('key').execute();
      return !keys.some((k) => k.key.startsWith('card-press:'));
    }, 'the press to finish');
  }

  async close() {
    await this.app.stop();
    await this.sandbox.close();
    await this.store.close();
    await closePlanningPools();
    nock.cleanAll();
    nock.enableNetConnect();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A planning client acting as the sandbox's owner (to check what was saved). */
  owner(): PlanningClient {
    return createPlanningClient({ baseUrl: this.sandbox.url, token: this.sandbox.ownerToken });
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
    this.slack.users.set(
      slackUserId,
      this.slack.users.get(slackUserId) ?? { id: slackUserId, name: `user-${slackUserId}` },
    );
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

  /** Links a Slack channel to the fixture's planning channel (as `/plan link` would). */
  link(slackChannelId = 'C1', createdBy = 'U1') {
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
      response_url: `${SLACK_ORIGIN}/respond/${randomBytes(4).toString('hex')}`,
      trigger_id: `trigger-${randomBytes(4).toString('hex')}`,
    }).toString();
    return this.post(body, 'application/x-www-form-urlencoded');
  }

  /** An interactivity payload (`payload=<json>`), with team/user filled in. */
  interact(payload: Record<string, unknown>, user = 'U1', extraHeaders: Record<string, string> = {}) {
    const full = {
      api_app_id: 'A1',
      token: 'legacy',
      is_enterprise_install: false,
      team: { id: TEAM, domain: 'test' },
      user: { id: user, name: `user-${user}`, team_id: TEAM },
      trigger_id: `trigger-${randomBytes(4).toString('hex')}`,
      response_url: `${SLACK_ORIGIN}/respond/${randomBytes(4).toString('hex')}`,
      ...payload,
    };
    const body = new URLSearchParams({ payload: JSON.stringify(full) }).toString();
    return this.post(body, 'application/x-www-form-urlencoded', { ...sign(body), ...extraHeaders });
  }

  /** An Events API callback. */
  event(event: Record<string, unknown>, headers: Record<string, string> = {}) {
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

  /** Submits the modal last sent for `viewId` with the given field values. */
  submit(
    viewId: string,
    values: [Field, ViewStateValue][],
    {
      user = 'U1',
      hash = `${viewId}-submitted`,
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

/** The view as Slack sends it back on submission: ids, metadata, blocks and the state values. */
export function submitted(
  viewId: string,
  view: Record<string, unknown>,
  values: [Field, ViewStateValue][],
  hash = `${viewId}-submitted`,
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
    root_view_id: viewId,
    previous_view_id: null,
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
