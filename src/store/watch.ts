/**
 * The watch of linked channels (src/watch/): which replica holds each link's pass and when the link
 * is next due (`watch_links`), and what the watch last saw of each feature (`watch_features`).
 *
 * Claims work as digest claims do: each decision is one atomic statement — insert-if-absent (a link
 * never looked at is due from its `firstAt`, else now), then a conditional update that takes the links both due and free of
 * a live lease — never read-then-write; rows are read afterwards only to learn which were won and
 * when the others come due. A lease whose owner died runs out and the link is claimed again.
 *
 * `complete` writes what was seen and releases the lease in one transaction, only while the caller
 * still owns the lease: a replica that lost its link (lease run out, taken over) writes nothing.
 *
 * What was seen of a feature is the watch's own record (src/watch/changes.ts: `FeatureSeen`), kept
 * as JSON: the store checks only its id and `updatedAt`, and hands it back parsed but unchecked —
 * the watch checks it (the store imports nothing from the code that uses it).
 */
import type { ExpressionBuilder } from 'kysely';
import { z } from 'zod';
import { compiledStatement } from './compiled.js';
import { type RepoContext, touched } from './context.js';
import { againOnDeadlock, parseInput } from './errors.js';
import type { Database } from './schema.js';

/** One link of the watch. */
export interface WatchKey {
  workspaceId: string;
  slackChannelId: string;
}

/** A link to claim: `firstAt` is when a link never looked at is first due (epoch ms; default now). */
export interface WatchClaimKey extends WatchKey {
  firstAt?: number;
}

export type WatchClaim =
  /** `seenAt`: when the link's last completed pass began reading (absent: never looked at, a baseline). */
  | { claimed: true; seenAt?: number }
  /** `dueAt`: from when it may be claimed again (not yet due, or another owner's live lease). */
  | { claimed: false; dueAt?: number };

export interface WatchClaimOptions {
  /** Unique per process (and per run), e.g. `host:pid:random`. */
  owner: string;
  /** How long the claim protects the link's pass before another replica may take it over. */
  leaseMs: number;
}

/** What the watch records of a feature: its own JSON record, of which the store reads two fields. */
export interface SeenRecord {
  id: string;
  /** The service's `updatedAt` when it was seen. */
  updatedAt?: string;
  /** The rest of the watch's record, kept as it is. */
  [field: string]: unknown;
}

/** A feature's stored record as written (JSON parsed, unchecked: the watch checks it), and when it was seen. */
export interface StoredSeen {
  /** Undefined when the stored text is not JSON at all. */
  seen: unknown;
  /** Epoch ms: when the pass that saw it began reading. */
  seenAt: number;
}

export interface WatchCompletion {
  /** When this pass began reading the link's features (epoch ms), not the time of writing. */
  seenAt: number;
  /** From when the link is due again (epoch ms). */
  nextAt: number;
  /** Features to record as seen (inserted or replaced). */
  save: readonly SeenRecord[];
  /** Feature ids to forget (gone from the channel, or no longer watched). */
  drop: readonly string[];
}

export interface WatchFailure {
  /** From when the link is due again (epoch ms). */
  nextAt: number;
  /** Why, short and without secrets (cut to 500 characters). */
  error: string;
}

/** Links one `claim` takes at most (each is a few bound parameters per statement). */
export const MAX_WATCH_CLAIM_BATCH = 200;
/** Feature rows written per statement. */
const SAVE_CHUNK = 200;
const MAX_ERROR_LENGTH = 500;

export interface WatchRepo {
  /**
   * Claims the links that are due and not held, each decision atomic. Results are in the order of
   * `keys`; a key given twice is claimed once. At most {@link MAX_WATCH_CLAIM_BATCH} keys.
   */
  claim(keys: readonly WatchClaimKey[], options: WatchClaimOptions): Promise<WatchClaim[]>;
  /**
   * Records what the pass saw and releases the lease, in one transaction, only if `owner` still
   * holds the link: false (nothing written) when it lost it.
   */
  complete(key: WatchKey, owner: string, completion: WatchCompletion): Promise<boolean>;
  /** Releases the lease with an error and the next due time; false when `owner` no longer holds it. */
  fail(key: WatchKey, owner: string, failure: WatchFailure): Promise<boolean>;
  /** What the watch saw of the link's features, by feature id, as it wrote it. */
  features(workspaceId: string, slackChannelId: string): Promise<Map<string, StoredSeen>>;
}

