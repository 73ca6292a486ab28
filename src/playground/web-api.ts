/**
 * The Slack Web API methods the app uses, answered from the fake Slack's workspace the way Slack
 * answers them: the same shapes, the same error codes (`channel_not_found`, `message_not_found`,
 * `cant_update_message`, `invalid_blocks`, `invalid_arguments`, `expired_trigger_id`,
 * `exchanged_trigger_id`, `hash_conflict`, `not_found`…). A method the fake does not know answers
 * `unknown_method` and is logged, so a new call shows up at once. The bot token is checked before
 * a call gets here (`fake-slack.ts`).
 */
import { tzName, tzOffset } from '@date-fns/tz';
import type { Logger } from '../logger.js';
import type { PgAssistantThread, PgChannel, PgMessage, PgUser, PgView, Workspace } from './workspace.js';

export type Args = Record<string, unknown>;
export type Answer = Record<string, unknown>;

/** Slack's answer to a refused call. */
export class SlackError extends Error {
  constructor(
    readonly code: string,
    readonly details: string[] = [],
  ) {
    super(code);
  }
}

/** A trigger id lives 3 s and opens one view. */
export const TRIGGER_TTL_MS = 3_000;

/** Slack's limits the app must respect; a breach is refused as Slack refuses it. */
const LIMITS = { messageBlocks: 50, modalBlocks: 100, sectionText: 3000, modalTitle: 24, text: 40_000 };

/** Fields the WebClient sends as JSON inside a form body. */
const JSON_FIELDS = new Set([
  'blocks',
  'attachments',
  'view',
  'metadata',
  'files',
  'user_auth_blocks',
  'outputs',
  'unfurls',
  'document_content',
  'changes',
  'criteria',
  'prompts',
]);

/** Parses a Web API body (form or JSON), decoding the JSON-valued fields. */
export function parseArgs(raw: string, contentType: string | undefined): Args {
  if (contentType?.includes('application/json')) return raw ? (JSON.parse(raw) as Args) : {};
  const out: Args = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (JSON_FIELDS.has(key)) {
      try {
        out[key] = JSON.parse(value);
      } catch {
        throw new SlackError('invalid_json');
      }
    } else out[key] = value;
  }
  return out;
}

const str = (args: Args, key: string): string | undefined =>
  typeof args[key] === 'string' && args[key] !== '' ? (args[key] as string) : undefined;
const need = (args: Args, key: string): string => {
  const value = str(args, key);
  if (value === undefined)
    throw new SlackError(key === 'channel' ? 'channel_not_found' : 'invalid_arguments', [
      `[ERROR] missing required field: ${key}`,
    ]);
  return value;
};

/** Zones already described, per hour: Intl's formatter is costly to make on every users.info. */
const zones = new Map<string, { tz_label: string; tz_offset: number }>();

/** A time zone's label and offset (seconds east of UTC) at `at`, as users.info gives them. */
function zone(tz: string, at: Date) {
  const key = `${tz}|${Math.floor(at.getTime() / 3_600_000)}`;
  let found = zones.get(key);
  if (!found) {
    try {
      found = { tz_label: tzName(tz, at, 'long'), tz_offset: tzOffset(tz, at) * 60 };
    } catch {
      found = { tz_label: tz, tz_offset: 0 };
    }
    if (zones.size > 1_000) zones.clear();
    zones.set(key, found);
  }
  return found;
}

/** A user as users.info describes one: every fact the app reads, in Slack's shape. */
export function userObject(user: PgUser, ws: Workspace) {
  const [first, ...rest] = user.realName.split(' ');
  const teamId = user.teamId ?? ws.team.id;
  const normalize = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const displayName = user.displayName ?? '';
  const images = user.photo
    ? Object.fromEntries(
        ['original', '512', '192', '72', '48', '32', '24'].map((size) => [`image_${size}`, user.photo]),
      )
    : {};
  return {
    id: user.id,
    team_id: teamId,
    name: user.name,
    deleted: Boolean(user.deleted),
    color: '9f69e7',
    real_name: user.realName,
    tz: user.tz,
    ...zone(user.tz, new Date(ws.now())),
    is_admin: user.isAdmin,
    is_owner: user.isOwner,
    is_primary_owner: user.isOwner,
    is_restricted: user.guest !== false,
    is_ultra_restricted: user.guest === 'single-channel',
    is_bot: user.isBot,
    is_app_user: false,
    updated: 0,
    is_email_confirmed: !user.isBot,
    ...(user.stranger ? { is_stranger: true } : {}),
    ...(user.enterpriseId
      ? {
          enterprise_user: {
            id: user.id,
            enterprise_id: user.enterpriseId,
            enterprise_name: user.enterpriseId,
            is_admin: user.isAdmin,
            is_owner: user.isOwner,
            is_primary_owner: false,
            teams: [teamId],
          },
        }
      : {}),
    profile: {
      real_name: user.realName,
      real_name_normalized: normalize(user.realName),
      display_name: displayName,
      display_name_normalized: normalize(displayName),
      first_name: first,
      last_name: rest.join(' '),
      status_text: '',
      status_emoji: '',
      team: teamId,
      ...(user.isBot ? {} : { email: `${user.name}@${ws.team.domain}.example` }),
      ...images,
      ...(user.isBot ? { bot_id: ws.bot.botId, api_app_id: ws.bot.appId, always_active: true } : {}),
    },
  };
}

