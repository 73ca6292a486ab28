/**
 * Slack's other half: what a person does on the page becomes the request Slack would send the app
 * — a slash command, a shortcut, a button press, a select's options request, a form submission, a
 * Home tab opening — signed with the signing secret and posted to the app's `/slack/events`. The
 * app's answer (the ack's body: field errors, an updated or pushed view, options) is applied as
 * Slack applies it, and replies to `response_url`s land here too.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'undici';
import type { Logger } from '../logger.js';
import { COMMAND } from '../slack/kit/ids.js';
import { APP_EVENTS } from '../slack/topics.js';
import {
  type Args,
  messageObject,
  SlackError,
  TRIGGER_TTL_MS,
  type Triggers,
  viewObject,
} from './web-api.js';
import {
  APP_ID,
  BOT_ID,
  BOT_USER_ID,
  type PgMessage,
  type PgView,
  TEAM_DOMAIN,
  TEAM_ID,
  type Workspace,
} from './workspace.js';

/** The page asked for something that is not there (a deleted message, another person's view). */
export class PageError extends Error {}

/** Slack's state of one form: block id → action id → the element's value. */
export type StateValues = Record<string, Record<string, Record<string, unknown>>>;

/** Where a response_url's replies go. */
interface ResponseTarget {
  channel: string;
  user: string;
  /** The message the request came from (a button in it): replace_original / delete_original act on it. */
  source?: { ts: string; ephemeral: boolean };
  threadTs?: string;
  expires: number;
  uses: number;
}

/** A response_url answers for 30 minutes, at most 5 times (Slack's rule). */
const RESPONSE_URL_TTL_MS = 30 * 60_000;
const RESPONSE_URL_USES = 5;

export interface AppAnswer {
  status: number;
  body: unknown;
}

export class Interactions implements Triggers {
  private readonly triggers = new Map<string, { user: string; expires: number }>();
  private readonly responseUrls = new Map<string, ResponseTarget>();
  private appUrl = '';

  constructor(
    private readonly ws: Workspace,
    private readonly secret: string,
    private readonly baseUrl: () => string,
    private readonly logger: Logger,
  ) {}

  /** Where the app's HTTP receiver listens (`…/slack/events`); known once it started. */
  connect(appEventsUrl: string) {
    this.appUrl = appEventsUrl;
  }

  // -- Triggers and response URLs ---------------------------------------------------------

  private trigger(user: string): string {
    const id = `${Date.now()}.${randomBytes(6).toString('hex')}`;
    this.triggers.set(id, { user, expires: Date.now() + TRIGGER_TTL_MS });
    return id;
  }

  redeem(triggerId: string | undefined): string {
    const found = triggerId ? this.triggers.get(triggerId) : undefined;
    if (!found || !triggerId) throw new SlackError('invalid_trigger_id');
    this.triggers.delete(triggerId);
    if (Date.now() > found.expires) throw new SlackError('expired_trigger_id');
    return found.user;
  }

  private responseUrl(target: Omit<ResponseTarget, 'expires' | 'uses'>): string {
    const id = randomBytes(12).toString('hex');
    this.responseUrls.set(id, { ...target, expires: Date.now() + RESPONSE_URL_TTL_MS, uses: 0 });
    return `${this.baseUrl()}/respond/${id}`;
  }

