/**
 * The fake Slack's workspace, in memory: people (with every fact Slack's users.info gives), channels
 * and DMs, messages (threads, ephemerals, metadata), modal stacks, Home tabs and uploaded files.
 * Both halves of the fake Slack read and change it — the Web API the app calls and whoever plays
 * the people (the playground's page, a test harness) — and every change is announced.
 *
 * `new Workspace()` is an empty workspace holding only the app's bot user; `{ seed: 'demo' }` adds
 * the playground's demo people, channels and opening messages.
 */
import { EventEmitter } from 'node:events';

export const TEAM_ID = 'T0PLAYGRND';
export const TEAM_NAME = 'Northwind Robotics';
export const TEAM_DOMAIN = 'northwind';
export const APP_ID = 'A0PLAYGRND';
export const BOT_ID = 'B0PLAYGRND';
export const BOT_USER_ID = 'U0BOTPLAN';
export const BOT_NAME = 'Team Planning';
/** What a channel's header says while no planning channel is linked to it. */
export const NOT_LINKED_TOPIC = 'Not linked: try /plan link here';

/** A workspace's own facts, as auth.test and team.info give them. */
export interface PgTeam {
  id: string;
  name: string;
  domain: string;
  /** The workspace's address (`https://<domain>.slack.com/`): permalinks start with it. Default: the fake's own URL. */
  url?: string;
  /** The Enterprise Grid organization the workspace belongs to, if any. */
  enterpriseId?: string;
}

/** The app's bot in the workspace. */
export interface PgBot {
  userId: string;
  botId: string;
  appId: string;
  name: string;
}

/** A guest, as Slack tells them apart (`is_restricted`, `is_ultra_restricted`). */
export type GuestKind = 'multi-channel' | 'single-channel';

export interface PgUser {
  id: string;
  /** Slack handle. */
  name: string;
  realName: string;
  /** The profile's display name (empty when the person set none, as in Slack). */
  displayName?: string;
  /** The demo organization's person this Slack user acts as (by service-account name); none for a guest. */
  planningName?: string;
  isAdmin: boolean;
  isOwner: boolean;
  /** Never provisioned by the app; false for a full member. */
  guest: false | GuestKind;
  isBot: boolean;
  tz: string;
  /** The person's own workspace: another one for someone from a Slack Connect organization. Default: this workspace. */
  teamId?: string;
  /** The person's Enterprise Grid organization. */
  enterpriseId?: string;
  /** Deactivated. */
  deleted?: boolean;
  /** An external person Slack marks as a stranger (`is_stranger`). */
  stranger?: boolean;
  /** The profile photo's address (profile.image_original and the sized images). */
  photo?: string;
  /** What the playground's person switcher says about them. */
  role?: string;
}

/** What makes a person, the rest defaulted as Slack would have a plain full member. */
export type UserSpec = Pick<PgUser, 'id'> & Partial<Omit<PgUser, 'id'>>;

/** What makes a channel; a DM is made with {@link Workspace.imWith}. */
export interface ChannelSpec {
  id: string;
  name?: string;
  /** Its members (the bot only when it was added or joined). */
  members?: string[];
  isPrivate?: boolean;
  topic?: string;
}

export interface PgChannel {
  id: string;
  name: string;
  /** A direct message between the app and one person. */
  isIm: boolean;
  isPrivate?: boolean;
  /** For a DM: the person. */
  user?: string;
  members: string[];
  /** The demo organization's team and channel names this Slack channel is linked to. */
  linkTo?: { team: string; channel: string };
  topic?: string;
}

export interface PgFile {
  id: string;
  title: string;
  name: string;
  size: number;
}

/** A file as uploaded to its upload URL (the external way), with its bytes once they arrived. */
export interface PgUpload extends PgFile {
  uploaded: boolean;
  bytes?: Buffer;
}

export interface PgMessage {
  ts: string;
  channel: string;
  /** The person who wrote it; the bot's messages have `botId` and the bot's user id. */
  user: string;
  botId?: string;
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  threadTs?: string;
  /** Seen only by this person (an ephemeral message). */
  ephemeralTo?: string;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  files?: PgFile[];
  edited?: boolean;
  /** Emoji reactions, each with who added it (reactions.add). */
  reactions?: { name: string; users: string[] }[];
}

