/**
 * Slack's other half: what a person does on the page becomes the request Slack would send the app
 * — a slash command, a shortcut, a button press, a select's options request, a form submission, a
 * Home tab opening — signed with the signing secret and posted to the app's `/slack/events`. The
 * app's answer (the ack's body: field errors, an updated or pushed view, options) is applied as
 * Slack applies it; trigger ids and response_urls are the fake Slack's (`fake-slack.ts`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'undici';
import type { Logger } from '../logger.js';
import { COMMAND } from '../slack/kit/ids.js';
import { appManifest } from '../slack/topics.js';
import type { FakeSlack, ResponseTarget, ViewAck } from './fake-slack.js';
import { type Args, messageObject, viewObject } from './web-api.js';
import type { PgMessage, PgView, Workspace } from './workspace.js';

/** The app's manifest, as Slack would have it: what it subscribes to, whether its DM takes messages. */
const MANIFEST = appManifest();

/** The bot events the app subscribes to (`message.channels`, `message.im`…): Slack sends no others. */
const SUBSCRIBED: ReadonlySet<string> = new Set(MANIFEST.settings.event_subscriptions.bot_events);

/** Whether a person may type in the app's DM: its Messages tab is on and not read-only. */
export const APP_DM_WRITABLE =
  MANIFEST.features.app_home.messages_tab_enabled &&
  !MANIFEST.features.app_home.messages_tab_read_only_enabled;

/** What Slack says to someone who tries to type in a read-only Messages tab. */
export const APP_DM_READ_ONLY = 'Sending messages to this app has been turned off.';

/** The page asked for something that is not there (a deleted message, another person's view). */
export class PageError extends Error {}

/** Slack's state of one form: block id → action id → the element's value. */
export type StateValues = Record<string, Record<string, Record<string, unknown>>>;

export interface AppAnswer {
  status: number;
  body: unknown;
}

export class Interactions {
  private readonly ws: Workspace;
  private appUrl = '';

  constructor(
    private readonly slack: FakeSlack,
    private readonly secret: string,
    private readonly logger: Logger,
  ) {
    this.ws = slack.workspace;
  }

  /** Where the app's HTTP receiver listens (`…/slack/events`); known once it started. */
  connect(appEventsUrl: string) {
    this.appUrl = appEventsUrl;
  }

  private trigger(user: string): string {
    return this.slack.trigger(user);
  }

