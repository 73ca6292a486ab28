/**
 * The one fake Slack: Slack's side of what the app talks to over HTTP, on loopback — the Web API
 * (`/api/<method>`, the bot token checked as Slack checks it, answered by `web-api.ts` from a
 * {@link Workspace}), response_urls (`/respond/<id>`, applied as Slack applies them) and file
 * uploads (`/upload/<id>`). The playground serves its page beside these routes; the tests, and
 * benchmarks that need Slack, start it on its own (`startFakeSlack`).
 *
 * Whoever plays the people (the playground's page, a test harness) gets what Slack would give
 * them: trigger ids that open one view within their lifetime, response_urls, and the effect of an
 * ack on a person's modals. Every call is recorded (method, parsed body, token, answer), and a
 * method's answer can be replaced for fault injection: Slack's `{ ok: false, error }`, an HTTP
 * failure (a 500) or a 429 with Retry-After. Slack's posting limits can be enforced
 * (`enforcePostLimits`): a message too soon in a channel or past the workspace's rate gets 429.
 *
 * Socket Mode too, on the same loopback port: `apps.connections.open` (an app token only) answers a
 * `ws://` URL with a ticket that works once; the app connects there, is greeted with Slack's
 * `hello`, and a test sends envelopes on its connection (`envelope`, or any text with
 * `socketSend`) and reads the app's acks.
 */

import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { pino } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';
import { createLogger, type Logger } from '../logger.js';
import {
  type Answer,
  type Args,
  createWebApi,
  parseArgs,
  SlackError,
  TRIGGER_TTL_MS,
  type Triggers,
} from './web-api.js';
import { type PgView, Workspace } from './workspace.js';

/** Largest request body accepted (a modal's state, a Block Kit message, a chart's PNG). */
const MAX_BODY = 2 * 1024 * 1024;

/** A response_url answers for 30 minutes, at most 5 times (Slack's rule). */
const RESPONSE_URL_TTL_MS = 30 * 60_000;
const RESPONSE_URL_USES = 5;

/** One request Slack received: a Web API method, or `respond` for a response_url. */
export interface SlackCall {
  method: string;
  /** The parsed body (JSON-valued form fields decoded), without the token. */
  body: Record<string, unknown>;
  /** The token it carried (bearer or form field), if any. */
  token?: string;
  /** `performance.now()` when it arrived. */
  at: number;
  /** `performance.now()` when it was answered (a message is in its channel from then); undefined until then. */
  answeredAt?: number;
  /** The HTTP status answered; undefined until answered. */
  status?: number;
  /** The JSON answered (a Web API answer); undefined until answered, or when the answer was not JSON. */
  answer?: Record<string, unknown>;
}

/** An answer at the HTTP level: a 500, a 429 with `{ 'retry-after': '7' }`… */
export interface HttpAnswer {
  httpStatus: number;
  headers?: Record<string, string>;
  /** JSON, or text as it is. */
  body?: unknown;
}

/** No answer at all: the connection is reset once the call was read (and, with `failAfter`, done). */
export interface ResetAnswer {
  reset: true;
}

export type Reply = Answer | HttpAnswer | ResetAnswer;

/** What a replaced answer is told about the call. */
export interface CallContext {
  method: string;
  token?: string;
  /** The response_url's id, for `respond`. */
  responseUrlId?: string;
}

/**
 * Answers a call instead of the fake: a reply, or undefined to let the fake answer as usual (so a
 * responder can fail only some calls).
 */
export type Responder = (body: Args, context: CallContext) => Reply | undefined | Promise<Reply | undefined>;

/** Where a response_url's replies go. */
export interface ResponseTarget {
  channel: string;
  user: string;
  /** The message the request came from (a button in it): replace_original / delete_original act on it. */
  source?: { ts: string; ephemeral: boolean };
  threadTs?: string;
}

/** The ack of a view_submission, as the app answered it. */
export interface ViewAck {
  response_action?: string;
  errors?: Record<string, string>;
  view?: Record<string, unknown>;
}