export interface PgView {
  id: string;
  hash: string;
  type: 'modal' | 'home';
  user: string;
  view: Record<string, unknown>;
  externalId?: string;
  rootId: string;
  previousId?: string;
  /** Field errors from the last `response_action: errors`, by block id. */
  errors: Record<string, string>;
  /** Bumped on every change: a late ack must not overwrite a newer views.update. */
  version: number;
}

/** What the page is told changed; it then reads what it shows again. */
/** One section of a canvas: a heading and the lines under it (or the lines before the first heading). */
export interface PgCanvasSection {
  id: string;
  markdown: string;
}

/** A canvas: a channel's own (`channel`) or one tabbed in a channel (`tab`). */
export interface PgCanvas {
  id: string;
  title: string;
  channelId: string;
  kind: 'channel' | 'tab';
  sections: PgCanvasSection[];
  /** Edits made to it (one operation each). */
  edits: number;
  deleted?: boolean;
}

export type Change =
  | { kind: 'messages'; channel: string }
  | { kind: 'canvas'; channel: string }
  | { kind: 'modal'; user: string }
  | { kind: 'home'; user: string }
  | { kind: 'notice'; user: string; text: string };

/** The demo's people in Slack: names match the sandbox's demo organization. */
const PEOPLE: Omit<PgUser, 'isBot' | 'tz' | 'name'>[] = [
  {
    id: 'U0ADA',
    realName: 'Ada Lovelace',
    planningName: 'Ada Lovelace',
    isAdmin: true,
    isOwner: true,
    guest: false,
    role: 'workspace owner · planning owner',
  },
  {
    id: 'U0GRACE',
    realName: 'Grace Hopper',
    planningName: 'Grace Hopper',
    isAdmin: true,
    isOwner: false,
    guest: false,
    role: 'workspace admin · planning admin',
  },
  {
    id: 'U0MARGARET',
    realName: 'Margaret Hamilton',
    planningName: 'Margaret Hamilton',
    isAdmin: false,
    isOwner: false,
    guest: false,
    role: 'member',
  },
  {
    id: 'U0ALAN',
    realName: 'Alan Turing',
    planningName: 'Alan Turing',
    isAdmin: false,
    isOwner: false,
    guest: false,
    role: 'member',
  },
  {
    id: 'U0KATHERINE',
    realName: 'Katherine Johnson',
    planningName: 'Katherine Johnson',
    isAdmin: false,
    isOwner: false,
    guest: false,
    role: 'member',
  },
  {
    id: 'U0DENNIS',
    realName: 'Dennis Ritchie',
    planningName: 'Dennis Ritchie',
    isAdmin: false,
    isOwner: false,
    guest: false,
    role: 'member',
  },
  {
    id: 'U0BARBARA',
    realName: 'Barbara Liskov',
    planningName: 'Barbara Liskov',
    isAdmin: false,
    isOwner: false,
    guest: false,
    role: 'member',
  },
  {
    id: 'U0GUEST',
    realName: 'Gus Guest',
    isAdmin: false,
    isOwner: false,
    guest: 'multi-channel',
    role: 'guest (no planning account)',
  },
];

/** Slack channels, linked to the demo organization's planning channels; #general is not linked. */
const CHANNELS: { id: string; name: string; linkTo?: PgChannel['linkTo']; topic: string; guest?: boolean }[] =
  [
    { id: 'C0GENERAL', name: 'general', topic: NOT_LINKED_TOPIC, guest: true },
    {
      id: 'C0PLATFORM',
      name: 'platform',
      linkTo: { team: 'Platform', channel: 'General' },
      topic: 'Platform › General',
    },
    { id: 'C0API', name: 'api', linkTo: { team: 'Platform', channel: 'API' }, topic: 'Platform › API' },
    {
      id: 'C0INFRA',
      name: 'infrastructure',
      linkTo: { team: 'Platform', channel: 'Infrastructure' },
      topic: 'Platform › Infrastructure',
    },
    {
      id: 'C0PRODUCT',
      name: 'product',
      linkTo: { team: 'Product', channel: 'General' },
      topic: 'Product › General',
      guest: true,
    },
    {
      id: 'C0DISCOVERY',
      name: 'discovery',
      linkTo: { team: 'Product', channel: 'Discovery' },
      topic: 'Product › Discovery',
    },
    {
      id: 'C0MOBILE',
      name: 'mobile',
      linkTo: { team: 'Mobile', channel: 'General' },
      topic: 'Mobile › General',
    },
  ];