  private responseUrl(target: ResponseTarget): string {
    return this.slack.responseUrl(target);
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
    const { ws } = this;
    const user = ws.users.get(userId);
    const full = {
      api_app_id: ws.bot.appId,
      token: 'playground-verification-token',
      is_enterprise_install: false,
      enterprise: null,
      team: { id: ws.team.id, domain: ws.team.domain },
      user: { id: userId, username: user?.name, name: user?.name, team_id: user?.teamId ?? ws.team.id },
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
        team_id: this.ws.team.id,
        team_domain: this.ws.team.domain,
        channel_id: channel,
        channel_name: this.channelPart(channel).name,
        user_id: user,
        user_name: this.ws.users.get(user)?.name ?? user,
        command: COMMAND,
        text: escapeMentions(command[2] ?? '', this.ws),
        api_app_id: this.ws.bot.appId,
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
    if (c.isIm && !APP_DM_WRITABLE) return APP_DM_READ_ONLY;
    if (!c.members.includes(user)) c.members.push(user);
    const posted = this.ws.post({
      channel,
      user,
      text: escapeMentions(text, this.ws),
      ...(threadTs ? { threadTs } : {}),
    });
    const thread = posted.threadTs ? { thread_ts: posted.threadTs } : {};
    await this.messageEvent(channel, {
      user,
      text: posted.text,
      ts: posted.ts,
      event_ts: posted.ts,
      ...thread,
    });
    return undefined;
  }

  /** A person edits their own message; the app hears it as Slack tells it (`message_changed`). */
  async editMessage(user: string, channel: string, ts: string, text: string): Promise<void> {
    const m = this.ownMessage(user, channel, ts);
    const previous = messageObject(this.ws, m);
    m.text = escapeMentions(text, this.ws);
    m.edited = true;
    this.ws.changed({ kind: 'messages', channel });
    const at = this.ws.nextTs();
    await this.messageEvent(channel, {
      subtype: 'message_changed',
      hidden: true,
      message: { ...messageObject(this.ws, m), edited: { user, ts: at } },
      previous_message: previous,
      ts: at,
      event_ts: at,
    });
  }

  /** A person deletes their own message; the app hears it as Slack tells it (`message_deleted`). */
  async deleteMessage(user: string, channel: string, ts: string): Promise<void> {
    const m = this.ownMessage(user, channel, ts);
    const previous = messageObject(this.ws, m);
    this.ws.remove(m);
    const at = this.ws.nextTs();
    await this.messageEvent(channel, {
      subtype: 'message_deleted',
      hidden: true,
      deleted_ts: ts,
      previous_message: previous,
      ts: at,
      event_ts: at,
    });
  }

  /** A message `user` wrote (not the app's, not an ephemeral one): only its author edits or deletes it, as in Slack. */
  private ownMessage(user: string, channel: string, ts: string): PgMessage {
    const m = this.ws.find(channel, ts);
    if (!m || m.ephemeralTo !== undefined) throw new PageError('no such message');
    if (m.user !== user || m.botId) throw new PageError('only its author can edit or delete a message');
    return m;
  }

  /**
   * Slack tells a subscribed app of messages — new, edited and deleted — in the channels it is a
   * member of (message.channels, message.groups: a reply in a task card's thread may be a discovery)
   * and in its own DM (message.im: the app answers).
   */
  private async messageEvent(channel: string, event: Record<string, unknown>) {
    const c = this.ws.channels.get(channel);
    if (!c) return;
    const channelType = c.isIm ? 'im' : c.isPrivate ? 'group' : 'channel';
    const subscription = { im: 'message.im', group: 'message.groups', channel: 'message.channels' }[
      channelType
    ];
    if (!SUBSCRIBED.has(subscription) || !(c.isIm || c.members.includes(this.ws.bot.userId))) return;
    await this.sendEvent({ type: 'message', channel, channel_type: channelType, ...event });
  }

  private respondDirect(target: ResponseTarget, body: Args) {
    const url = this.responseUrl(target);
    this.slack.respond(url.slice(url.lastIndexOf('/') + 1), body);
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
        message: messageObject(this.ws, m),
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
        ...(ephemeral ? {} : { message: messageObject(this.ws, m) }),
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
    return { ...viewObject(this.ws, v), state: { values } };
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
    const ack = (answer.body && typeof answer.body === 'object' ? answer.body : {}) as ViewAck;
    const responseAction = this.slack.applyViewAck(user, v, versionSent, ack);
    return { status: answer.status, responseAction };
  }

  /** Closes the top modal (Cancel or ×): Slack tells the app only when the view asked for it. */
  async close(user: string, viewId: string, values: StateValues) {
    const v = this.view(user, viewId);
    const { cleared, notify } = this.slack.closeView(user, v);
    if (notify)
      await this.interact(
        { type: 'view_closed', view: this.viewPayload(v, values), is_cleared: cleared },
        user,
      );
  }

  /** The Home tab opened: `app_home_opened`, when the app subscribes to it (as Slack only sends subscribed events). */
  async openHome(user: string): Promise<boolean> {
    if (!SUBSCRIBED.has('app_home_opened')) return false;
    const home = [...this.ws.views.values()].find((x) => x.type === 'home' && x.user === user);
    const event = {
      type: 'app_home_opened',
      user,
      channel: this.ws.imWith(user).id,
      tab: 'home',
      event_ts: this.ws.nextTs(),
      ...(home ? { view: viewObject(this.ws, home) } : {}),
    };
    await this.sendEvent(event);
    return true;
  }

  /**
   * The person opens the app in Slack's AI side panel, looking at `context` (a channel, or none):
   * Slack makes the thread in their DM with the app and tells the app (`assistant_thread_started`).
   */
  async assistantStart(user: string, context?: string): Promise<{ channel: string; threadTs: string }> {
    if (!SUBSCRIBED.has('assistant_thread_started')) throw new PageError('the app has no assistant');
    const channel = this.ws.imWith(user).id;
    const root = this.ws.post({
      channel,
      user: this.ws.bot.userId,
      botId: this.ws.bot.botId,
      text: 'New assistant thread',
    });
    await this.sendEvent(this.assistantEvent('assistant_thread_started', user, channel, root.ts, context));
    return { channel, threadTs: root.ts };
  }

  /** The person moves to another channel with the panel open (`assistant_thread_context_changed`). */
  async assistantContext(user: string, threadTs: string, context: string): Promise<void> {
    if (!SUBSCRIBED.has('assistant_thread_context_changed')) return;
    const channel = this.ws.imWith(user).id;
    if (!this.ws.find(channel, threadTs)) throw new PageError('no such assistant thread');
    await this.sendEvent(
      this.assistantEvent('assistant_thread_context_changed', user, channel, threadTs, context),
    );
  }

  private assistantEvent(type: string, user: string, channel: string, threadTs: string, context?: string) {
    return {
      type,
      assistant_thread: {
        user_id: user,
        channel_id: channel,
        thread_ts: threadTs,
        context: context ? { channel_id: context, team_id: this.ws.team.id } : {},
      },
      event_ts: this.ws.nextTs(),
    };
  }

  /** An Events API callback, as Slack posts it to the app. */
  private async sendEvent(event: Record<string, unknown>) {
    const body = JSON.stringify({
      token: 'playground-verification-token',
      team_id: this.ws.team.id,
      api_app_id: this.ws.bot.appId,
      type: 'event_callback',
      event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [
        { team_id: this.ws.team.id, user_id: this.ws.bot.userId, is_bot: true, is_enterprise_install: false },
      ],
      event,
    });
    await this.send(body, 'application/json');
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
