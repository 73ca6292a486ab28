/**
 * The playground's Slack workspace, in memory: people, channels, messages (threads, ephemerals,
 * metadata), modal stacks and Home tabs. Both halves of the fake Slack read and change it — the
 * Web API the app calls and the page people click — and every change is announced to the page.
 */
import { EventEmitter } from 'node:events';

export const TEAM_ID = 'T0PLAYGRND';
export const TEAM_NAME = 'Northwind Robotics';
export const TEAM_DOMAIN = 'northwind';
export const APP_ID = 'A0PLAYGRND';
export const BOT_ID = 'B0PLAYGRND';
export const BOT_USER_ID = 'U0BOTPLAN';
export const BOT_NAME = 'Team Planning';

export interface PgUser {
  id: string;
  /** Slack handle. */
  name: string;
  realName: string;
  /** The demo organization's person this Slack user acts as (by service-account name); none for a guest. */
  planningName?: string;
  isAdmin: boolean;
  isOwner: boolean;
  /** A multi-channel guest: never provisioned. */
  guest: boolean;
  isBot: boolean;
  tz: string;
  /** What the person switcher says about them. */
  role: string;
}

export interface PgChannel {
  id: string;
  name: string;
  /** A direct message between the app and one person. */
  isIm: boolean;
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
export type Change =
  | { kind: 'messages'; channel: string }
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
    guest: true,
    role: 'guest (no planning account)',
  },
];

/** Slack channels, linked to the demo organization's planning channels; #general is not linked. */
const CHANNELS: { id: string; name: string; linkTo?: PgChannel['linkTo']; topic: string; guest?: boolean }[] =
  [
    { id: 'C0GENERAL', name: 'general', topic: 'Not linked: try /plan link here', guest: true },
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

/** A few human messages, so "Create task" has something to start from. */
const OPENING_MESSAGES: { channel: string; user: string; text: string }[] = [
  {
    channel: 'C0API',
    user: 'U0GRACE',
    text: 'Welcome to the playground :wave: Everything here is local: try `/plan help`.',
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

export class Workspace extends EventEmitter<{ change: [Change] }> {
  readonly users = new Map<string, PgUser>();
  readonly channels = new Map<string, PgChannel>();
  readonly messages: PgMessage[] = [];
  readonly views = new Map<string, PgView>();
  /** Each person's open modals, bottom first. */
  readonly stacks = new Map<string, string[]>();
  readonly files = new Map<string, PgFile & { uploaded: boolean }>();
  private lastTs = 0;
  private counter = 0;

  constructor(tz = 'UTC') {
    super();
    this.users.set(BOT_USER_ID, {
      id: BOT_USER_ID,
      name: 'team_planning',
      realName: BOT_NAME,
      isAdmin: false,
      isOwner: false,
      guest: false,
      isBot: true,
      tz,
      role: 'app',
    });
    for (const p of PEOPLE) {
      const name = p.realName.split(' ')[0]?.toLowerCase() ?? p.id;
      this.users.set(p.id, { ...p, name, isBot: false, tz });
    }
    const everyone = PEOPLE.filter((p) => !p.guest).map((p) => p.id);
    for (const c of CHANNELS) {
      this.channels.set(c.id, {
        id: c.id,
        name: c.name,
        isIm: false,
        members: [...everyone, BOT_USER_ID, ...(c.guest ? ['U0GUEST'] : [])],
        topic: c.topic,
        ...(c.linkTo ? { linkTo: c.linkTo } : {}),
      });
    }
    for (const m of OPENING_MESSAGES) this.post({ channel: m.channel, user: m.user, text: m.text });
  }

  people(): PgUser[] {
    return [...this.users.values()].filter((u) => !u.isBot);
  }

  /** A Slack-like unique ts: seconds with six digits, strictly increasing. */
  nextTs(): string {
    const now = Date.now() * 1000;
    this.lastTs = Math.max(now, this.lastTs + 1);
    return (this.lastTs / 1_000_000).toFixed(6);
  }

  nextId(prefix: string): string {
    return `${prefix}${(++this.counter).toString(36).toUpperCase().padStart(6, '0')}`;
  }

  /** The DM between the app and `userId`, opened when first needed. */
  imWith(userId: string): PgChannel {
    const id = `D0${userId.slice(2)}`;
    let im = this.channels.get(id);
    if (!im) {
      im = { id, name: BOT_NAME, isIm: true, user: userId, members: [userId, BOT_USER_ID] };
      this.channels.set(id, im);
    }
    return im;
  }

  /** Channel by id, or a person's id (Slack posts to their DM with the app). */
  resolveChannel(idOrUser: string): PgChannel | undefined {
    if (this.channels.has(idOrUser)) return this.channels.get(idOrUser);
    const user = this.users.get(idOrUser);
    return user && !user.isBot ? this.imWith(user.id) : undefined;
  }

  post(message: Omit<PgMessage, 'ts'> & { ts?: string }): PgMessage {
    const full: PgMessage = { ...message, ts: message.ts ?? this.nextTs() };
    this.messages.push(full);
    this.changed({ kind: 'messages', channel: full.channel });
    return full;
  }

  find(channel: string, ts: string, ephemeralTo?: string): PgMessage | undefined {
    return this.messages.find(
      (m) =>
        m.channel === channel && m.ts === ts && (ephemeralTo === undefined || m.ephemeralTo === ephemeralTo),
    );
  }

  remove(message: PgMessage) {
    const index = this.messages.indexOf(message);
    if (index >= 0) this.messages.splice(index, 1);
    this.changed({ kind: 'messages', channel: message.channel });
  }

  /** What `viewer` sees in a channel: everything but other people's ephemerals, oldest first. */
  visible(channel: string, viewer: string): PgMessage[] {
    return this.messages.filter(
      (m) => m.channel === channel && (m.ephemeralTo === undefined || m.ephemeralTo === viewer),
    );
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
}
