/**
 * The playground's HTTP server, on loopback only: the fake Slack's routes for the app (the Web API
 * at `/api/<method>`, response_urls, file uploads — served by `fake-slack.ts`, the same fake the
 * tests use), and the page — its HTML and script, a JSON interface for what people do and a
 * server-sent event stream that says when something they look at changed.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { COMMAND } from '../slack/kit/ids.js';
import { appManifest } from '../slack/topics.js';
import { canvasToHtml } from './canvas.js';
import { type FakeSlack, readBody } from './fake-slack.js';
import { APP_DM_WRITABLE, type Interactions, PageError } from './interactions.js';
import { mrkdwnToHtml, plainToHtml, withHtml } from './mrkdwn.js';
import { SlackError } from './web-api.js';
import type { Change, PgMessage, Workspace } from './workspace.js';

/** The page's files: beside the sources, found the same way from src/ (tsx) and dist/ (built). */
const PUBLIC = new URL('../../src/playground/public/', import.meta.url);
const ASSETS: Record<string, string> = {
  '/': 'index.html',
  '/assets/app.js': 'app.js',
  '/assets/style.css': 'style.css',
};
const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

export interface ServerDeps {
  /** Slack's side for the app: its routes are served first. */
  slack: FakeSlack;
  interactions: Interactions;
  logger: Logger;
  /**
   * Whether the app has linked a channel, and to what, as its store says (the channel header and
   * *Post today's digest* follow `/plan link` and `/plan unlink`). Without it, the seed's links.
   */
  linkOf?: (channelId: string) => Promise<ChannelLinkShown>;
}

/** A channel's header: linked or not, and what it says under the name. */
export interface ChannelLinkShown {
  linked: boolean;
  topic: string;
}

/** The image types the fake's uploads may be served as, told apart by their first bytes. */
function imageType(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return 'application/octet-stream';
}

const values = z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))).default({});
const user = z.string().min(1);
const PAGE = {
  compose: z.object({
    user,
    channel: z.string(),
    text: z.string().min(1).max(40_000),
    threadTs: z.string().optional(),
  }),
  shortcut: z.object({
    user,
    callbackId: z.string(),
    channel: z.string().optional(),
    ts: z.string().optional(),
  }),
  action: z.object({
    user,
    channel: z.string().optional(),
    ts: z.string().optional(),
    viewId: z.string().optional(),
    action: z.record(z.string(), z.unknown()),
    values,
  }),
  options: z.object({
    user,
    viewId: z.string().optional(),
    channel: z.string().optional(),
    ts: z.string().optional(),
    actionId: z.string(),
    blockId: z.string(),
    value: z.string(),
    values,
  }),
  edit: z.object({ user, channel: z.string(), ts: z.string(), text: z.string().trim().min(1).max(40_000) }),
  delete: z.object({ user, channel: z.string(), ts: z.string() }),
  view: z.object({ user, viewId: z.string(), values }),
  home: z.object({ user }),
  assistant: z.object({ user, context: z.string().optional() }),
  assistantContext: z.object({ user, threadTs: z.string(), context: z.string() }),
};