export interface FakeSlackOptions {
  /** The workspace it serves (default: an empty one, holding the bot). */
  workspace?: Workspace;
  /** Tokens Slack knows (bot tokens, an app token); any other is refused with `invalid_auth`. */
  tokens?: string[];
  /** How long a trigger id opens a view (default Slack's 3 s; a test on a busy machine may give more). */
  triggerTtlMs?: number;
  /** Where the fake says what it refused or does not know (default: warnings on stderr). */
  logger?: Logger;
  /** Keep every call in `calls` (default true); false keeps the counts only (a long benchmark). */
  record?: boolean;
  /** The app's OAuth credentials `oauth.v2.access` checks (default: any client is accepted). */
  app?: { clientId: string; clientSecret: string };
}

/** An install Slack completes when the app exchanges its code (`oauth.v2.access`). */
export interface InstallGrant {
  /** The workspace installed into; absent for an org-wide install (Slack answers `team: null`). */
  team?: { id: string; name: string };
  /** The Enterprise Grid organization; with no `team`, the install is org-wide. */
  enterprise?: { id: string; name: string };
  /** Who installed. */
  user: string;
  /**
   * Token rotation on: the install's access token expires after this many seconds (a test may
   * give less than Slack's 12 hours, to be due for refresh at once) and comes with a refresh token
   * that works once; a refreshed token lives Slack's {@link ROTATED_TOKEN_TTL_S}.
   */
  expiresInSeconds?: number;
}

/** Slack's access token lifetime with token rotation on. */
export const ROTATED_TOKEN_TTL_S = 12 * 60 * 60;

/**
 * Slack's posting limits as the fake enforces them, on `chat.postMessage` and `chat.update`. The fake
 * serves one workspace, so "per workspace" is per bot token: a benchmark standing for many
 * workspaces gives each its own token.
 */
export interface FakePostLimits {
  /** A message in a channel less than this after the previous one accepted there is refused. Default 1000. */
  channelIntervalMs?: number;
  /** At most this many messages accepted per token in any second. */
  workspacePerSecond: number;
  /** The Retry-After answered, seconds. Default 1. */
  retryAfterSeconds?: number;
}

/** The app's answer to a Socket Mode envelope, as it came over the connection. */
export interface SocketAck {
  envelope_id: string;
  payload?: Record<string, unknown>;
}

/** How long a test waits for the app's connection or its ack before failing (a busy machine's margin). */
const SOCKET_WAIT_MS = 10_000;

/** Methods Slack limits as posting. */
const POSTING_METHODS = new Set(['chat.postMessage', 'chat.update']);

const isHttpAnswer = (reply: Reply): reply is HttpAnswer =>
  typeof (reply as HttpAnswer).httpStatus === 'number';
const isReset = (reply: Reply): reply is ResetAnswer => (reply as ResetAnswer).reset === true;

