/** Slack channel → planning team + channel, with the channel's daily digest settings. */
import type { Selectable, Transaction } from 'kysely';
import { z } from 'zod';
import { fromFlag, type RepoContext, toFlag, touched } from './context.js';
import { parseInput } from './errors.js';
import type { ChannelLinksTable, Database } from './schema.js';

export interface ChannelLink {
  workspaceId: string;
  slackChannelId: string;
  /** Planning team and channel the Slack channel is bound to. */
  teamId: string;
  channelId: string;
  /** Local time of the digest, HH:MM. */
  digestTime: string;
  /** IANA time zone the digest time is in. */
  timeZone: string;
  weekdaysOnly: boolean;
  digestEnabled: boolean;
  /**
   * When the current digest schedule took effect: the link made, the digest turned on, or its time,
   * zone or weekends changed. A day's digest whose time came before it was never expected, so it is
   * not caught up. Absent for links made before it was recorded (no bound).
   */
  digestFrom?: Date;
  /** The watch follows the channel's features and keeps its cards true (default on). */
  watchEnabled: boolean;
  /** Replies in the threads of the channel's task cards become discoveries (default off). */
  threadDiscoveries: boolean;
  /**
   * The last digest posted in the channel on demand (`/plan digest now`): scheduled ones are the
   * digest claims' (DigestClaimsRepo.lastPosted). Absent: none recorded.
   */
  lastDigestNow?: PostedDigest;
  /** Slack user who made the link. */
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A digest message in the link's channel: its ts and when it was posted. */
export interface PostedDigest {
  messageTs: string;
  postedAt: Date;
}

export const DIGEST_DEFAULTS = {
  digestTime: '09:00',
  timeZone: 'UTC',
  weekdaysOnly: true,
  digestEnabled: true,
};

/** The link's settings besides the digest, for a new link. */
export const LINK_DEFAULTS = { watchEnabled: true, threadDiscoveries: false };

type DigestSettings = Pick<ChannelLink, 'digestTime' | 'timeZone' | 'weekdaysOnly' | 'digestEnabled'>;
type LinkSettings = DigestSettings & Pick<ChannelLink, 'watchEnabled' | 'threadDiscoveries'>;

/**
 * Link input: settings left out take {@link DIGEST_DEFAULTS} and {@link LINK_DEFAULTS} for a new
 * link, and stay as they are for an existing one.
 */
export type ChannelLinkInput = Pick<
  ChannelLink,
  'workspaceId' | 'slackChannelId' | 'teamId' | 'channelId' | 'createdBy'
> &
  Partial<LinkSettings>;

export type ChannelLinkPatch = Partial<Pick<ChannelLink, 'teamId' | 'channelId'> & LinkSettings>;

export interface ChannelLinksRepo {
  get(workspaceId: string, slackChannelId: string): Promise<ChannelLink | undefined>;
  /** Creates or rebinds the link. @throws {StoreValidationError} bad digest time or time zone. */
  upsert(input: ChannelLinkInput): Promise<ChannelLink>;
  /** Changes some settings; undefined when there is no such link. @throws {StoreValidationError} */
  update(
    workspaceId: string,
    slackChannelId: string,
    patch: ChannelLinkPatch,
  ): Promise<ChannelLink | undefined>;
  /**
   * Records a digest just posted on demand in the link's channel, unless a later one is recorded
   * already. False when the channel is not linked (any more).
   */
  recordDigestNow(workspaceId: string, slackChannelId: string, messageTs: string): Promise<boolean>;
  /** Removes the link and its digest history. */
  delete(workspaceId: string, slackChannelId: string): Promise<boolean>;
  listByWorkspace(workspaceId: string): Promise<ChannelLink[]>;
  /**
   * Every link with the digest on, across workspaces, read a page at a time (keyset order), so
   * thousands of links never sit in memory at once.
   */
  listDigestEnabled(options?: { pageSize?: number }): AsyncIterable<ChannelLink>;
  /** Every link with the watch on, across workspaces, read as {@link listDigestEnabled} reads. */
  listWatched(options?: { pageSize?: number }): AsyncIterable<ChannelLink>;
}

/**
 * Zones found valid: building an Intl.DateTimeFormat to check one costs more than the rest of an
 * upsert. Only valid names are kept, and at most a thousand (Intl also accepts other spellings).
 */
const knownZones = new Set<string>();
const MAX_KNOWN_ZONES = 1_000;

function isTimeZone(value: string): boolean {
  if (knownZones.has(value)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    return false;
  }
  if (knownZones.size < MAX_KNOWN_ZONES) knownZones.add(value);
  return true;
}

const id = z.string().min(1);
const settings = {
  digestTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM, from 00:00 to 23:59'),
  timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris'),
  weekdaysOnly: z.boolean(),
  digestEnabled: z.boolean(),
  watchEnabled: z.boolean(),
  threadDiscoveries: z.boolean(),
};
const linkInput = z.object({
  workspaceId: id,
  slackChannelId: id,
  teamId: id,
  channelId: id,
  createdBy: id,
  ...z.object(settings).partial().shape,
});
const linkPatch = z
  .object({ teamId: id, channelId: id, ...settings })
  .partial()
  .strict();

const DEFAULT_PAGE_SIZE = 500;

/** Column values for the settings present in a validated input. */
function settingsColumns(v: z.output<typeof linkPatch>): Partial<Selectable<ChannelLinksTable>> {
  return {
    ...(v.teamId === undefined ? {} : { team_id: v.teamId }),
    ...(v.channelId === undefined ? {} : { channel_id: v.channelId }),
    ...(v.digestTime === undefined ? {} : { digest_time: v.digestTime }),
    ...(v.timeZone === undefined ? {} : { time_zone: v.timeZone }),
    ...(v.weekdaysOnly === undefined ? {} : { weekdays_only: toFlag(v.weekdaysOnly) }),
    ...(v.digestEnabled === undefined ? {} : { digest_enabled: toFlag(v.digestEnabled) }),
    ...(v.watchEnabled === undefined ? {} : { watch_enabled: toFlag(v.watchEnabled) }),
    ...(v.threadDiscoveries === undefined ? {} : { thread_discoveries: toFlag(v.threadDiscoveries) }),
  };
}

const DEFAULT_COLUMNS = {
  digest_time: DIGEST_DEFAULTS.digestTime,
  time_zone: DIGEST_DEFAULTS.timeZone,
  weekdays_only: toFlag(DIGEST_DEFAULTS.weekdaysOnly),
  digest_enabled: toFlag(DIGEST_DEFAULTS.digestEnabled),
  watch_enabled: toFlag(LINK_DEFAULTS.watchEnabled),
  thread_discoveries: toFlag(LINK_DEFAULTS.threadDiscoveries),
};

export function toChannelLink(row: Selectable<ChannelLinksTable>): ChannelLink {
  return {
    workspaceId: row.workspace_id,
    slackChannelId: row.slack_channel_id,
    teamId: row.team_id,
    channelId: row.channel_id,
    digestTime: row.digest_time,
    timeZone: row.time_zone,
    weekdaysOnly: fromFlag(row.weekdays_only),
    digestEnabled: fromFlag(row.digest_enabled),
    ...(row.digest_from === null || row.digest_from === undefined
      ? {}
      : { digestFrom: new Date(row.digest_from) }),
    watchEnabled: fromFlag(row.watch_enabled),
    threadDiscoveries: fromFlag(row.thread_discoveries),
    ...(row.now_digest_ts && row.now_digest_at != null
      ? { lastDigestNow: { messageTs: row.now_digest_ts, postedAt: new Date(Number(row.now_digest_at)) } }
      : {}),
    createdBy: row.created_by,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * What the watch saw of a link goes stale when the link is bound to another planning team or channel
 * (compared with the new one every feature would look deleted), or when the watch is turned on again
 * after being off (everything that changed meanwhile would be announced at once, hours late). It is
 * forgotten then (each delete one conditional statement), so the watch's next look is a silent
 * baseline.
 */
async function forgetStaleWatch(
  trx: Transaction<Database>,
  link: {
    workspaceId: string;
    slackChannelId: string;
    teamId?: string;
    channelId?: string;
    watchEnabled?: boolean;
  },
) {
  if (link.teamId === undefined && link.channelId === undefined && link.watchEnabled !== true) return;
  // The lease row first, as `delete` and the watch's completion take them: no lock taken in opposite orders.
  for (const table of ['watch_links', 'watch_features'] as const) {
    await trx
      .deleteFrom(table)
      .where((eb) => eb.and({ workspace_id: link.workspaceId, slack_channel_id: link.slackChannelId }))
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('channel_links as l')
            .select('l.team_id')
            .where('l.workspace_id', '=', link.workspaceId)
            .where('l.slack_channel_id', '=', link.slackChannelId)
            .where((inner) =>
              inner.or([
                ...(link.teamId === undefined ? [] : [inner('l.team_id', '!=', link.teamId)]),
                ...(link.channelId === undefined ? [] : [inner('l.channel_id', '!=', link.channelId)]),
                ...(link.watchEnabled === true ? [inner('l.watch_enabled', '=', toFlag(false))] : []),
              ]),
            ),
        ),
      )
      .execute();
  }
}

export function createChannelLinksRepo({ db, now }: RepoContext): ChannelLinksRepo {
  const repo: ChannelLinksRepo = {
    async get(workspaceId, slackChannelId) {
      const row = await db
        .selectFrom('channel_links')
        .selectAll()
        .where((eb) => eb.and({ workspace_id: workspaceId, slack_channel_id: slackChannelId }))
        .executeTakeFirst();
      return row && toChannelLink(row);
    },

    async upsert(input) {
      const v = parseInput(linkInput, input, 'channel link');
      const at = now();
      // Only what the caller gave changes on a rebind; the rest of the settings stay. Linking (or
      // linking again) starts the schedule afresh: its first digest is at its next time.
      const given = { ...settingsColumns(v), created_by: v.createdBy, digest_from: at, updated_at: at };
      await db.transaction().execute(async (trx) => {
        await forgetStaleWatch(trx, v);
        await trx
          .insertInto('channel_links')
          .values({
            ...DEFAULT_COLUMNS,
            ...given,
            workspace_id: v.workspaceId,
            slack_channel_id: v.slackChannelId,
            team_id: v.teamId,
            channel_id: v.channelId,
            created_at: at,
          })
          .onConflict((oc) => oc.columns(['workspace_id', 'slack_channel_id']).doUpdateSet(given))
          .execute();
      });
      return (await repo.get(v.workspaceId, v.slackChannelId))!;
    },

    async update(workspaceId, slackChannelId, patch) {
      const v = parseInput(linkPatch, patch, 'channel link settings');
      const columns = settingsColumns(v);
      const at = now();
      await db.transaction().execute(async (trx) => {
        await forgetStaleWatch(trx, { workspaceId, slackChannelId, ...v });
        await trx
          .updateTable('channel_links')
          .set((eb) => {
            // The schedule restarts only when it really changes: repeating a setting keeps a failed
            // digest's retry of today, and a digest turned on again waits for its next time.
            const changes = [
              ...(columns.digest_time === undefined ? [] : [eb('digest_time', '!=', columns.digest_time)]),
              ...(columns.time_zone === undefined ? [] : [eb('time_zone', '!=', columns.time_zone)]),
              ...(columns.weekdays_only === undefined
                ? []
                : [eb('weekdays_only', '!=', columns.weekdays_only)]),
              ...(v.digestEnabled === true ? [eb('digest_enabled', '=', toFlag(false))] : []),
            ];
            return {
              ...columns,
              ...(changes.length === 0
                ? {}
                : {
                    digest_from: eb.case().when(eb.or(changes)).then(at).else(eb.ref('digest_from')).end(),
                  }),
              updated_at: at,
            };
          })
          .where((eb) => eb.and({ workspace_id: workspaceId, slack_channel_id: slackChannelId }))
          .execute();
      });
      return repo.get(workspaceId, slackChannelId);
    },

    async recordDigestNow(workspaceId, slackChannelId, messageTs) {
      parseInput(id, messageTs, 'digest message ts');
      const at = now();
      const result = await db
        .updateTable('channel_links')
        .set({ now_digest_ts: messageTs, now_digest_at: at })
        .where((eb) => eb.and({ workspace_id: workspaceId, slack_channel_id: slackChannelId }))
        // Two replicas recording at once: the later post stays.
        .where((eb) => eb.or([eb('now_digest_at', 'is', null), eb('now_digest_at', '<=', at)]))
        .executeTakeFirst();
      return touched(result);
    },

    async delete(workspaceId, slackChannelId) {
      return db.transaction().execute(async (trx) => {
        // The link's digest history and what the watch saw of it go with it.
        for (const table of ['digest_claims', 'watch_links', 'watch_features'] as const) {
          await trx
            .deleteFrom(table)
            .where((eb) => eb.and({ workspace_id: workspaceId, slack_channel_id: slackChannelId }))
            .execute();
        }
        const result = await trx
          .deleteFrom('channel_links')
          .where((eb) => eb.and({ workspace_id: workspaceId, slack_channel_id: slackChannelId }))
          .executeTakeFirst();
        return touched(result);
      });
    },

    async listByWorkspace(workspaceId) {
      const rows = await db
        .selectFrom('channel_links')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('slack_channel_id')
        .execute();
      return rows.map(toChannelLink);
    },

    listDigestEnabled: (options) => listFlagged('digest_enabled', options),
    listWatched: (options) => listFlagged('watch_enabled', options),
  };

  /** Links with a flag on, across workspaces, a keyset page at a time. */
  async function* listFlagged(
    flag: 'digest_enabled' | 'watch_enabled',
    { pageSize = DEFAULT_PAGE_SIZE }: { pageSize?: number } = {},
  ): AsyncIterable<ChannelLink> {
    let after: { workspaceId: string; slackChannelId: string } | undefined;
    while (true) {
      let query = db
        .selectFrom('channel_links')
        .selectAll()
        .where(flag, '=', toFlag(true))
        .orderBy('workspace_id')
        .orderBy('slack_channel_id')
        .limit(pageSize);
      if (after) {
        const last = after;
        query = query.where((eb) =>
          eb.or([
            eb('workspace_id', '>', last.workspaceId),
            eb.and([
              eb('workspace_id', '=', last.workspaceId),
              eb('slack_channel_id', '>', last.slackChannelId),
            ]),
          ]),
        );
      }
      const rows = await query.execute();
      for (const row of rows) yield toChannelLink(row);
      const last = rows.at(-1);
      if (!last || rows.length < pageSize) return;
      after = { workspaceId: last.workspace_id, slackChannelId: last.slack_channel_id };
    }
  }
  return repo;
}