/** The first message a newcomer reads: what to try in their first minute (issue 23 item 15). */
export const WELCOME = [
  'Welcome to the playground :wave: Everything here is local, nothing reaches a real Slack. Your first minute:',
  '• Hover a message (the next one, say), open *⋮ More actions* → *Create task*: its card lands in the thread.',
  '• *⚡ Shortcuts* (top bar) → *New feature*, or *Grade a peer*.',
  '• Switch *Acting as* (top right) to the person you assigned, and answer in their DM with *Team Planning* (sidebar, under Apps).',
  '• Open *Team Planning* → *Home*: your tasks, what waits for you, your experience chart and which DMs you get.',
  '`/plan help` lists every command.',
].join('\n');

/** A few human messages, so "Create task" has something to start from. */
const OPENING_MESSAGES: { channel: string; user: string; text: string }[] = [
  {
    channel: 'C0API',
    user: 'U0GRACE',
    text: WELCOME,
  },
  {
    channel: 'C0API',
    user: 'U0ALAN',
    text: 'The *nightly export* times out when a workspace has more than 10k tasks — someone should add paging to it.',
  },
  {
    channel: 'C0API',
    user: 'U0MARGARET',
    text: 'Partners ask for a `Retry-After` header on every 429 we send.',
  },
  {
    channel: 'C0PRODUCT',
    user: 'U0KATHERINE',
    text: 'Onboarding interviews: 4 of 6 people missed the _Invite teammates_ step.',
  },
  {
    channel: 'C0MOBILE',
    user: 'U0BARBARA',
    text: 'Offline mode crashes when the sync queue holds more than 500 items.',
  },
];

/** What an app set on one of its assistant threads (Slack's AI side panel). */
export interface PgAssistantThread {
  status: string;
  title?: string;
  prompts: { title: string; message: string }[];
}

export interface WorkspaceOptions {
  /** `demo`: the playground's people, channels and opening messages. Default: the bot alone. */
  seed?: 'demo' | 'empty';
  /** The workspace's facts (default: the demo's, "Northwind Robotics"). */
  team?: Partial<PgTeam>;
  /** The app's bot (default: the demo's). */
  bot?: Partial<PgBot>;
  /** Everyone's time zone unless told otherwise (default UTC). */
  tz?: string;
  /** The clock message ts and trigger lifetimes are read from (default `Date.now`). */
  now?: () => number;
  /**
   * Keep only this many ephemeral messages, the oldest dropped first (a long benchmark's memory
   * stays bounded); default all. Slack never gives them back through the Web API anyway.
   */
  keepEphemerals?: number;
}

export class Workspace extends EventEmitter<{ change: [Change] }> {
  readonly team: PgTeam;
  readonly bot: PgBot;
  readonly tz: string;
  readonly now: () => number;
  private readonly keepEphemerals: number;
  private readonly ephemerals: PgMessage[] = [];
  readonly users = new Map<string, PgUser>();
  readonly channels = new Map<string, PgChannel>();
  readonly messages: PgMessage[] = [];
  /**
   * The same messages per channel, in ts order: what a channel's history, a thread or a lookup reads,
   * without scanning every channel's (a bench's 20,000 channels hold tens of thousands of messages).
   */
  private readonly byChannel = new Map<string, PgMessage[]>();
  readonly views = new Map<string, PgView>();
  /** Each person's open modals, bottom first. */
  readonly stacks = new Map<string, string[]>();
  readonly files = new Map<string, PgUpload>();
  /** Canvases by id; a channel's own canvas is found by its channel. */
  readonly canvases = new Map<string, PgCanvas>();
  /**
   * What Slack answers every canvas call while set (`canvas_disabled_user_team`, `restricted_action`,
   * `missing_scope`…): a test or the playground says how this workspace refuses canvases.
   */
  canvasRefusal: string | undefined;
  /** A free workspace: no channel canvases, one canvas tab per channel (`canvases.create`). */
  freeTier = false;
  /** Each assistant thread's status, title and suggested prompts, by `<DM channel>:<thread ts>`. */
  readonly assistantThreads = new Map<string, PgAssistantThread>();
  private lastTs = 0;
  private counter = 0;