export function channelObject(channel: PgChannel, ws: Workspace) {
  return channel.isIm
    ? { id: channel.id, is_im: true, user: channel.user, is_open: true, created: 0 }
    : {
        id: channel.id,
        name: channel.name,
        is_channel: !channel.isPrivate,
        is_group: Boolean(channel.isPrivate),
        is_private: Boolean(channel.isPrivate),
        is_im: false,
        is_member: channel.members.includes(ws.bot.userId),
        is_archived: false,
        num_members: channel.members.length,
        topic: { value: channel.topic ?? '' },
        created: 0,
      };
}

export function messageObject(ws: Workspace, m: PgMessage, replies?: PgMessage[]) {
  return {
    type: 'message',
    ts: m.ts,
    user: m.user,
    text: m.text,
    ...(m.botId ? { bot_id: m.botId, app_id: ws.bot.appId } : {}),
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ...(m.attachments ? { attachments: m.attachments } : {}),
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(replies?.length
      ? { reply_count: replies.length, latest_reply: replies[replies.length - 1]?.ts }
      : {}),
    ...(m.metadata ? { metadata: m.metadata } : {}),
    ...(m.files ? { files: m.files } : {}),
    ...(m.edited ? { edited: { user: m.user, ts: m.ts } } : {}),
    ...(m.reactions?.length
      ? { reactions: m.reactions.map((r) => ({ name: r.name, users: r.users, count: r.users.length })) }
      : {}),
    team: ws.team.id,
  };
}

export function viewObject(ws: Workspace, v: PgView) {
  return {
    ...v.view,
    id: v.id,
    team_id: ws.team.id,
    type: v.type,
    hash: v.hash,
    private_metadata: v.view.private_metadata ?? '',
    callback_id: v.view.callback_id ?? '',
    external_id: v.externalId ?? '',
    state: { values: {} },
    root_view_id: v.rootId,
    previous_view_id: v.previousId ?? null,
    app_id: ws.bot.appId,
    app_installed_team_id: ws.team.id,
    bot_id: ws.bot.botId,
    clear_on_close: Boolean(v.view.clear_on_close),
    notify_on_close: Boolean(v.view.notify_on_close),
  };
}

/** Block Kit checks Slack makes before accepting a message. */
function checkBlocks(blocks: unknown, max: number, code: string) {
  if (blocks === undefined) return;
  if (!Array.isArray(blocks)) throw new SlackError(code, ['[ERROR] must be an array [json-pointer:/blocks]']);
  if (blocks.length > max)
    throw new SlackError(code, [`[ERROR] no more than ${max} items allowed [json-pointer:/blocks]`]);
  blocks.forEach((block, i) => {
    const b = block as { type?: unknown; text?: { text?: unknown } };
    if (typeof b?.type !== 'string')
      throw new SlackError(code, [`[ERROR] missing required field: type [json-pointer:/blocks/${i}]`]);
    if (b.type === 'section' && typeof b.text?.text === 'string' && b.text.text.length > LIMITS.sectionText)
      throw new SlackError(code, [
        `[ERROR] must be less than ${LIMITS.sectionText + 1} characters [json-pointer:/blocks/${i}/text]`,
      ]);
  });
}

function checkView(view: unknown): Record<string, unknown> {
  if (!view || typeof view !== 'object')
    throw new SlackError('invalid_arguments', ['[ERROR] missing required field: view']);
  const v = view as { type?: unknown; title?: { text?: unknown }; blocks?: unknown };
  if (v.type !== 'modal' && v.type !== 'home')
    throw new SlackError('invalid_arguments', [
      '[ERROR] must be one of modal, home [json-pointer:/view/type]',
    ]);
  if (v.type === 'modal') {
    const title = v.title?.text;
    if (typeof title !== 'string' || title === '')
      throw new SlackError('invalid_arguments', [
        '[ERROR] missing required field: title [json-pointer:/view]',
      ]);
    if (title.length > LIMITS.modalTitle)
      throw new SlackError('invalid_arguments', [
        `[ERROR] must be less than ${LIMITS.modalTitle + 1} characters [json-pointer:/view/title/text]`,
      ]);
  }
  checkBlocks(v.blocks ?? [], LIMITS.modalBlocks, 'invalid_arguments');
  return view as Record<string, unknown>;
}