const id = z.string().min(1);
const watchKey = z.object({ workspaceId: id, slackChannelId: id });
const epoch = z.number().int().nonnegative();
const claimInput = z.object({
  keys: z.array(watchKey.extend({ firstAt: epoch.optional() })).max(MAX_WATCH_CLAIM_BATCH),
  options: z.object({ owner: id, leaseMs: z.number().int().positive() }),
});
const completionInput = z.object({
  key: watchKey,
  owner: id,
  seenAt: epoch,
  nextAt: epoch,
  save: z.array(z.looseObject({ id, updatedAt: z.string().optional() })),
  drop: z.array(id),
});
const failureInput = z.object({ key: watchKey, owner: id, nextAt: epoch, error: z.string() });

const keyOf = (k: WatchKey) => `${k.workspaceId}\u0000${k.slackChannelId}`;
const rowKey = (r: { workspace_id: string; slack_channel_id: string }) =>
  `${r.workspace_id}\u0000${r.slack_channel_id}`;

/**
 * A link's lease given back, with when it is next due — after a pass (what it began reading at) or
 * after a failure (why) — only while `owner` still holds it (fenced). Once per link and pass:
 * compiled once (src/store/compiled.ts).
 */
const releaseSeen = compiledStatement(
  6,
  (
    db,
    workspaceId: string,
    slackChannelId: string,
    owner: string,
    nextAt: number,
    seenAt: number,
    at: number,
  ) =>
    db
      .updateTable('watch_links')
      .set({ owner: null, lease_until: null, next_at: nextAt, seen_at: seenAt, error: null, updated_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('slack_channel_id', '=', slackChannelId)
      .where('owner', '=', owner),
);
const releaseFailed = compiledStatement(
  6,
  (
    db,
    workspaceId: string,
    slackChannelId: string,
    owner: string,
    nextAt: number,
    error: string,
    at: number,
  ) =>
    db
      .updateTable('watch_links')
      .set({ owner: null, lease_until: null, next_at: nextAt, error, updated_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('slack_channel_id', '=', slackChannelId)
      .where('owner', '=', owner),
);

export function createWatchRepo({ db, now }: RepoContext): WatchRepo {
  const byKey = (key: WatchKey) => (eb: ExpressionBuilder<Database, 'watch_links'>) =>
    eb.and({ workspace_id: key.workspaceId, slack_channel_id: key.slackChannelId });

  return {
    async claim(keys, options) {
      const v = parseInput(claimInput, { keys, options }, 'watch claims');
      // Written in one order whatever the caller's: two replicas' overlapping batches queue on a
      // row instead of each holding one the other waits for.
      const unique = [...new Map(v.keys.map((k) => [keyOf(k), k])).values()].sort((a, b) =>
        keyOf(a) < keyOf(b) ? -1 : 1,
      );
      const results = new Map<string, WatchClaim>();
      if (unique.length > 0) {
        const at = now();
        await againOnDeadlock(() =>
          db
            .insertInto('watch_links')
            .values(
              unique.map((k) => ({
                workspace_id: k.workspaceId,
                slack_channel_id: k.slackChannelId,
                next_at: k.firstAt ?? at,
                updated_at: at,
              })),
            )
            .onConflict((oc) => oc.columns(['workspace_id', 'slack_channel_id']).doNothing())
            .execute(),
        );
        const anyOf = (eb: ExpressionBuilder<Database, 'watch_links'>) =>
          eb.or(unique.map((k) => byKey(k)(eb)));
        const won = await againOnDeadlock(() =>
          db
            .updateTable('watch_links')
            .set({ owner: v.options.owner, lease_until: at + v.options.leaseMs, updated_at: at })
            .where(anyOf)
            .where('next_at', '<=', at)
            .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
            .returning(['workspace_id', 'slack_channel_id', 'seen_at'])
            .execute(),
        );
        for (const row of won)
          results.set(rowKey(row), {
            claimed: true,
            ...(row.seen_at === null ? {} : { seenAt: Number(row.seen_at) }),
          });
        const lost = unique.filter((k) => !results.has(keyOf(k)));
        if (lost.length > 0) {
          // Only to tell the caller when to ask again: the decision was the update's.
          const rows = await db
            .selectFrom('watch_links')
            .select(['workspace_id', 'slack_channel_id', 'next_at', 'lease_until'])
            .where((eb) => eb.or(lost.map((k) => byKey(k)(eb))))
            .execute();
          for (const row of rows) {
            const leaseUntil = row.lease_until === null ? 0 : Number(row.lease_until);
            results.set(rowKey(row), {
              claimed: false,
              // A lease is live up to and including its last millisecond (the update's `<`).
              dueAt: Math.max(Number(row.next_at), leaseUntil >= at ? leaseUntil + 1 : 0),
            });
          }
        }
      }
      const seen = new Set<string>();
      return v.keys.map((k) => {
        const key = keyOf(k);
        const first = !seen.has(key);
        seen.add(key);
        return (first ? results.get(key) : undefined) ?? { claimed: false };
      });
    },

    async complete(key, owner, completion) {
      const v = parseInput(
        completionInput,
        { key, owner, ...completion, save: [...completion.save], drop: [...completion.drop] },
        'watch completion',
      );
      return againOnDeadlock(() =>
        db.transaction().execute(async (trx) => {
          const at = now();
          // First, and fenced: the row lock (PostgreSQL) or the write transaction (SQLite) holds off
          // a replica taking the link over until this commits; without the lease nothing is written.
          const released = await releaseSeen.runIn(
            trx,
            db,
            v.key.workspaceId,
            v.key.slackChannelId,
            v.owner,
            v.nextAt,
            v.seenAt,
            at,
          );
          if (!touched(released)) return false;
          const where = { workspace_id: v.key.workspaceId, slack_channel_id: v.key.slackChannelId };
          for (let i = 0; i < v.save.length; i += SAVE_CHUNK) {
            await trx
              .insertInto('watch_features')
              .values(
                v.save.slice(i, i + SAVE_CHUNK).map((seen) => ({
                  ...where,
                  feature_id: seen.id,
                  updated_at: seen.updatedAt ?? null,
                  seen: JSON.stringify(seen),
                  seen_at: v.seenAt,
                })),
              )
              .onConflict((oc) =>
                oc.columns(['workspace_id', 'slack_channel_id', 'feature_id']).doUpdateSet((eb) => ({
                  updated_at: eb.ref('excluded.updated_at'),
                  seen: eb.ref('excluded.seen'),
                  seen_at: eb.ref('excluded.seen_at'),
                })),
              )
              .execute();
          }
          for (let i = 0; i < v.drop.length; i += SAVE_CHUNK) {
            await trx
              .deleteFrom('watch_features')
              .where((eb) => eb.and(where))
              .where('feature_id', 'in', v.drop.slice(i, i + SAVE_CHUNK))
              .execute();
          }
          return true;
        }),
      );
    },

    async fail(key, owner, failure) {
      const v = parseInput(failureInput, { key, owner, ...failure }, 'watch failure');
      const result = await releaseFailed.run(
        db,
        v.key.workspaceId,
        v.key.slackChannelId,
        v.owner,
        v.nextAt,
        v.error.slice(0, MAX_ERROR_LENGTH),
        now(),
      );
      return touched(result);
    },

    async features(workspaceId, slackChannelId) {
      const v = parseInput(watchKey, { workspaceId, slackChannelId }, 'watch link');
      const rows = await db
        .selectFrom('watch_features')
        .select(['feature_id', 'seen', 'seen_at'])
        .where((eb) => eb.and({ workspace_id: v.workspaceId, slack_channel_id: v.slackChannelId }))
        .execute();
      const features = new Map<string, StoredSeen>();
      for (const row of rows)
        features.set(row.feature_id, { seen: parseJson(row.seen), seenAt: Number(row.seen_at) });
      return features;
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