  constructor(options: WorkspaceOptions = {}) {
    super();
    // A test may watch many changes at once; the page's listeners come and go.
    this.setMaxListeners(0);
    this.team = { id: TEAM_ID, name: TEAM_NAME, domain: TEAM_DOMAIN, ...options.team };
    this.bot = { userId: BOT_USER_ID, botId: BOT_ID, appId: APP_ID, name: BOT_NAME, ...options.bot };
    this.tz = options.tz ?? 'UTC';
    this.now = options.now ?? Date.now;
    this.keepEphemerals = options.keepEphemerals ?? Number.POSITIVE_INFINITY;
    this.addUser({
      id: this.bot.userId,
      name: 'team_planning',
      realName: this.bot.name,
      displayName: this.bot.name,
      isBot: true,
      role: 'app',
    });
    if (options.seed === 'demo') this.seedDemo();
  }

  private seedDemo() {
    for (const p of PEOPLE) {
      this.addUser({ ...p, name: p.realName.split(' ')[0]?.toLowerCase() ?? p.id });
    }
    const everyone = PEOPLE.filter((p) => !p.guest).map((p) => p.id);
    for (const c of CHANNELS) {
      this.channels.set(c.id, {
        id: c.id,
        name: c.name,
        isIm: false,
        members: [...everyone, this.bot.userId, ...(c.guest ? ['U0GUEST'] : [])],
        topic: c.topic,
        ...(c.linkTo ? { linkTo: c.linkTo } : {}),
      });
    }
    for (const m of OPENING_MESSAGES) this.post({ channel: m.channel, user: m.user, text: m.text });
  }

  /** Adds (or replaces) a person; what is not said is a full member of this workspace. */
  addUser(spec: UserSpec): PgUser {
    const user: PgUser = {
      name: spec.id.toLowerCase(),
      realName: spec.name ?? spec.id,
      isAdmin: false,
      isOwner: false,
      guest: false,
      isBot: false,
      tz: this.tz,
      ...spec,
    };
    this.users.set(user.id, user);
    return user;
  }

  /** Adds a channel, or adds members to one that exists. */
  addChannel(spec: ChannelSpec): PgChannel {
    const existing = this.channels.get(spec.id);
    if (existing) {
      for (const m of spec.members ?? []) if (!existing.members.includes(m)) existing.members.push(m);
      return existing;
    }
    const channel: PgChannel = {
      id: spec.id,
      name: spec.name ?? spec.id.toLowerCase(),
      isIm: false,
      members: [...new Set(spec.members ?? [])],
      ...(spec.isPrivate ? { isPrivate: true } : {}),
      ...(spec.topic ? { topic: spec.topic } : {}),
    };
    this.channels.set(channel.id, channel);
    return channel;
  }

  people(): PgUser[] {
    return [...this.users.values()].filter((u) => !u.isBot);
  }

  /** A Slack-like unique ts: seconds with six digits, strictly increasing. */
  nextTs(): string {
    const now = this.now() * 1000;
    this.lastTs = Math.max(now, this.lastTs + 1);
    return (this.lastTs / 1_000_000).toFixed(6);
  }

  nextId(prefix: string): string {
    return `${prefix}${(++this.counter).toString(36).toUpperCase().padStart(6, '0')}`;
  }

  /**
   * The DM between the app and `userId`, opened when first needed (with `id` when given, else
   * one made from the person's id).
   */
  imWith(userId: string, id?: string): PgChannel {
    for (const c of this.channels.values()) if (c.isIm && c.user === userId) return c;
    const dm: PgChannel = {
      id: id ?? `D${userId.slice(1)}`,
      name: this.bot.name,
      isIm: true,
      user: userId,
      members: [userId, this.bot.userId],
    };
    this.channels.set(dm.id, dm);
    return dm;
  }