function messageBody(args: Args) {
  const text = str(args, 'text');
  const blocks = args.blocks;
  const attachments = args.attachments;
  if (text === undefined && blocks === undefined && attachments === undefined)
    throw new SlackError('no_text');
  if (text && text.length > LIMITS.text) throw new SlackError('msg_too_long');
  checkBlocks(blocks, LIMITS.messageBlocks, 'invalid_blocks');
  return {
    text: text ?? '',
    ...(Array.isArray(blocks) ? { blocks } : {}),
    ...(Array.isArray(attachments) ? { attachments } : {}),
  };
}

export interface Triggers {
  /** The person a trigger id was given to; throws Slack's error when it is unknown, spent or expired. */
  redeem(triggerId: string | undefined): string;
}

export interface WebApiDeps {
  workspace: Workspace;
  triggers: Triggers;
  /** Base URL of the fake Slack's server (upload URLs; permalinks when the team has no URL of its own). */
  baseUrl: () => string;
  logger: Logger;
}

type Method = (args: Args) => Answer | Promise<Answer>;

export function createWebApi({ workspace: ws, triggers, baseUrl, logger }: WebApiDeps) {
  /** The workspace's address, ending in `/`. */
  const teamUrl = () => ws.team.url ?? `${baseUrl()}/`;
  const channel = (args: Args, key = 'channel'): PgChannel => {
    const found = ws.resolveChannel(need(args, key));
    if (!found) throw new SlackError('channel_not_found');
    return found;
  };
  const user = (id: string | undefined): PgUser => {
    const found = id ? ws.users.get(id) : undefined;
    if (!found) throw new SlackError('user_not_found');
    return found;
  };
  const botMessage = (args: Args, channelId: string): PgMessage => {
    const ts = need(args, 'ts');
    const found = ws.find(channelId, ts);
    if (!found || found.ephemeralTo) throw new SlackError('message_not_found');
    if (found.botId !== ws.bot.botId) throw new SlackError('cant_update_message');
    return found;
  };
  const threadOf = (args: Args, c: PgChannel): string | undefined => {
    const threadTs = str(args, 'thread_ts');
    if (!threadTs) return undefined;
    const parent = ws.find(c.id, threadTs);
    // Slack files a reply to a reply under the thread's parent.
    return parent?.threadTs ?? threadTs;
  };
  /**
   * The text a stream call carries: `markdown_text`, or — as web-api's ChatStreamer sends it — the
   * `markdown_text` chunks of `chunks` (other chunk types, task and plan updates, show no text).
   */
  const streamText = (args: Args): string | undefined => {
    const text = str(args, 'markdown_text');
    if (text !== undefined) return text;
    let chunks = args.chunks;
    if (typeof chunks === 'string') {
      try {
        chunks = JSON.parse(chunks);
      } catch {
        throw new SlackError('invalid_arguments');
      }
    }
    if (chunks === undefined) return undefined;
    if (!Array.isArray(chunks)) throw new SlackError('invalid_arguments');
    return (chunks as { type?: unknown; text?: unknown }[])
      .filter((c) => c.type === 'markdown_text' && typeof c.text === 'string')
      .map((c) => c.text as string)
      .join('');
  };
  /** Streamed messages still open, by `<channel>:<ts>`. */
  const streaming = new Set<string>();
  const streamed = (args: Args): PgMessage => {
    const c = channel(args);
    const ts = need(args, 'ts');
    const m = ws.find(c.id, ts);
    if (!m) throw new SlackError('message_not_found');
    if (!streaming.has(`${c.id}:${ts}`)) throw new SlackError('message_not_in_streaming_state');
    return m;
  };
  /** The app replied in one of its assistant threads: Slack clears the status it set there. */
  const answeredThread = (channelId: string, threadTs: string | undefined) => {
    const thread = threadTs ? ws.assistantThreads.get(`${channelId}:${threadTs}`) : undefined;
    if (thread) thread.status = '';
  };
  const assistantThread = (args: Args): PgAssistantThread => {
    const c = channel(args, 'channel_id');
    if (!c.isIm) throw new SlackError('channel_not_found');
    const threadTs = need(args, 'thread_ts');
    if (!ws.find(c.id, threadTs)) throw new SlackError('thread_not_found');
    const key = `${c.id}:${threadTs}`;
    const thread = ws.assistantThreads.get(key) ?? { status: '', prompts: [] };
    ws.assistantThreads.set(key, thread);
    ws.changed({ kind: 'messages', channel: c.id });
    return thread;
  };
  const page = <T>(items: T[], args: Args) => {
    const limit = Math.max(1, Math.min(Number(args.limit ?? 100) || 100, 1000));
    const start = Number(str(args, 'cursor') ?? 0) || 0;
    const slice = items.slice(start, start + limit);
    const next = start + limit < items.length ? String(start + limit) : '';
    return { slice, meta: { response_metadata: { next_cursor: next } }, hasMore: next !== '' };
  };

  const modalStack = (userId: string) => {
    const stack = ws.stacks.get(userId) ?? [];
    ws.stacks.set(userId, stack);
    return stack;
  };
  const newView = (
    type: 'modal' | 'home',
    userId: string,
    view: Record<string, unknown>,
    rootId?: string,
    previousId?: string,
  ): PgView => {
    const id = ws.nextId('V');
    const v: PgView = {
      id,
      hash: `${ws.now()}.${ws.nextId('h')}`,
      type,
      user: userId,
      view,
      rootId: rootId ?? id,
      errors: {},
      version: 0,
      ...(typeof view.external_id === 'string' ? { externalId: view.external_id } : {}),
      ...(previousId ? { previousId } : {}),
    };
    ws.views.set(id, v);
    return v;
  };

  /** The markdown of a canvas call's `document_content` (Slack takes markdown only, up to 1 MiB). */
  const documentOf = (args: Args, key = 'document_content'): string | undefined => {
    const content = args[key] as { type?: unknown; markdown?: unknown } | undefined;
    if (content === undefined) return undefined;
    if (content.type !== 'markdown' || typeof content.markdown !== 'string')
      throw new SlackError('invalid_arguments', [`[ERROR] ${key} must be {type: "markdown", markdown}`]);
    if (content.markdown.length > 1_048_576) throw new SlackError('canvas_creation_failed');
    return content.markdown;
  };
  const refuseCanvas = () => {
    if (ws.canvasRefusal) throw new SlackError(ws.canvasRefusal);
  };
  const newCanvas = (
    channelId: string,
    kind: 'channel' | 'tab',
    title: string,
    markdown: string | undefined,
  ) => {
    const canvas = {
      id: ws.nextId('F'),
      title,
      channelId,
      kind,
      sections: markdown === undefined ? [] : ws.canvasSections(markdown),
      edits: 0,
    };
    ws.canvases.set(canvas.id, canvas);
    ws.changed({ kind: 'canvas', channel: channelId });
    return { canvas_id: canvas.id };
  };
  const canvasArg = (args: Args) => {
    const found = ws.canvases.get(need(args, 'canvas_id'));
    if (!found || found.deleted) throw new SlackError('canvas_not_found');
    return found;
  };
  /** Text a section shows, as `contains_text` is matched against: escapes undone. */
  const shownText = (markdown: string) => markdown.replace(/\\(.)/g, '$1').replace(/\u200b/g, '');

  const methods: Record<string, Method> = {
    'api.test': (args) => ({ args }),
    'auth.test': () => ({
      url: teamUrl(),
      team: ws.team.name,
      user: ws.users.get(ws.bot.userId)?.name ?? 'bot',
      team_id: ws.team.id,
      user_id: ws.bot.userId,
      bot_id: ws.bot.botId,
      ...(ws.team.enterpriseId ? { enterprise_id: ws.team.enterpriseId } : {}),
      is_enterprise_install: false,
    }),
    'team.info': () => ({
      team: {
        id: ws.team.id,
        name: ws.team.name,
        domain: ws.team.domain,
        email_domain: `${ws.team.domain}.example`,
        icon: {},
        ...(ws.team.enterpriseId ? { enterprise_id: ws.team.enterpriseId } : {}),
      },
    }),
    'users.info': (args) => ({ user: userObject(user(str(args, 'user')), ws) }),
    'users.list': (args) => {
      const { slice, meta } = page([...ws.users.values()], args);
      return { members: slice.map((u) => userObject(u, ws)), cache_ts: Math.floor(ws.now() / 1000), ...meta };
    },
    'users.profile.get': (args) => ({ profile: userObject(user(str(args, 'user')), ws).profile }),
    'conversations.info': (args) => ({ channel: channelObject(channel(args), ws) }),
    'conversations.open': (args) => {
      const ids = (str(args, 'users') ?? '').split(',').filter(Boolean);
      if (ids.length === 0) {
        const existing = str(args, 'channel');
        if (!existing) throw new SlackError('users_list_not_supplied');
        return { channel: channelObject(channel(args), ws) };
      }
      if (ids.length > 1) throw new SlackError('not_enough_users'); // group DMs: the app never opens one
      const person = user(ids[0]);
      if (person.isBot) throw new SlackError('cannot_dm_bot');
      return { channel: channelObject(ws.imWith(person.id), ws) };
    },
    'conversations.join': (args) => {
      const c = channel(args);
      if (c.isIm || c.isPrivate) throw new SlackError('method_not_supported_for_channel_type');
      if (!c.members.includes(ws.bot.userId)) c.members.push(ws.bot.userId);
      return { channel: channelObject(c, ws) };
    },
    'conversations.members': (args) => {
      const { slice, meta } = page(channel(args).members, args);
      return { members: slice, ...meta };
    },
    'conversations.history': (args) => {
      const c = channel(args);
      if (!c.isIm && !c.members.includes(ws.bot.userId)) throw new SlackError('not_in_channel');
      const oldest = Number(str(args, 'oldest') ?? 0);
      const latest = Number(str(args, 'latest') ?? Number.POSITIVE_INFINITY);
      const inclusive = args.inclusive === true || args.inclusive === 'true' || args.inclusive === '1';
      const withMeta = args.include_all_metadata === true || args.include_all_metadata === 'true';
      const inChannel = ws.inChannel(c.id);
      const top = inChannel
        .filter((m) => !m.ephemeralTo && (!m.threadTs || m.threadTs === m.ts))
        .filter((m) => {
          const t = Number(m.ts);
          return inclusive ? t >= oldest && t <= latest : t > oldest && t < latest;
        })
        .reverse();
      const { slice, meta, hasMore } = page(top, args);
      return {
        messages: slice.map((m) => {
          const { metadata, ...rest } = messageObject(
            ws,
            m,
            inChannel.filter((r) => r.threadTs === m.ts && r.ts !== m.ts),
          );
          return withMeta && metadata ? { ...rest, metadata } : rest;
        }),
        has_more: hasMore,
        ...meta,
      };
    },
    'conversations.replies': (args) => {
      const c = channel(args);
      const ts = need(args, 'ts');
      const parent = ws.find(c.id, ts);
      if (!parent || parent.ephemeralTo) throw new SlackError('thread_not_found');
      const root = parent.threadTs ?? parent.ts;
      const thread = ws
        .inChannel(c.id)
        .filter((m) => !m.ephemeralTo && (m.ts === root || m.threadTs === root));
      const { slice, meta, hasMore } = page(thread, args);
      return { messages: slice.map((m) => messageObject(ws, m)), has_more: hasMore, ...meta };
    },
    'chat.postMessage': (args) => {
      const c = channel(args);
      // chat:write.public posts in any public channel; a private one takes membership.
      if (c.isPrivate && !c.members.includes(ws.bot.userId)) throw new SlackError('not_in_channel');
      const body = messageBody(args);
      const threadTs = threadOf(args, c);
      const metadata = args.metadata as PgMessage['metadata'] | undefined;
      const posted = ws.post({
        channel: c.id,
        user: ws.bot.userId,
        botId: ws.bot.botId,
        ...body,
        ...(threadTs ? { threadTs } : {}),
        ...(metadata?.event_type ? { metadata } : {}),
      });
      answeredThread(c.id, threadTs);
      return { channel: c.id, ts: posted.ts, message: messageObject(ws, posted) };
    },
    // A streamed reply (an assistant's answer): a message in a thread whose text grows, then stops.
    'chat.startStream': (args) => {
      const c = channel(args);
      const threadTs = threadOf(args, c);
      if (!threadTs) throw new SlackError('invalid_arguments');
      const posted = ws.post({
        channel: c.id,
        user: ws.bot.userId,
        botId: ws.bot.botId,
        text: streamText(args) ?? '',
        threadTs,
      });
      streaming.add(`${c.id}:${posted.ts}`);
      answeredThread(c.id, threadTs);
      return { channel: c.id, ts: posted.ts };
    },
    'chat.appendStream': (args) => {
      const m = streamed(args);
      const piece = streamText(args);
      if (piece === undefined) throw new SlackError('invalid_arguments');
      m.text = `${m.text ?? ''}${piece}`;
      ws.changed({ kind: 'messages', channel: m.channel });
      return { channel: m.channel, ts: m.ts };
    },
    'chat.stopStream': (args) => {
      const m = streamed(args);
      const last = streamText(args);
      if (last) m.text = `${m.text ?? ''}${last}`;
      streaming.delete(`${m.channel}:${m.ts}`);
      ws.changed({ kind: 'messages', channel: m.channel });
      return { channel: m.channel, ts: m.ts, message: messageObject(ws, m) };
    },
    // The AI side panel's thread: only in a DM with the app, on a thread that exists there.
    'assistant.threads.setStatus': (args) => {
      assistantThread(args).status = str(args, 'status') ?? '';
      return {};
    },
    'assistant.threads.setTitle': (args) => {
      assistantThread(args).title = need(args, 'title');
      return {};
    },
    'assistant.threads.setSuggestedPrompts': (args) => {
      const prompts = Array.isArray(args.prompts)
        ? (args.prompts as { title: string; message: string }[])
        : [];
      if (prompts.length === 0 || prompts.length > 4) throw new SlackError('invalid_arguments');
      assistantThread(args).prompts = prompts.map((p) => ({ title: p.title, message: p.message }));
      return {};
    },
    'chat.postEphemeral': (args) => {
      const c = channel(args);
      const to = user(need(args, 'user'));
      if (!c.members.includes(to.id)) throw new SlackError('user_not_in_channel');
      const threadTs = threadOf(args, c);
      const posted = ws.post({
        channel: c.id,
        user: ws.bot.userId,
        botId: ws.bot.botId,
        ephemeralTo: to.id,
        ...messageBody(args),
        ...(threadTs ? { threadTs } : {}),
      });
      return { message_ts: posted.ts };
    },
    'chat.update': (args) => {
      const c = channel(args);
      const m = botMessage(args, c.id);
      const body = messageBody(args);
      m.text = body.text;
      if (body.blocks) m.blocks = body.blocks;
      if (body.attachments) m.attachments = body.attachments;
      if (args.metadata) m.metadata = args.metadata as PgMessage['metadata'];
      m.edited = true;
      ws.changed({ kind: 'messages', channel: c.id });
      return { channel: c.id, ts: m.ts, text: m.text, message: messageObject(ws, m) };
    },
    'chat.delete': (args) => {
      const c = channel(args);
      const m = botMessage(args, c.id);
      ws.remove(m);
      return { channel: c.id, ts: m.ts };
    },
    'chat.getPermalink': (args) => {
      const c = channel(args);
      const ts = need(args, 'message_ts');
      if (!ws.find(c.id, ts)) throw new SlackError('message_not_found');
      return { channel: c.id, permalink: `${teamUrl()}archives/${c.id}/p${ts.replace('.', '')}` };
    },
    'reactions.add': (args) => {
      const c = channel(args);
      if (c.isPrivate && !c.members.includes(ws.bot.userId)) throw new SlackError('channel_not_found');
      const name = need(args, 'name');
      // Slack's emoji names: lower case letters, digits and `_+-'` (no colons).
      if (!/^[a-z0-9_+'-]+$/.test(name)) throw new SlackError('invalid_name');
      const m = ws.find(c.id, need(args, 'timestamp'));
      if (!m || m.ephemeralTo) throw new SlackError('message_not_found');
      const reactions = m.reactions ?? [];
      const same = reactions.find((r) => r.name === name);
      if (same?.users.includes(ws.bot.userId)) throw new SlackError('already_reacted');
      if (!same && reactions.length >= 23) throw new SlackError('too_many_emoji');
      if (same) same.users.push(ws.bot.userId);
      else reactions.push({ name, users: [ws.bot.userId] });
      m.reactions = reactions;
      ws.changed({ kind: 'messages', channel: c.id });
      return {};
    },
    'views.open': (args) => {
      const to = triggers.redeem(str(args, 'trigger_id'));
      const view = checkView(args.view);
      if (view.type !== 'modal')
        throw new SlackError('invalid_arguments', ['[ERROR] views.open takes a modal']);
      const v = newView('modal', to, view);
      ws.stacks.set(to, [v.id]);
      ws.changed({ kind: 'modal', user: to });
      return { view: viewObject(ws, v) };
    },
    'views.push': (args) => {
      const to = triggers.redeem(str(args, 'trigger_id'));
      const stack = modalStack(to);
      if (stack.length === 0) throw new SlackError('not_found');
      if (stack.length >= 3) throw new SlackError('push_limit_reached');
      const view = checkView(args.view);
      const v = newView('modal', to, view, stack[0], stack[stack.length - 1]);
      stack.push(v.id);
      ws.changed({ kind: 'modal', user: to });
      return { view: viewObject(ws, v) };
    },
    'views.update': (args) => {
      const viewId = str(args, 'view_id');
      const externalId = str(args, 'external_id');
      const v = viewId
        ? ws.views.get(viewId)
        : [...ws.views.values()].find((x) => externalId && x.externalId === externalId);
      if (!viewId && !externalId)
        throw new SlackError('invalid_arguments', ['[ERROR] view_id or external_id is required']);
      if (!v) throw new SlackError('not_found');
      const hash = str(args, 'hash');
      if (hash && hash !== v.hash) throw new SlackError('hash_conflict');
      const view = checkView(args.view);
      v.view = view;
      v.hash = `${ws.now()}.${ws.nextId('h')}`;
      v.errors = {};
      v.version++;
      ws.changed({ kind: v.type === 'home' ? 'home' : 'modal', user: v.user });
      return { view: viewObject(ws, v) };
    },
    'views.publish': (args) => {
      const to = user(need(args, 'user_id'));
      const view = checkView(args.view);
      if (view.type !== 'home')
        throw new SlackError('invalid_arguments', ['[ERROR] views.publish takes a home view']);
      let v = [...ws.views.values()].find((x) => x.type === 'home' && x.user === to.id);
      const hash = str(args, 'hash');
      if (v && hash && hash !== v.hash) throw new SlackError('hash_conflict');
      if (v) {
        v.view = view;
        v.hash = `${ws.now()}.${ws.nextId('h')}`;
        v.version++;
      } else v = newView('home', to.id, view);
      ws.changed({ kind: 'home', user: to.id });
      return { view: viewObject(ws, v) };
    },
    'files.getUploadURLExternal': (args) => {
      const name = need(args, 'filename');
      const size = Number(need(args, 'length'));
      if (!Number.isInteger(size) || size <= 0)
        throw new SlackError('invalid_arguments', ['[ERROR] length must be a positive integer']);
      const id = ws.nextId('F');
      ws.files.set(id, { id, name, title: name, size, uploaded: false });
      return { upload_url: `${baseUrl()}/upload/${id}`, file_id: id };
    },
    'files.completeUploadExternal': (args) => {
      const list = (typeof args.files === 'string' ? JSON.parse(args.files) : args.files) as
        | { id: string; title?: string }[]
        | undefined;
      if (!Array.isArray(list) || list.length === 0)
        throw new SlackError('invalid_arguments', ['[ERROR] files is required']);
      const done = list.map((f) => {
        const file = ws.files.get(f.id);
        if (!file?.uploaded) throw new SlackError('file_not_found');
        if (f.title) file.title = f.title;
        return { id: file.id, title: file.title, name: file.name, size: file.size };
      });
      const channelId = str(args, 'channel_id');
      if (channelId) {
        const c = ws.resolveChannel(channelId);
        if (!c) throw new SlackError('channel_not_found');
        const threadTs = threadOf(args, c);
        ws.post({
          channel: c.id,
          user: ws.bot.userId,
          botId: ws.bot.botId,
          text: str(args, 'initial_comment') ?? '',
          files: done,
          ...(threadTs ? { threadTs } : {}),
        });
      }
      return { files: done.map(({ id, title }) => ({ id, title })) };
    },
    // A channel's own canvas: one per channel; free workspaces have none.
    'conversations.canvases.create': (args) => {
      refuseCanvas();
      const c = ws.channels.get(need(args, 'channel_id'));
      if (!c) throw new SlackError('channel_not_found');
      if (ws.freeTier) throw new SlackError('team_tier_cannot_create_channel_canvases');
      if ([...ws.canvases.values()].some((x) => x.channelId === c.id && x.kind === 'channel' && !x.deleted))
        throw new SlackError('channel_canvas_already_exists');
      return newCanvas(c.id, 'channel', str(args, 'title') ?? '', documentOf(args));
    },
    // A canvas, tabbed in `channel_id` when given (required, and one per channel, on a free workspace).
    'canvases.create': (args) => {
      refuseCanvas();
      const channelId = str(args, 'channel_id');
      if (ws.freeTier && !channelId)
        throw new SlackError('invalid_arguments', ['[ERROR] channel_id is required']);
      if (channelId && !ws.channels.has(channelId)) throw new SlackError('channel_not_found');
      if (ws.freeTier && [...ws.canvases.values()].some((x) => x.channelId === channelId && !x.deleted))
        throw new SlackError('free_team_canvas_tab_already_exists');
      return newCanvas(channelId ?? '', 'tab', str(args, 'title') ?? '', documentOf(args));
    },
    // One operation per call, as Slack accepts today.
    'canvases.edit': (args) => {
      refuseCanvas();
      const canvas = canvasArg(args);
      const changes = args.changes;
      if (!Array.isArray(changes) || changes.length !== 1)
        throw new SlackError('invalid_arguments', ['[ERROR] changes must hold exactly one operation']);
      const change = changes[0] as Args;
      const op = str(change, 'operation');
      const sectionId = str(change, 'section_id');
      const markdown = documentOf(change);
      const at = sectionId ? canvas.sections.findIndex((x) => x.id === sectionId) : -1;
      if (sectionId && at < 0) throw new SlackError('canvas_editing_failed', ['[ERROR] no such section']);
      const needsContent = op !== 'delete';
      if (needsContent && markdown === undefined)
        throw new SlackError('invalid_arguments', ['[ERROR] document_content is required']);
      const added = markdown === undefined ? [] : ws.canvasSections(markdown);
      switch (op) {
        case 'replace':
          if (sectionId) canvas.sections.splice(at, 1, ...added);
          else canvas.sections = added;
          break;
        case 'insert_at_end':
          canvas.sections.push(...added);
          break;
        case 'insert_at_start':
          canvas.sections.unshift(...added);
          break;
        case 'insert_after':
        case 'insert_before':
          if (!sectionId) throw new SlackError('invalid_arguments', ['[ERROR] section_id is required']);
          canvas.sections.splice(op === 'insert_after' ? at + 1 : at, 0, ...added);
          break;
        case 'delete':
          if (!sectionId) throw new SlackError('invalid_arguments', ['[ERROR] section_id is required']);
          canvas.sections.splice(at, 1);
          break;
        default:
          throw new SlackError('invalid_arguments', [`[ERROR] unknown operation: ${op}`]);
      }
      canvas.edits += 1;
      ws.changed({ kind: 'canvas', channel: canvas.channelId });
      return {};
    },
    'canvases.sections.lookup': (args) => {
      refuseCanvas();
      const canvas = canvasArg(args);
      const criteria = args.criteria as { section_types?: unknown; contains_text?: unknown } | undefined;
      const types = Array.isArray(criteria?.section_types) ? (criteria.section_types as string[]) : undefined;
      const text = typeof criteria?.contains_text === 'string' ? criteria.contains_text : undefined;
      if (!types && !text) throw new SlackError('invalid_arguments', ['[ERROR] criteria is required']);
      const levelOf = (markdown: string) => /^(#{1,3}) /.exec(markdown)?.[1]?.length;
      const sections = canvas.sections.filter((x) => {
        const level = levelOf(x.markdown);
        const typed =
          !types || types.some((t) => (t === 'any_header' ? level !== undefined : t === `h${level}`));
        return typed && (!text || shownText(x.markdown).includes(text));
      });
      return { sections: sections.map((x) => ({ id: x.id })) };
    },
    'canvases.delete': (args) => {
      refuseCanvas();
      const canvas = canvasArg(args);
      canvas.deleted = true;
      ws.changed({ kind: 'canvas', channel: canvas.channelId });
      return {};
    },
    // A Workflow Builder step ends here (its outputs, or the sentence its builder reads): recorded
    // like every call, so a test waits for it.
    'functions.completeSuccess': (args) => {
      need(args, 'function_execution_id');
      if (typeof args.outputs !== 'object' || args.outputs === null)
        throw new SlackError('invalid_arguments', ['[ERROR] outputs is required']);
      return {};
    },
    'functions.completeError': (args) => {
      need(args, 'function_execution_id');
      need(args, 'error');
      return {};
    },
    // A pasted link's preview (Work Objects in `metadata.entities`, or the prompt to connect): recorded.
    'chat.unfurl': (args) => {
      const byMessage = str(args, 'channel') !== undefined && str(args, 'ts') !== undefined;
      const byUnfurlId = str(args, 'source') !== undefined && str(args, 'unfurl_id') !== undefined;
      if (!byMessage && !byUnfurlId)
        throw new SlackError('invalid_arguments', [
          '[ERROR] channel and ts, or source and unfurl_id, are required',
        ]);
      const metadata = args.metadata as { entities?: unknown } | undefined;
      if (metadata === undefined && (typeof args.unfurls !== 'object' || args.unfurls === null))
        throw new SlackError('invalid_arguments', ['[ERROR] unfurls or metadata is required']);
      if (metadata !== undefined) {
        if (!Array.isArray(metadata.entities) || metadata.entities.length === 0)
          throw new SlackError('invalid_metadata', ['[ERROR] metadata.entities is required']);
        for (const entity of metadata.entities) checkEntity(entity, true);
      }
      return {};
    },
    // A Work Object's flexpane, for the person who opened it.
    'entity.presentDetails': (args) => {
      need(args, 'trigger_id');
      if (args.metadata !== undefined) checkEntity(args.metadata, false);
      // `error` is an object here (JSON in a form body), a sentence in functions.completeError.
      if (typeof args.error === 'string') {
        const error = JSON.parse(args.error) as { status?: unknown };
        if (typeof error.status !== 'string')
          throw new SlackError('invalid_arguments', ['[ERROR] error.status is required']);
        args.error = error;
      }
      return {};
    },
  };

  /** A Work Object as Slack checks it (chat.unfurl wants the pasted URL too); throws `invalid_metadata`. */
  const checkEntity = (entity: unknown, unfurled: boolean) => {
    const e = (entity ?? {}) as Record<string, unknown>;
    const ref = e.external_ref as { id?: unknown } | undefined;
    const title = (e.entity_payload as { attributes?: { title?: { text?: unknown } } } | undefined)
      ?.attributes?.title?.text;
    const missing = [
      ...(typeof e.entity_type === 'string' ? [] : ['entity_type']),
      ...(typeof e.url === 'string' ? [] : ['url']),
      ...(typeof ref?.id === 'string' && ref.id !== '' ? [] : ['external_ref.id']),
      ...(typeof title === 'string' && title !== '' ? [] : ['entity_payload.attributes.title.text']),
      ...(unfurled && typeof e.app_unfurl_url !== 'string' ? ['app_unfurl_url'] : []),
    ];
    if (missing.length > 0)
      throw new SlackError(
        'invalid_metadata',
        missing.map((m) => `[ERROR] missing required field: ${m}`),
      );
  };

  /** Answers one call: `{ ok: true, … }` or `{ ok: false, error }` as Slack does. */
  return async function call(method: string, args: Args): Promise<Answer> {
    const run = methods[method];
    if (!run) {
      logger.warn({ method }, 'playground: the app called a Slack method the playground does not implement');
      return { ok: false, error: 'unknown_method' };
    }
    try {
      return { ok: true, ...(await run(args)) };
    } catch (error) {
      if (error instanceof SlackError) {
        logger.info({ method, error: error.code }, 'playground: Slack call refused');
        return {
          ok: false,
          error: error.code,
          ...(error.details.length ? { response_metadata: { messages: error.details } } : {}),
        };
      }
      throw error;
    }
  };
}