  /** A reply at a response_url: ephemeral by default, in the channel, or replacing/deleting the source. */
  respond(id: string, body: Args): { status: number; body: string } {
    const target = this.responseUrls.get(id);
    if (!target || Date.now() > target.expires) return { status: 404, body: 'expired_url' };
    if (++target.uses > RESPONSE_URL_USES) return { status: 404, body: 'used_url' };
    const { ws } = this;
    const source = target.source
      ? ws.find(target.channel, target.source.ts, target.source.ephemeral ? target.user : undefined)
      : undefined;
    const truthy = (v: unknown) => v === true || v === 'true';
    if (truthy(body.delete_original)) {
      if (source) ws.remove(source);
      return { status: 200, body: 'ok' };
    }
    const text = typeof body.text === 'string' ? body.text : '';
    const blocks = Array.isArray(body.blocks) ? body.blocks : undefined;
    if (!text && !blocks) return { status: 400, body: 'no_text' };
    if (truthy(body.replace_original) && source) {
      source.text = text;
      if (blocks) source.blocks = blocks;
      else delete source.blocks;
      ws.changed({ kind: 'messages', channel: source.channel });
      return { status: 200, body: 'ok' };
    }
    const inChannel = body.response_type === 'in_channel';
    const threadTs =
      target.threadTs ?? (source?.threadTs && source.threadTs !== source.ts ? source.threadTs : undefined);
    ws.post({
      channel: target.channel,
      user: BOT_USER_ID,
      botId: BOT_ID,
      text,
      ...(blocks ? { blocks } : {}),
      ...(inChannel ? {} : { ephemeralTo: target.user }),
      ...(threadTs ? { threadTs } : {}),
    });
    return { status: 200, body: 'ok' };
  }

  // -- Requests to the app ----------------------------------------------------------------