/** A request's body, refused past {@link MAX_BODY} (shared with the page's server). */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new SlackError('request_too_large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  type = 'application/json; charset=utf-8',
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
  res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : type,
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export class FakeSlack implements Triggers {
  readonly workspace: Workspace;
  /** Every call received, in arrival order (empty when recording is off). */
  readonly calls: SlackCall[] = [];
  /** Calls received per method, kept even when recording is off. */
  readonly counts = new Map<string, number>();
  /** Posting calls refused with 429 by the enforced posting limits (`enforcePostLimits`). */
  rateLimited = 0;
  private postLimits?: Required<FakePostLimits>;
  /** Per token: when its recent accepted messages arrived (the last second's); per channel: the last one. */
  private readonly postedAt = new Map<string, number[]>();
  private readonly channelPostedAt = new Map<string, number>();
  readonly triggerTtlMs: number;
  private readonly tokens: Set<string>;
  private readonly logger: Logger;
  private readonly record: boolean;
  private readonly responders = new Map<string, Responder>();
  private readonly triggers = new Map<string, { user: string; expires: number; spent: boolean }>();
  private readonly responseUrls = new Map<string, ResponseTarget & { expires: number; uses: number }>();
  private readonly answered = new EventEmitter();
  private readonly callApi: (method: string, args: Args) => Promise<Answer>;
  private readonly app?: { clientId: string; clientSecret: string };
  /** Install codes not yet exchanged. */
  private readonly codes = new Map<string, InstallGrant>();
  /** Refresh tokens issued, with the grant they renew and whether they were spent. */
  private readonly refreshTokens = new Map<string, { grant: InstallGrant; spent: boolean }>();
  /** When an expiring access token stops working (epoch ms). */
  private readonly expiries = new Map<string, number>();
  private server?: Server;
  private origin = '';
  /** Socket Mode: tickets `apps.connections.open` issued and not yet used, the app's connections, acks awaited. */
  private readonly socketTickets = new Set<string>();
  private socketServer?: WebSocketServer;
  private readonly sockets = new Set<WebSocket>();
  private readonly socketEvents = new EventEmitter();

  constructor(options: FakeSlackOptions = {}) {
    this.workspace = options.workspace ?? new Workspace();
    this.tokens = new Set(options.tokens ?? []);
    this.triggerTtlMs = options.triggerTtlMs ?? TRIGGER_TTL_MS;
    this.record = options.record ?? true;
    if (options.app) this.app = options.app;
    this.logger =
      options.logger ?? createLogger({ level: 'warn', destination: pino.destination({ fd: 2, sync: true }) });
    this.answered.setMaxListeners(0);
    this.socketEvents.setMaxListeners(0);
    this.callApi = createWebApi({
      workspace: this.workspace,
      triggers: this,
      baseUrl: () => this.url,
      logger: this.logger,
    });
  }

  /** The fake's own address, e.g. `http://127.0.0.1:40123` (known once it listens). */
  get url(): string {
    return this.origin;
  }

  /** Where the Web API is: what `SLACK_API_URL` is set to. */
  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  /** Sets the address when another server serves these routes (the playground's). */
  setUrl(origin: string) {
    this.origin = origin.replace(/\/$/, '');
  }

  /** Lets `token` call the Web API (a bot token issued by an install, an app token). */
  acceptToken(token: string) {
    this.tokens.add(token);
  }

  // -- OAuth: installs and token rotation ----------------------------------------------------

  /** The code Slack hands the app's redirect once a person approved `grant`; it works once. */
  grantInstall(grant: InstallGrant): string {
    const code = `code-${randomBytes(8).toString('hex')}`;
    this.codes.set(code, grant);
    return code;
  }

  /** Whether a refresh token was already spent (Slack accepts each one once). */
  refreshTokenSpent(refreshToken: string): boolean | undefined {
    return this.refreshTokens.get(refreshToken)?.spent;
  }

  /** A new bot token for `grant`, expiring and with its refresh token when rotation is on. */
  private issue(grant: InstallGrant, expiresIn = grant.expiresInSeconds) {
    const token = `xoxb-${randomBytes(10).toString('hex')}`;
    this.tokens.add(token);
    if (expiresIn === undefined) return { access_token: token };
    const refresh = `xoxe-1-${randomBytes(10).toString('hex')}`;
    this.refreshTokens.set(refresh, { grant, spent: false });
    this.expiries.set(token, this.workspace.now() + expiresIn * 1000);
    return { access_token: token, refresh_token: refresh, expires_in: expiresIn };
  }

  /**
   * `oauth.v2.access` as Slack answers it: a code exchanged once for the install's tokens (an
   * org-wide install answers `team: null`, `is_enterprise_install: true`), or, with
   * `grant_type=refresh_token`, a spent refresh token refused and an unspent one exchanged for a
   * new access token and a new refresh token (the old access token works until it expires).
   */
  private oauthAccess(args: Args): Answer {
    if (this.app) {
      if (args.client_id !== this.app.clientId) return { ok: false, error: 'invalid_client_id' };
      if (args.client_secret !== this.app.clientSecret) return { ok: false, error: 'bad_client_secret' };
    }
    const ws = this.workspace;
    if (args.grant_type === 'refresh_token') {
      const held = this.refreshTokens.get(String(args.refresh_token ?? ''));
      if (!held || held.spent) return { ok: false, error: 'invalid_refresh_token' };
      held.spent = true;
      return { ok: true, token_type: 'bot', ...this.issue(held.grant, ROTATED_TOKEN_TTL_S) };
    }
    const grant = this.codes.get(String(args.code ?? ''));
    if (!grant) return { ok: false, error: 'invalid_code' };
    this.codes.delete(String(args.code));
    return {
      ok: true,
      app_id: ws.bot.appId,
      token_type: 'bot',
      scope: 'commands',
      bot_user_id: ws.bot.userId,
      ...this.issue(grant),
      team: grant.team ?? null,
      enterprise: grant.enterprise ?? null,
      is_enterprise_install: !grant.team,
      authed_user: { id: grant.user },
    };
  }

  // -- Replacing answers ------------------------------------------------------------------

  /** Answers `method` with `responder` from now on; without one, the fake answers again. */
  on(method: string, responder?: Responder) {
    if (responder) this.responders.set(method, responder);
    else this.responders.delete(method);
  }

  /** The current answer of `method`: a replacement, or the fake's own (to call from a replacement or put back). */
  responder(method: string): Responder {
    return (
      this.responders.get(method) ??
      ((body, context) =>
        method === 'respond'
          ? this.respond(context.responseUrlId ?? '', body)
          : this.answer(method, body, context.token))
    );
  }

  /** The next `times` calls of `method` get `reply` (Slack's error, a 500, a 429); the others as usual. */
  fail(method: string, reply: Reply, times = 1) {
    const previous = this.responders.get(method);
    let left = times;
    this.on(method, (body, context) => {
      if (left <= 0) return previous?.(body, context);
      left -= 1;
      if (left === 0) this.on(method, previous);
      return reply;
    });
  }

  /**
   * The next `times` calls of `method` are done as usual — a message posted stays posted — and then
   * answered with `failure` instead of Slack's answer: a 500 (a gateway failing after the work) or
   * `{ reset: true }` (the connection dropped before any answer).
   */
  failAfter(method: string, failure: HttpAnswer | ResetAnswer, times = 1) {
    const previous = this.responder(method);
    let left = times;
    this.on(method, async (body, context) => {
      const done = await previous(body, context);
      if (left <= 0) return done;
      left -= 1;
      return failure;
    });
  }

  /** The next `times` calls of `method` are rate limited: 429 with Retry-After, as Slack answers. */
  rateLimit(method: string, retryAfterSeconds: number, times = 1) {
    this.fail(
      method,
      {
        httpStatus: 429,
        headers: { 'retry-after': String(retryAfterSeconds) },
        body: { ok: false, error: 'ratelimited' },
      },
      times,
    );
  }

  /** Refuses messages past Slack's posting limits from now on (undefined: no limits, the default). */
  enforcePostLimits(limits: FakePostLimits | undefined) {
    this.postLimits = limits ? { channelIntervalMs: 1_000, retryAfterSeconds: 1, ...limits } : undefined;
    this.postedAt.clear();
    this.channelPostedAt.clear();
  }

  /** The 429 for a message past the limits, or undefined when it may be posted (then it counts). */
  private overPostLimits(method: string, args: Args, token: string): HttpAnswer | undefined {
    const limits = this.postLimits;
    if (!limits || !POSTING_METHODS.has(method)) return undefined;
    const at = performance.now();
    const channelKey = `${token}\u0000${String(args.channel ?? '')}`;
    const recent = (this.postedAt.get(token) ?? []).filter((t) => at - t < 1_000);
    const last = this.channelPostedAt.get(channelKey);
    if (
      (last !== undefined && at - last < limits.channelIntervalMs) ||
      recent.length >= limits.workspacePerSecond
    ) {
      this.postedAt.set(token, recent);
      this.rateLimited += 1;
      return {
        httpStatus: 429,
        headers: { 'retry-after': String(limits.retryAfterSeconds) },
        body: { ok: false, error: 'ratelimited' },
      };
    }
    recent.push(at);
    this.postedAt.set(token, recent);
    this.channelPostedAt.set(channelKey, at);
    return undefined;
  }

  // -- The log of calls ---------------------------------------------------------------------

  /** Calls `listener` with each call once it is answered (recorded or not); returns how to stop. */
  observe(listener: (call: SlackCall) => void): () => void {
    this.answered.on('call', listener);
    return () => this.answered.off('call', listener);
  }

  called(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Whether Slack accepted the call: a 200 and, for the Web API, `ok: true`. */
  static accepted(call: SlackCall): boolean {
    return call.status === 200 && (call.method === 'respond' || call.answer?.ok === true);
  }

  /**
   * Resolves with the first answered call of `method` from index `since` on that matches, once
   * there is one — accepted by Slack unless `refused` is true (then any answer counts). Rejects
   * after `timeoutMs` (default 10 s), naming matching calls Slack refused, if any.
   */
  waitFor(
    method: string,
    match: (body: Record<string, unknown>) => boolean = () => true,
    {
      since = 0,
      refused = false,
      timeoutMs = 10_000,
    }: { since?: number; refused?: boolean; timeoutMs?: number } = {},
  ): Promise<SlackCall> {
    const fits = (c: SlackCall) =>
      c.method === method && c.status !== undefined && (refused || FakeSlack.accepted(c)) && match(c.body);
    const found = this.calls.slice(since).find(fits);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const onCall = (call: SlackCall) => {
        if (this.calls.indexOf(call) < since || !fits(call)) return;
        clearTimeout(timer);
        this.answered.off('call', onCall);
        resolve(call);
      };
      const timer = setTimeout(() => {
        this.answered.off('call', onCall);
        const refusals = this.calls
          .slice(since)
          .filter((c) => c.method === method && !FakeSlack.accepted(c) && match(c.body))
          .map((c) => (c.answer?.error as string | undefined) ?? `HTTP ${c.status}`);
        reject(
          new Error(
            `timed out waiting for a ${method} call` +
              (refusals.length
                ? ` (Slack refused ${refusals.length} that matched: ${refusals.join(', ')})`
                : ''),
          ),
        );
      }, timeoutMs);
      this.answered.on('call', onCall);
    });
  }

  // -- What Slack gives the people: triggers, response_urls, modals -------------------------

  /** A trigger id for `user`: it opens (or pushes) one view within the trigger's lifetime. */
  trigger(user: string): string {
    const now = this.workspace.now();
    const id = `${now}.${randomBytes(6).toString('hex')}`;
    this.triggers.set(id, { user, expires: now + this.triggerTtlMs, spent: false });
    return id;
  }

  redeem(triggerId: string | undefined): string {
    const found = triggerId ? this.triggers.get(triggerId) : undefined;
    if (!found) throw new SlackError('invalid_trigger_id');
    if (found.spent) throw new SlackError('exchanged_trigger_id');
    found.spent = true;
    if (this.workspace.now() > found.expires) throw new SlackError('expired_trigger_id');
    return found.user;
  }

  /** A response_url on this fake: replies posted there land in `target` as Slack applies them. */
  responseUrl(target: ResponseTarget): string {
    const id = randomBytes(12).toString('hex');
    this.responseUrls.set(id, {
      ...target,
      expires: this.workspace.now() + RESPONSE_URL_TTL_MS,
      uses: 0,
    });
    return `${this.origin}/respond/${id}`;
  }

  /** A reply at a response_url: ephemeral by default, in the channel, or replacing/deleting the source. */
  respond(id: string, body: Args): HttpAnswer {
    const ws = this.workspace;
    const target = this.responseUrls.get(id);
    if (!target || ws.now() > target.expires) return { httpStatus: 404, body: 'expired_url' };
    if (++target.uses > RESPONSE_URL_USES) return { httpStatus: 404, body: 'used_url' };
    const source = target.source
      ? ws.find(target.channel, target.source.ts, target.source.ephemeral ? target.user : undefined)
      : undefined;
    const truthy = (v: unknown) => v === true || v === 'true';
    if (truthy(body.delete_original)) {
      if (source) ws.remove(source);
      return { httpStatus: 200, body: 'ok' };
    }
    const text = typeof body.text === 'string' ? body.text : '';
    const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
    if (!text && !blocks) return { httpStatus: 400, body: 'no_text' };
    if (truthy(body.replace_original) && source) {
      source.text = text;
      if (blocks) source.blocks = blocks;
      else delete source.blocks;
      ws.changed({ kind: 'messages', channel: source.channel });
      return { httpStatus: 200, body: 'ok' };
    }
    const inChannel = body.response_type === 'in_channel';
    const threadTs =
      target.threadTs ?? (source?.threadTs && source.threadTs !== source.ts ? source.threadTs : undefined);
    ws.post({
      channel: target.channel,
      user: ws.bot.userId,
      botId: ws.bot.botId,
      text,
      ...(blocks ? { blocks } : {}),
      ...(inChannel ? {} : { ephemeralTo: target.user }),
      ...(threadTs ? { threadTs } : {}),
    });
    return { httpStatus: 200, body: 'ok' };
  }

  /**
   * Applies the ack of a view_submission to the person's modals as Slack does: errors shown on
   * the view, the view updated (unless the app already updated it after the submission: that one
   * is newer), a view pushed, every view cleared, or — any other ack — the view closed.
   * `versionSent` is the view's version when it was submitted. Returns the action applied.
   */
  applyViewAck(user: string, view: PgView, versionSent: number, ack: ViewAck): string {
    const ws = this.workspace;
    const stack = ws.stacks.get(user) ?? [];
    ws.stacks.set(user, stack);
    const newHash = () => `${ws.now()}.${ws.nextId('h')}`;
    switch (ack.response_action) {
      case 'errors':
        view.errors = ack.errors ?? {};
        view.version++;
        break;
      case 'update':
        if (ack.view && view.version === versionSent) {
          view.view = ack.view;
          view.hash = newHash();
          view.errors = {};
          view.version++;
        }
        break;
      case 'push': {
        if (ack.view) {
          const id = ws.nextId('V');
          ws.views.set(id, {
            id,
            hash: newHash(),
            type: 'modal',
            user,
            view: ack.view,
            rootId: view.rootId,
            previousId: view.id,
            errors: {},
            version: 0,
          });
          stack.push(id);
        }
        break;
      }
      case 'clear':
        stack.length = 0;
        break;
      default: {
        const at = stack.indexOf(view.id);
        if (at >= 0) stack.splice(at, 1);
      }
    }
    ws.changed({ kind: 'modal', user });
    return ack.response_action ?? 'close';
  }

  /** The person closes their top modal (Cancel or ×): all of them when the view asks to clear on close. */
  closeView(user: string, view: PgView): { cleared: boolean; notify: boolean } {
    const ws = this.workspace;
    const stack = ws.stacks.get(user) ?? [];
    const cleared = Boolean(view.view.clear_on_close);
    if (cleared) stack.length = 0;
    else if (stack.at(-1) === view.id) stack.pop();
    ws.changed({ kind: 'modal', user });
    return { cleared, notify: Boolean(view.view.notify_on_close) };
  }

  /** The person goes back to `viewId` in their modal stack (the views above it are closed). */
  backTo(user: string, viewId: string) {
    const stack = this.workspace.stacks.get(user) ?? [];
    const at = stack.indexOf(viewId);
    if (at >= 0 && at < stack.length - 1) {
      stack.length = at + 1;
      this.workspace.changed({ kind: 'modal', user });
    }
  }

  // -- HTTP -------------------------------------------------------------------------------

  /** The fake's own answer to a Web API call (the token checked first, as Slack does). */
  private async answer(method: string, args: Args, token: string | undefined): Promise<Answer> {
    // The app authenticates the code exchange and refreshes with its client id and secret.
    if (method === 'oauth.v2.access') return this.oauthAccess(args);
    if (!token) return { ok: false, error: 'not_authed' };
    if (!this.tokens.has(token)) return { ok: false, error: 'invalid_auth' };
    const expires = this.expiries.get(token);
    if (expires !== undefined && this.workspace.now() >= expires)
      return { ok: false, error: 'token_expired' };
    if (method === 'apps.connections.open') return this.openSocket(token);
    return this.callApi(method, args);
  }

  // -- Socket Mode ------------------------------------------------------------------------

  /** `apps.connections.open`: a `ws://` URL on this fake, for an app token only (Slack's rule). */
  private openSocket(token: string): Answer {
    if (!token.startsWith('xapp-')) return { ok: false, error: 'not_allowed_token_type' };
    const ticket = randomBytes(8).toString('hex');
    this.socketTickets.add(ticket);
    return { ok: true, url: `${this.origin.replace(/^http/, 'ws')}/link/?ticket=${ticket}` };
  }

  /** The app connecting with a ticket it was given: greeted with Slack's `hello`; anything else is cut. */
  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(req.url ?? '/', 'http://fake-slack');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (url.pathname !== '/link/' || !this.socketTickets.delete(ticket)) {
      socket.destroy();
      return;
    }
    // Loaded only when an app connects over Socket Mode — the tests and benchmarks, never the
    // playground, whose app runs over HTTP: a development dependency is enough.
    // biome-ignore lint/correctness/noUndeclaredDependencies: a devDependency, imported only on a Socket Mode connection.
    const { WebSocketServer } = await import('ws');
    this.socketServer ??= new WebSocketServer({ noServer: true });
    this.socketServer.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      ws.on('message', (data) => {
        let message: unknown;
        try {
          message = JSON.parse(String(data));
        } catch {
          this.logger.warn('fake Slack: a Socket Mode message that is not JSON');
          return;
        }
        const id = (message as { envelope_id?: unknown } | null)?.envelope_id;
        if (typeof id === 'string') this.socketEvents.emit(`ack:${id}`, message);
      });
      ws.send(
        JSON.stringify({
          type: 'hello',
          num_connections: this.sockets.size,
          debug_info: { host: 'fake-slack', approximate_connection_time: 3600 },
          connection_info: { app_id: this.workspace.bot.appId },
        }),
      );
      this.socketEvents.emit('connected');
    });
  }

  /** Resolves once an app holds a Socket Mode connection (greeted); rejects after a while. */
  socketConnected(): Promise<void> {
    if (this.sockets.size > 0) return Promise.resolve();
    return this.waitSocket('connected', 'an app to connect over Socket Mode').then(() => undefined);
  }

  /**
   * Sends an envelope on the app's connection, as Slack does (`events_api`, `interactive`,
   * `slash_commands`, with `retry_attempt` when it retries), and resolves with the app's ack.
   */
  envelope(type: string, payload: unknown, extra: Record<string, unknown> = {}): Promise<SocketAck> {
    const envelopeId = `env-${randomBytes(6).toString('hex')}`;
    const text = JSON.stringify({
      envelope_id: envelopeId,
      type,
      payload,
      accepts_response_payload: type !== 'events_api',
      ...(type === 'events_api' ? { retry_attempt: 0, retry_reason: '' } : {}),
      ...extra,
    });
    return this.socketSend(text, envelopeId) as Promise<SocketAck>;
  }

  /**
   * Sends `text` as it is on the app's connection (what Slack would never send, too); given the
   * envelope id it carries, resolves with the app's ack of it.
   */
  async socketSend(text: string, envelopeId?: string): Promise<SocketAck | undefined> {
    await this.socketConnected();
    const acked = envelopeId
      ? (this.waitSocket(`ack:${envelopeId}`, `the ack of envelope ${envelopeId}`) as Promise<SocketAck>)
      : undefined;
    for (const ws of this.sockets) {
      ws.send(text);
      break;
    }
    return acked;
  }

  private waitSocket(event: string, what: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.socketEvents.off(event, done);
        reject(new Error(`timed out waiting for ${what}`));
      }, SOCKET_WAIT_MS);
      const done = (value: unknown) => {
        clearTimeout(timer);
        resolve(value);
      };
      this.socketEvents.once(event, done);
    });
  }

  private begin(method: string, body: Args, token?: string): SlackCall {
    const call: SlackCall = { method, body, at: performance.now(), ...(token ? { token } : {}) };
    this.counts.set(method, (this.counts.get(method) ?? 0) + 1);
    if (this.record) this.calls.push(call);
    return call;
  }

  private finish(res: ServerResponse, call: SlackCall, reply: Reply) {
    call.answeredAt = performance.now();
    if (isReset(reply)) {
      call.status = 0;
      res.socket?.resetAndDestroy();
    } else if (isHttpAnswer(reply)) {
      call.status = reply.httpStatus;
      if (reply.body && typeof reply.body === 'object') call.answer = reply.body as Record<string, unknown>;
      send(res, reply.httpStatus, reply.body ?? '', reply.headers);
    } else {
      call.status = 200;
      call.answer = reply;
      send(res, 200, reply);
    }
    this.answered.emit('call', call);
  }

  private async api(req: IncomingMessage, res: ServerResponse, method: string) {
    const raw = (await readBody(req)).toString('utf8');
    let args: Args;
    try {
      args = parseArgs(raw, req.headers['content-type']);
    } catch (error) {
      return send(res, 200, {
        ok: false,
        error: error instanceof SlackError ? error.code : 'invalid_form_data',
      });
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    delete args.token;
    const call = this.begin(method, args, token);
    const limited = token && this.tokens.has(token) ? this.overPostLimits(method, args, token) : undefined;
    const reply =
      limited ??
      (await this.responders.get(method)?.(args, { method, ...(token ? { token } : {}) })) ??
      (await this.answer(method, args, token));
    this.finish(res, call, reply);
  }

  private async respondRoute(req: IncomingMessage, res: ServerResponse, id: string) {
    const raw = (await readBody(req)).toString('utf8');
    const body = parseArgs(raw, req.headers['content-type'] ?? 'application/json');
    const call = this.begin('respond', body);
    const context = { method: 'respond', responseUrlId: id };
    const reply = (await this.responders.get('respond')?.(body, context)) ?? this.respond(id, body);
    this.finish(res, call, reply);
  }

  private async upload(req: IncomingMessage, res: ServerResponse, id: string) {
    const bytes = await readBody(req);
    const file = this.workspace.files.get(id);
    if (!file) return send(res, 404, 'file_not_found');
    file.uploaded = true;
    file.bytes = bytes;
    file.size = bytes.length || file.size;
    send(res, 200, `OK - ${bytes.length}`);
  }

  /**
   * Serves the request when it is one of Slack's (`POST /api/…`, `/respond/…`, `/upload/…`);
   * resolves false for anything else, for the caller to serve.
   */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (req.method !== 'POST') return false;
    const path = new URL(req.url ?? '/', 'http://fake-slack').pathname;
    const route = /^\/(api|respond|upload)\/([^/]+)$/.exec(path);
    if (!route?.[1] || !route[2]) return false;
    const [, kind, name] = route;
    try {
      if (kind === 'api') await this.api(req, res, name);
      else if (kind === 'respond') await this.respondRoute(req, res, name);
      else await this.upload(req, res, name);
    } catch (error) {
      if (error instanceof SlackError || error instanceof SyntaxError) {
        if (!res.headersSent)
          send(res, 400, { ok: false, error: error instanceof SlackError ? error.code : 'invalid_json' });
      } else {
        this.logger.error({ err: error, path }, 'fake Slack: request failed');
        if (!res.headersSent) send(res, 500, { ok: false, error: 'internal_error' });
        else res.end();
      }
    }
    return true;
  }

  /** Listens on loopback (port 0: any free one), serving Slack's routes and nothing else. */
  async listen(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      void this.handle(req, res).then((served) => {
        if (!served) send(res, 404, { ok: false, error: 'not_found' });
      });
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.upgrade(req, socket, head).catch((error: unknown) => {
        this.logger.error({ err: error }, 'fake Slack: Socket Mode connection failed');
        socket.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.setUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return this.origin;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    this.socketServer?.close();
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

/** A fake Slack of its own on a loopback port. */
export async function startFakeSlack(options: FakeSlackOptions & { port?: number } = {}): Promise<FakeSlack> {
  const fake = new FakeSlack(options);
  await fake.listen(options.port ?? 0);
  return fake;
}