  /** Channel by id, or a person's id (Slack posts to their DM with the app). */
  resolveChannel(idOrUser: string): PgChannel | undefined {
    if (this.channels.has(idOrUser)) return this.channels.get(idOrUser);
    const user = this.users.get(idOrUser);
    return user && !user.isBot ? this.imWith(user.id) : undefined;
  }

  /** Adds a message; one given an earlier ts (a message from before) is filed in ts order. */
  post(message: Omit<PgMessage, 'ts'> & { ts?: string }): PgMessage {
    const full: PgMessage = { ...message, ts: message.ts ?? this.nextTs() };
    fileInTsOrder(this.messages, full);
    const inChannel = this.byChannel.get(full.channel);
    if (inChannel) fileInTsOrder(inChannel, full);
    else this.byChannel.set(full.channel, [full]);
    if (full.ephemeralTo !== undefined && Number.isFinite(this.keepEphemerals)) {
      this.ephemerals.push(full);
      const dropped = this.ephemerals.length > this.keepEphemerals ? this.ephemerals.shift() : undefined;
      if (dropped) this.unfile(dropped);
    }
    this.changed({ kind: 'messages', channel: full.channel });
    return full;
  }

  /** A channel's messages (ephemerals and thread replies included), oldest first. */
  inChannel(channel: string): readonly PgMessage[] {
    return this.byChannel.get(channel) ?? [];
  }

  find(channel: string, ts: string, ephemeralTo?: string): PgMessage | undefined {
    return this.inChannel(channel).find(
      (m) => m.ts === ts && (ephemeralTo === undefined || m.ephemeralTo === ephemeralTo),
    );
  }

  remove(message: PgMessage) {
    this.unfile(message);
    this.changed({ kind: 'messages', channel: message.channel });
  }

  /** What `viewer` sees in a channel: everything but other people's ephemerals, oldest first. */
  visible(channel: string, viewer: string): PgMessage[] {
    return this.inChannel(channel).filter((m) => m.ephemeralTo === undefined || m.ephemeralTo === viewer);
  }

  private unfile(message: PgMessage) {
    for (const list of [this.messages, this.byChannel.get(message.channel) ?? []]) {
      const index = list.lastIndexOf(message);
      if (index >= 0) list.splice(index, 1);
    }
  }

  /** The top of a person's modal stack. */
  topModal(user: string): PgView | undefined {
    const stack = this.stacks.get(user) ?? [];
    const id = stack[stack.length - 1];
    return id ? this.views.get(id) : undefined;
  }

  changed(change: Change) {
    this.emit('change', change);
  }

  /** The canvas a channel shows (its own, else its tab), not deleted. */
  canvasOf(channelId: string): PgCanvas | undefined {
    const all = [...this.canvases.values()].filter((c) => c.channelId === channelId && !c.deleted);
    return all.find((c) => c.kind === 'channel') ?? all[0];
  }

  /** A canvas's whole markdown, section after section. */
  canvasMarkdown(canvas: PgCanvas): string {
    return canvas.sections.map((s) => s.markdown).join('\n');
  }

  /** Markdown cut into sections: each heading starts one, holding the lines under it. */
  canvasSections(markdown: string): PgCanvasSection[] {
    const sections: PgCanvasSection[] = [];
    for (const line of markdown.split('\n')) {
      const last = sections[sections.length - 1];
      if (!last || /^#{1,3} /.test(line)) sections.push({ id: `temp:C:${this.nextId('S')}`, markdown: line });
      else last.markdown += `\n${line}`;
    }
    return sections;
  }
}

/** Inserts `message` in a ts-ordered list: from the end, where a new message almost always goes. */
function fileInTsOrder(list: PgMessage[], message: PgMessage) {
  let at = list.length;
  while (at > 0 && Number(list[at - 1]?.ts) > Number(message.ts)) at--;
  list.splice(at, 0, message);
}