  private async send(body: string, contentType: string): Promise<AppAnswer> {
    if (!this.appUrl) throw new Error('the app is not connected to the playground yet');
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = `v0=${createHmac('sha256', this.secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    const res = await request(this.appUrl, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': signature,
      },
      body,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await res.body.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Bolt acks with an empty body or plain text; keep it as it came.
    }
    if (res.statusCode >= 400)
      this.logger.warn({ status: res.statusCode }, 'playground: the app refused a request');
    return { status: res.statusCode, body: parsed };
  }

  private interact(payload: Record<string, unknown>, userId: string) {
    const user = this.ws.users.get(userId);
    const full = {
      api_app_id: APP_ID,
      token: 'playground-verification-token',
      is_enterprise_install: false,
      enterprise: null,
      team: { id: TEAM_ID, domain: TEAM_DOMAIN },
      user: { id: userId, username: user?.name, name: user?.name, team_id: TEAM_ID },
      ...payload,
    };
    return this.send(
      new URLSearchParams({ payload: JSON.stringify(full) }).toString(),
      'application/x-www-form-urlencoded',
    );
  }

  private channelPart(channelId: string) {
    const c = this.ws.channels.get(channelId);
    return { id: channelId, name: c?.isIm ? 'directmessage' : (c?.name ?? channelId) };
  }

  /** A message the person typed: a slash command goes to the app, anything else is posted. */
  async compose(user: string, channel: string, text: string, threadTs?: string): Promise<string | undefined> {
    const c = this.ws.channels.get(channel);
    if (!c) throw new PageError('no such channel');
    const command = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
    if (command) {
      if (`/${command[1]}` !== COMMAND)
        return `/${command[1]} is not a valid command. In the playground only ${COMMAND} exists.`;
      const body = new URLSearchParams({
        token: 'playground-verification-token',
        team_id: TEAM_ID,
        team_domain: TEAM_DOMAIN,
        channel_id: channel,
        channel_name: this.channelPart(channel).name,
        user_id: user,
        user_name: this.ws.users.get(user)?.name ?? user,
        command: COMMAND,
        text: escapeMentions(command[2] ?? '', this.ws),
        api_app_id: APP_ID,
        is_enterprise_install: 'false',
        response_url: this.responseUrl({ channel, user, ...(threadTs ? { threadTs } : {}) }),
        trigger_id: this.trigger(user),
      }).toString();
      const answer = await this.send(body, 'application/x-www-form-urlencoded');
      // An ack with a body is the command's immediate (ephemeral) reply.
      if (answer.body && typeof answer.body === 'object') {
        const reply = answer.body as Args;
        if (reply.text || reply.blocks)
          this.respondDirect({ channel, user, ...(threadTs ? { threadTs } : {}) }, reply);
      } else if (typeof answer.body === 'string' && answer.body) {
        this.respondDirect({ channel, user }, { text: answer.body });
      }
      return undefined;
    }
    if (!c.members.includes(user)) c.members.push(user);
    this.ws.post({ channel, user, text: escapeMentions(text, this.ws), ...(threadTs ? { threadTs } : {}) });
    return undefined;
  }

  private respondDirect(target: Omit<ResponseTarget, 'expires' | 'uses'>, body: Args) {
    const url = this.responseUrl(target);
    this.respond(url.slice(url.lastIndexOf('/') + 1), body);
  }

  /** A global shortcut from the lightning menu. */
  globalShortcut(user: string, callbackId: string) {
    return this.interact(
      {
        type: 'shortcut',
        callback_id: callbackId,
        trigger_id: this.trigger(user),
        action_ts: this.ws.nextTs(),
      },
      user,
    );
  }

  /** A message shortcut from a message's "More actions". */
  messageShortcut(user: string, callbackId: string, channel: string, ts: string) {
    const m = this.ws.find(channel, ts);
    if (!m) throw new PageError('no such message');
    return this.interact(
      {
        type: 'message_action',
        callback_id: callbackId,
        trigger_id: this.trigger(user),
        action_ts: this.ws.nextTs(),
        message_ts: ts,
        channel: this.channelPart(channel),
        message: messageObject(m),
        response_url: this.responseUrl({
          channel,
          user,
          source: { ts, ephemeral: false },
          ...(m.threadTs ? { threadTs: m.threadTs } : {}),
        }),
      },
      user,
    );
  }

  /** A button, select, overflow or date picker in a message (or an ephemeral one). */
  messageAction(user: string, channel: string, ts: string, action: Record<string, unknown>) {
    const m = this.ws.find(channel, ts, undefined) ?? this.ws.find(channel, ts, user);
    if (!m) throw new PageError('no such message');
    const ephemeral = m.ephemeralTo !== undefined;
    return this.interact(
      {
        type: 'block_actions',
        trigger_id: this.trigger(user),
        container: {
          type: 'message',
          message_ts: ts,
          channel_id: channel,
          is_ephemeral: ephemeral,
          ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
        },
        channel: this.channelPart(channel),
        ...(ephemeral ? {} : { message: messageObject(m) }),
        state: { values: {} },
        response_url: this.responseUrl({
          channel,
          user,
          source: { ts, ephemeral },
          ...(m.threadTs ? { threadTs: m.threadTs } : {}),
        }),
        actions: [{ ...action, action_ts: this.ws.nextTs() }],
      },
      user,
    );
  }

  /** The view as Slack sends it back with a payload: its state included. */
  private viewPayload(v: PgView, values: StateValues) {
    return { ...viewObject(v), state: { values } };
  }

  /** An element in a modal or the Home tab (a dispatching input, a button, a select). */
  viewAction(user: string, viewId: string, action: Record<string, unknown>, values: StateValues) {
    const v = this.view(user, viewId);
    return this.interact(
      {
        type: 'block_actions',
        trigger_id: this.trigger(user),
        container: { type: 'view', view_id: v.id },
        view: this.viewPayload(v, values),
        actions: [{ ...action, action_ts: this.ws.nextTs() }],
      },
      user,
    );
  }

  /** An external select's options for what the person typed (Slack's block_suggestion). */
  async options(
    user: string,
    where: { viewId?: string; channel?: string; ts?: string },
    actionId: string,
    blockId: string,
    value: string,
    values: StateValues = {},
  ) {
    const context = where.viewId
      ? {
          container: { type: 'view', view_id: where.viewId },
          view: this.viewPayload(this.view(user, where.viewId), values),
        }
      : {
          container: { type: 'message', message_ts: where.ts, channel_id: where.channel },
          channel: this.channelPart(where.channel ?? ''),
        };
    const answer = await this.interact(
      { type: 'block_suggestion', action_id: actionId, block_id: blockId, value, ...context },
      user,
    );
    const body = (answer.body && typeof answer.body === 'object' ? answer.body : {}) as {
      options?: unknown[];
      option_groups?: unknown[];
    };
    return { options: body.options ?? [], option_groups: body.option_groups ?? [] };
  }

  /** Submits a modal; applies the ack (errors, update, push, clear) as Slack does. */
  async submit(user: string, viewId: string, values: StateValues) {
    const v = this.view(user, viewId);
    const versionSent = v.version;
    const answer = await this.interact(
      {
        type: 'view_submission',
        trigger_id: this.trigger(user),
        view: this.viewPayload(v, values),
        response_urls: [],
      },
      user,
    );
    const ack = (answer.body && typeof answer.body === 'object' ? answer.body : {}) as {
      response_action?: string;
      errors?: Record<string, string>;
      view?: Record<string, unknown>;
    };
    const stack = this.ws.stacks.get(user) ?? [];
    switch (ack.response_action) {
      case 'errors':
        v.errors = ack.errors ?? {};
        v.version++;
        break;
      case 'update':
        // The app may already have updated the view after its ack (views.update): that one is newer.
        if (ack.view && v.version === versionSent) {
          v.view = ack.view;
          v.errors = {};
          v.version++;
        }
        break;
      case 'push': {
        if (ack.view) {
          const id = this.ws.nextId('V');
          this.ws.views.set(id, {
            id,
            hash: `${Date.now()}.${id}`,
            type: 'modal',
            user,
            view: ack.view,
            rootId: v.rootId,
            previousId: v.id,
            errors: {},
            version: 0,
          });
          stack.push(id);
        }
        break;
      }
      case 'clear':
        this.ws.stacks.set(user, []);
        break;
      default:
        stack.pop();
    }
    this.ws.changed({ kind: 'modal', user });
    return { status: answer.status, responseAction: ack.response_action ?? 'close' };
  }

  /** Closes the top modal (Cancel or ×): Slack tells the app only when the view asked for it. */
  async close(user: string, viewId: string, values: StateValues) {
    const v = this.view(user, viewId);
    const stack = this.ws.stacks.get(user) ?? [];
    const clear = Boolean(v.view.clear_on_close);
    if (clear) this.ws.stacks.set(user, []);
    else stack.pop();
    this.ws.changed({ kind: 'modal', user });
    if (v.view.notify_on_close)
      await this.interact(
        { type: 'view_closed', view: this.viewPayload(v, values), is_cleared: clear },
        user,
      );
  }

  /** The Home tab opened: `app_home_opened`, when the app subscribes to it (as Slack only sends subscribed events). */
  async openHome(user: string): Promise<boolean> {
    if (!(APP_EVENTS as readonly string[]).includes('app_home_opened')) return false;
    const home = [...this.ws.views.values()].find((x) => x.type === 'home' && x.user === user);
    const event = {
      type: 'app_home_opened',
      user,
      channel: this.ws.imWith(user).id,
      tab: 'home',
      event_ts: this.ws.nextTs(),
      ...(home ? { view: viewObject(home) } : {}),
    };
    const body = JSON.stringify({
      token: 'playground-verification-token',
      team_id: TEAM_ID,
      api_app_id: APP_ID,
      type: 'event_callback',
      event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        { team_id: TEAM_ID, user_id: BOT_USER_ID, is_bot: true, is_enterprise_install: false },
      ],
      event,
    });
    await this.send(body, 'application/json');
    return true;
  }

  private view(user: string, viewId: string): PgView {
    const v = this.ws.views.get(viewId);
    if (!v || v.user !== user) throw new PageError('no such view for this person');
    return v;
  }
}

/**
 * What the person typed, as Slack delivers it with `should_escape`: `@Ada Lovelace` or `@ada`
 * becomes `<@U0ADA|ada>`, and &, <, > are escaped.
 */
export function escapeMentions(text: string, ws: Workspace): string {
  let out = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const people = ws.people().sort((a, b) => b.realName.length - a.realName.length);
  for (const p of people) {
    for (const label of [p.realName, p.name]) {
      const pattern = new RegExp(`@${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gi');
      out = out.replace(pattern, `<@${p.id}|${p.name}>`);
    }
  }
  return out;
}

export type { PgMessage };