/** A person's message as they typed it: mentions by name, Slack's escapes undone (see `escapeMentions`). */
function typedText(text: string, ws: Workspace): string {
  return text
    .replace(/<@(\w+)(?:\|[^>]*)?>/g, (whole, id: string) => {
      const person = ws.users.get(id);
      return person ? `@${person.realName}` : whole;
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json; charset=utf-8') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export function createPlaygroundServer(deps: ServerDeps): Server {
  const { slack, interactions, logger } = deps;
  const ws = slack.workspace;
  const linkOf =
    deps.linkOf ??
    (async (id: string): Promise<ChannelLinkShown> => {
      const c = ws.channels.get(id);
      return { linked: Boolean(c?.linkTo), topic: c?.topic ?? '' };
    });
  const shortcuts = () =>
    appManifest().features.shortcuts.map((s) => ({
      name: s.name,
      type: s.type,
      callbackId: s.callback_id,
      description: s.description,
    }));

  /** A message as the page shows it: mrkdwn rendered, author named, replies counted. */
  const forPage = (m: PgMessage, viewer: string) => {
    const author = ws.users.get(m.user);
    const replies = m.threadTs
      ? []
      : ws.visible(m.channel, viewer).filter((r) => r.threadTs === m.ts && r.ts !== m.ts);
    return withHtml(
      {
        ts: m.ts,
        channel: m.channel,
        user: m.user,
        author: author?.realName ?? m.user,
        bot: Boolean(m.botId),
        text: m.text,
        html: mrkdwnToHtml(m.text, ws, viewer),
        blocks: m.blocks,
        attachments: m.attachments,
        files: m.files,
        threadTs: m.threadTs,
        ephemeral: m.ephemeralTo !== undefined,
        edited: Boolean(m.edited),
        /** The viewer wrote it: they may edit and delete it, starting from what they typed. */
        ...(m.user === viewer && !m.botId && m.ephemeralTo === undefined
          ? { own: true, typed: typedText(m.text, ws) }
          : {}),
        reactions: (m.reactions ?? []).map((r) => ({
          name: r.name,
          count: r.users.length,
          html: plainToHtml(`:${r.name}:`, true),
          by: r.users.map((id) => ws.users.get(id)?.realName ?? (id === ws.bot.userId ? ws.bot.name : id)),
        })),
        replyCount: replies.length,
      },
      ws,
      viewer,
    );
  };

  const state = (me: string) => {
    const person = ws.users.get(me);
    if (!person || person.isBot) throw new SlackError('user_not_found');
    return {
      team: ws.team.name,
      app: { name: ws.bot.name, userId: ws.bot.userId, dm: ws.imWith(me).id, dmWritable: APP_DM_WRITABLE },
      command: COMMAND,
      /** The channel the page opens first: the demo's busiest. */
      start: 'C0API',
      me: person,
      people: ws.people().map(({ id, realName, role, guest }) => ({ id, realName, role, guest })),
      channels: [...ws.channels.values()]
        .filter((c) => !c.isIm && c.members.includes(me))
        .map((c) => ({ id: c.id, name: c.name, topic: c.topic, linked: Boolean(c.linkTo) })),
      shortcuts: shortcuts(),
    };
  };

  const page = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const q = (name: string) => url.searchParams.get(name) ?? '';
    const json = async () => JSON.parse((await readBody(req)).toString('utf8') || '{}') as unknown;
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /pg/state':
        return send(res, 200, state(q('user')));
      case 'GET /pg/channel': {
        const me = q('user');
        const channel = ws.channels.get(q('channel'));
        const top = ws.visible(q('channel'), me).filter((m) => !m.threadTs || m.threadTs === m.ts);
        return send(res, 200, {
          messages: top.map((m) => forPage(m, me)),
          ...(channel && !channel.isIm ? { link: await linkOf(channel.id) } : {}),
        });
      }
      // The channel's canvas tab: its canvas (the channel's own, else one tabbed in it), rendered.
      case 'GET /pg/canvas': {
        const canvas = ws.canvasOf(q('channel'));
        return send(res, 200, {
          canvas: canvas
            ? { id: canvas.id, title: canvas.title, html: canvasToHtml(ws.canvasMarkdown(canvas), ws) }
            : null,
        });
      }
      case 'GET /pg/thread': {
        const me = q('user');
        // A permalink may name a reply: the thread shown is its parent's, root first, as in Slack.
        const named = ws.find(q('channel'), q('ts'));
        const root = named?.threadTs ?? q('ts');
        const thread = ws.visible(q('channel'), me).filter((m) => m.ts === root || m.threadTs === root);
        return send(res, 200, { messages: thread.map((m) => forPage(m, me)) });
      }
      case 'GET /pg/modal': {
        const v = ws.topModal(q('user'));
        const depth = ws.stacks.get(q('user'))?.length ?? 0;
        return send(res, 200, {
          modal: v
            ? withHtml({ id: v.id, view: v.view, errors: v.errors, version: v.version, depth }, ws, q('user'))
            : null,
        });
      }
      case 'GET /pg/home': {
        const v = [...ws.views.values()].find((x) => x.type === 'home' && x.user === q('user'));
        return send(res, 200, { home: v ? withHtml({ id: v.id, view: v.view }, ws, q('user')) : null });
      }
      case 'POST /pg/compose': {
        const b = PAGE.compose.parse(await json());
        const notice = await interactions.compose(b.user, b.channel, b.text, b.threadTs);
        return send(res, 200, { ok: true, ...(notice ? { notice } : {}) });
      }
      case 'POST /pg/edit': {
        const b = PAGE.edit.parse(await json());
        await interactions.editMessage(b.user, b.channel, b.ts, b.text);
        return send(res, 200, { ok: true });
      }
      case 'POST /pg/delete': {
        const b = PAGE.delete.parse(await json());
        await interactions.deleteMessage(b.user, b.channel, b.ts);
        return send(res, 200, { ok: true });
      }
      case 'POST /pg/shortcut': {
        const b = PAGE.shortcut.parse(await json());
        const answer =
          b.channel && b.ts
            ? await interactions.messageShortcut(b.user, b.callbackId, b.channel, b.ts)
            : await interactions.globalShortcut(b.user, b.callbackId);
        return send(res, 200, { ok: answer.status < 400 });
      }
      case 'POST /pg/action': {
        const b = PAGE.action.parse(await json());
        const answer = b.viewId
          ? await interactions.viewAction(b.user, b.viewId, b.action, b.values)
          : await interactions.messageAction(b.user, b.channel ?? '', b.ts ?? '', b.action);
        return send(res, 200, { ok: answer.status < 400 });
      }
      case 'POST /pg/options': {
        const b = PAGE.options.parse(await json());
        const where = {
          ...(b.viewId ? { viewId: b.viewId } : {}),
          ...(b.channel ? { channel: b.channel } : {}),
          ...(b.ts ? { ts: b.ts } : {}),
        };
        return send(
          res,
          200,
          withHtml(
            await interactions.options(b.user, where, b.actionId, b.blockId, b.value, b.values),
            ws,
            b.user,
          ),
        );
      }
      case 'POST /pg/submit': {
        const b = PAGE.view.parse(await json());
        return send(res, 200, await interactions.submit(b.user, b.viewId, b.values));
      }
      case 'POST /pg/close': {
        const b = PAGE.view.parse(await json());
        await interactions.close(b.user, b.viewId, b.values);
        return send(res, 200, { ok: true });
      }
      case 'POST /pg/assistant': {
        const b = PAGE.assistant.parse(await json());
        return send(res, 200, await interactions.assistantStart(b.user, b.context));
      }
      case 'POST /pg/assistant/context': {
        const b = PAGE.assistantContext.parse(await json());
        await interactions.assistantContext(b.user, b.threadTs, b.context);
        return send(res, 200, { ok: true });
      }
      case 'GET /pg/assistant': {
        // The panel: the thread's replies (its root is Slack's), and what the app set on it.
        const me = q('user');
        const channel = ws.imWith(me).id;
        const root = q('ts');
        const replies = ws.visible(channel, me).filter((m) => m.threadTs === root && m.ts !== root);
        const set = ws.assistantThreads.get(`${channel}:${root}`);
        return send(res, 200, {
          messages: replies.map((m) => forPage(m, me)),
          status: set?.status ?? '',
          title: set?.title ?? '',
          prompts: set?.prompts ?? [],
        });
      }
      case 'POST /pg/home': {
        const b = PAGE.home.parse(await json());
        return send(res, 200, { ok: true, subscribed: await interactions.openHome(b.user) });
      }
      case 'GET /pg/events': {
        const me = q('user');
        res.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-store',
          connection: 'keep-alive',
        });
        res.write(': connected\n\n');
        const listener = (change: Change) => {
          if ('user' in change && change.user !== me) return;
          res.write(`data: ${JSON.stringify(change)}\n\n`);
        };
        ws.on('change', listener);
        req.on('close', () => ws.off('change', listener));
        return;
      }
      default:
        return send(res, 404, { ok: false, error: 'not_found' });
    }
  };

  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://playground');
    const path = url.pathname;
    const handle = async () => {
      if (await slack.handle(req, res)) return;
      const archive = /^\/archives\/(\w+)\/p(\d+)(\d{6})$/.exec(path);
      if (req.method === 'GET' && archive) {
        res.writeHead(302, { location: `/#${archive[1]}/${archive[2]}.${archive[3]}` });
        return res.end();
      }
      // Uploaded files, as Slack shows them to the people they were shared with (Home's chart).
      const file = /^\/files\/(\w+)$/.exec(path);
      if (req.method === 'GET' && file) {
        const bytes = ws.files.get(file[1] ?? '')?.bytes;
        if (!bytes) return send(res, 404, { ok: false, error: 'file_not_found' });
        res.writeHead(200, { 'content-type': imageType(bytes), 'cache-control': 'no-store' });
        return res.end(bytes);
      }
      if (path === '/favicon.ico') return send(res, 204, '', 'image/x-icon');
      const asset = ASSETS[path];
      if (req.method === 'GET' && asset) {
        const body = await readFile(new URL(asset, PUBLIC), 'utf8');
        return send(res, 200, body, TYPES[asset.split('.').pop() ?? 'html']);
      }
      if (path.startsWith('/pg/')) return page(req, res, url);
      return send(res, 404, { ok: false, error: 'not_found' });
    };
    handle().catch((error: unknown) => {
      if (
        error instanceof z.ZodError ||
        error instanceof SyntaxError ||
        error instanceof SlackError ||
        error instanceof PageError
      ) {
        return send(res, 400, {
          ok: false,
          error: error instanceof SlackError ? error.code : 'invalid_request',
          detail: String((error as Error).message).slice(0, 500),
        });
      }
      logger.error({ err: error, path }, 'playground: request failed');
      if (!res.headersSent) send(res, 500, { ok: false, error: 'internal_error' });
      else res.end();
    });
  });
}
