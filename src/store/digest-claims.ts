/**
 * Exactly one digest per (channel link, local date), however many processes try. Each decision is
 * one atomic statement — insert-if-absent, then a conditional update — never read-then-write; the
 * row is read afterwards only to say why a claim was refused.
 *
 * A row's life: claimed (lease) → posted (final) | failed (retry after) → claimed again…
 * An expired lease means its owner died: the row may be claimed again. Every claim counts as an
 * attempt, except those recorded as failed for a passing reason (`transient`: overload, a post whose
 * outcome is unknown), which are counted apart and never use up the cap; once the other attempts
 * reach the cap the (link, date) is given up ('exhausted'). What bounds the transient ones is the
 * caller's: the digest stops asking once its catch-up window is over.
 */

import { TZDate } from '@date-fns/tz';
import { format, subDays } from 'date-fns';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { z } from 'zod';
import { compiledStatement } from './compiled.js';
import { type RepoContext, touched } from './context.js';
import { againOnDeadlock, parseInput } from './errors.js';
import type { Database } from './schema.js';

export const DEFAULT_MAX_DIGEST_ATTEMPTS = 3;
/** Stored error texts are cut to this length. */
const MAX_ERROR_LENGTH = 500;

export interface ClaimInput {
  workspaceId: string;
  slackChannelId: string;
  /** The channel's local date, YYYY-MM-DD. */
  localDate: string;
  /** Who claims: unique per process (and per run), e.g. `host:pid:random`. */
  owner: string;
  /** How long the claim protects the work before another process may take over. */
  leaseMs: number;
  /** Overrides the store's cap on attempts for this (link, date). */
  maxAttempts?: number;
}

export type ClaimResult =
  /** attempt: this claim's number (1, 2…); transientFailures: how many before it failed transiently. */
  | { claimed: true; attempt: number; transientFailures: number }
  /**
   * posted: done for that date; held: another owner's lease is live, or a failure waits for its
   * retry time; exhausted: every attempt was used.
   */
  | { claimed: false; reason: 'posted' | 'held' | 'exhausted' };

export type ClaimOutcome =
  | { status: 'posted'; messageTs: string; snapshot?: string }
  /**
   * error: a short description without secrets; retryAt: epoch ms before which no retry; transient:
   * a passing failure (overload, an unknown outcome), which does not count against the cap.
   */
  | { status: 'failed'; error: string; retryAt: number; transient?: boolean };

export interface CompleteInput {
  workspaceId: string;
  slackChannelId: string;
  localDate: string;
  owner: string;
  /** The attempt `claim` returned; when given, a stale completion of an earlier attempt is refused too. */
  attempt?: number;
  outcome: ClaimOutcome;
}

export interface LastPosted {
  localDate: string;
  postedAt: Date;
  /** The digest message's ts in its channel (absent only for rows written without one). */
  messageTs?: string;
  snapshot?: string;
}

/** The part of a claim that names what is claimed. */
export type ClaimKey = Pick<ClaimInput, 'workspaceId' | 'slackChannelId' | 'localDate'>;

/** Claims of one batch taken together: same owner, lease and cap. */
export interface ClaimBatchOptions {
  owner: string;
  leaseMs: number;
  maxAttempts?: number;
}

/** Keys one `claimMany` accepts at most (each key is a few bound parameters per statement). */
export const MAX_CLAIM_BATCH = 200;

export interface DigestClaimsRepo {
  claim(input: ClaimInput): Promise<ClaimResult>;
  /**
   * Claims many (link, date) keys at once, each exactly as {@link claim} would — a few statements
   * for the whole batch instead of a few per key. Results are in the order of `keys`; a key given
   * twice is claimed once (the second is held). At most {@link MAX_CLAIM_BATCH} keys.
   */
  claimMany(keys: readonly ClaimKey[], options: ClaimBatchOptions): Promise<ClaimResult[]>;
  /**
   * Records the outcome of the caller's claim. False when the claim is no longer the caller's
   * (its lease expired and another owner took it): nothing is changed then.
   */
  complete(input: CompleteInput): Promise<boolean>;
  /** The latest posted digest of the link, with its snapshot. */
  lastPosted(workspaceId: string, slackChannelId: string): Promise<LastPosted | undefined>;
  /**
   * Deletes claims for dates more than `days` days ago (UTC), except each link's latest posted
   * digest, which the next digest compares against. Returns how many rows went.
   */
  purgeOlderThan(days: number): Promise<number>;
}

const id = z.string().min(1);
const localDate = z.iso.date();
const claimKey = z.object({ workspaceId: id, slackChannelId: id, localDate });
const batchOptions = z.object({
  owner: id,
  leaseMs: z.number().int().positive(),
  maxAttempts: z.number().int().positive().optional(),
});
const claimInput = claimKey.extend(batchOptions.shape);
const claimBatch = z.object({
  keys: z.array(claimKey).max(MAX_CLAIM_BATCH),
  options: batchOptions,
});

/** A row the caller now holds, as `claim` answers it. */
const claimedRow = (row: { attempt: number; transient_failures: number }): ClaimResult => ({
  claimed: true,
  attempt: row.attempt,
  transientFailures: row.transient_failures,
});

/** The store's key of a claim row, for matching rows to keys. */
const rowKey = (k: { workspace_id: string; slack_channel_id: string; local_date: string }) =>
  `${k.workspace_id}\u0000${k.slack_channel_id}\u0000${k.local_date}`;
const inputKey = (k: ClaimKey) => `${k.workspaceId}\u0000${k.slackChannelId}\u0000${k.localDate}`;
const completeInput = z.object({
  workspaceId: id,
  slackChannelId: id,
  localDate,
  owner: id,
  attempt: z.number().int().positive().optional(),
  outcome: z.discriminatedUnion('status', [
    z.object({ status: z.literal('posted'), messageTs: id, snapshot: z.string().optional() }),
    z.object({
      status: z.literal('failed'),
      error: z.string(),
      retryAt: z.number().int(),
      transient: z.boolean().optional(),
    }),
  ]),
});

/** The statements of a claim, written once for any number of keys (one key: compiled once, below). */
const claimRows = (key: ClaimKey) => (eb: ExpressionBuilder<Database, 'digest_claims'>) =>
  eb.and({
    workspace_id: key.workspaceId,
    slack_channel_id: key.slackChannelId,
    local_date: key.localDate,
  });
const anyClaimOf = (keys: readonly ClaimKey[]) => (eb: ExpressionBuilder<Database, 'digest_claims'>) =>
  eb.or(keys.map((k) => claimRows(k)(eb)));
const CLAIMED_COLUMNS = [
  'workspace_id',
  'slack_channel_id',
  'local_date',
  'attempt',
  'transient_failures',
] as const;

/** Rows never claimed are inserted as this owner's first attempt. */
const insertClaims = (
  db: Kysely<Database>,
  keys: readonly ClaimKey[],
  owner: string,
  leaseUntil: number,
  at: number,
) =>
  db
    .insertInto('digest_claims')
    .values(
      keys.map((k) => ({
        workspace_id: k.workspaceId,
        slack_channel_id: k.slackChannelId,
        local_date: k.localDate,
        status: 'claimed' as const,
        owner,
        attempt: 1,
        lease_until: leaseUntil,
        created_at: at,
        updated_at: at,
      })),
    )
    .onConflict((oc) => oc.columns(['workspace_id', 'slack_channel_id', 'local_date']).doNothing())
    .returning(CLAIMED_COLUMNS);

/** Rows whose failure's retry time or whose owner's lease has passed are taken over, within the cap. */
const retakeClaims = (
  db: Kysely<Database>,
  keys: readonly ClaimKey[],
  owner: string,
  leaseUntil: number,
  at: number,
  maxAttempts: number,
) =>
  db
    .updateTable('digest_claims')
    .set((eb) => ({
      status: 'claimed',
      owner,
      attempt: eb('attempt', '+', 1),
      lease_until: leaseUntil,
      retry_after: null,
      updated_at: at,
    }))
    .where(anyClaimOf(keys))
    // The attempts that count: transient failures are not spent (see the header).
    .where((eb) => eb(eb('attempt', '-', eb.ref('transient_failures')), '<', maxAttempts))
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'failed'), eb('retry_after', '<=', at)]),
        eb.and([eb('status', '=', 'claimed'), eb('lease_until', '<=', at)]),
      ]),
    )
    .returning(CLAIMED_COLUMNS);

/** Only to say why a claim was refused: the decision was the writes'. */
const currentClaims = (db: Kysely<Database>, keys: readonly ClaimKey[]) =>
  db
    .selectFrom('digest_claims')
    .select([
      'workspace_id',
      'slack_channel_id',
      'local_date',
      'status',
      'attempt',
      'transient_failures',
      'lease_until',
    ])
    .where(anyClaimOf(keys));

/**
 * One key at a time is how a pass claims once it runs: each digest that ends frees one slot, and
 * the next is claimed alone. Those statements, and the record of each outcome and the read of the
 * last posted digest (once per digest), are compiled once (src/store/compiled.ts).
 */
const oneKey = (workspaceId: string, slackChannelId: string, localDate: string): ClaimKey[] => [
  { workspaceId, slackChannelId, localDate },
];
const insertOneClaim = compiledStatement(
  6,
  (
    db,
    workspaceId: string,
    slackChannelId: string,
    localDate: string,
    owner: string,
    leaseUntil: number,
    at: number,
  ) => insertClaims(db, oneKey(workspaceId, slackChannelId, localDate), owner, leaseUntil, at),
);
const retakeOneClaim = compiledStatement(
  7,
  (
    db,
    workspaceId: string,
    slackChannelId: string,
    localDate: string,
    owner: string,
    leaseUntil: number,
    at: number,
    maxAttempts: number,
  ) => retakeClaims(db, oneKey(workspaceId, slackChannelId, localDate), owner, leaseUntil, at, maxAttempts),
);
const currentOneClaim = compiledStatement(
  3,
  (db, workspaceId: string, slackChannelId: string, localDate: string) =>
    currentClaims(db, oneKey(workspaceId, slackChannelId, localDate)),
);

/**
 * Fencing of an outcome: only a claim this owner (and attempt, when given: null matches any) still
 * holds may be completed; once its lease ran out it still may, unless another owner has taken it
 * over since.
 */
const heldBy =
  (key: ClaimKey, owner: string, attempt: number | null) =>
  (eb: ExpressionBuilder<Database, 'digest_claims'>) =>
    eb.and([
      claimRows(key)(eb),
      eb('status', '=', 'claimed'),
      eb('owner', '=', owner),
      eb('attempt', '=', eb.fn.coalesce(eb.val(attempt), eb.ref('attempt'))),
    ]);
const recordPosted = compiledStatement(
  8,
  (
    db,
    workspaceId: string,
    slackChannelId: string,
    localDate: string,
    owner: string,
    attempt: number | null,
    messageTs: string,
    snapshot: string | null,
    at: number,
  ) =>
    db
      .updateTable('digest_claims')
      .set({ status: 'posted', message_ts: messageTs, snapshot, posted_at: at, error: null, updated_at: at })
      .where(heldBy({ workspaceId, slackChannelId, localDate }, owner, attempt)),
);
const recordFailed = compiledStatement(
  9,
  (
    db,
    workspaceId: string,
    slackChannelId: string,
    localDate: string,
    owner: string,
    attempt: number | null,
    error: string,
    retryAfter: number,
    transientFailure: number,
    at: number,
  ) =>
    db
      .updateTable('digest_claims')
      .set((eb) => ({
        status: 'failed',
        error,
        retry_after: retryAfter,
        // In the same statement as the fencing: counted once, by the claim's holder (0 or 1).
        transient_failures: eb('transient_failures', '+', transientFailure),
        updated_at: at,
      }))
      .where(heldBy({ workspaceId, slackChannelId, localDate }, owner, attempt)),
);
const lastPostedOf = compiledStatement(2, (db, workspaceId: string, slackChannelId: string) =>
  db
    .selectFrom('digest_claims')
    .select(['local_date', 'posted_at', 'message_ts', 'snapshot'])
    .where('workspace_id', '=', workspaceId)
    .where('slack_channel_id', '=', slackChannelId)
    .where('status', '=', 'posted')
    .orderBy('local_date', 'desc')
    .limit(1),
);

export function createDigestClaimsRepo(
  { db, now }: RepoContext,
  defaultMaxAttempts = DEFAULT_MAX_DIGEST_ATTEMPTS,
): DigestClaimsRepo {
  async function claimMany(keys: readonly ClaimKey[], options: ClaimBatchOptions): Promise<ClaimResult[]> {
    const v = parseInput(claimBatch, { keys, options }, 'digest claims');
    const { owner } = v.options;
    const maxAttempts = v.options.maxAttempts ?? defaultMaxAttempts;
    const results = new Map<string, ClaimResult>();
    // The first of a key given twice decides; the repeat is held (it is the same claim). Rows are
    // written in one order whatever the caller's, so two replicas' overlapping batches queue on a
    // key instead of each holding one the other waits for.
    const unique = [...new Map(v.keys.map((k) => [inputKey(k), k])).values()].sort((a, b) =>
      inputKey(a) < inputKey(b) ? -1 : 1,
    );
    let open = unique;
    // A row can vanish between the writes and the read (the link was deleted): decide again.
    for (let round = 1; open.length > 0; round++) {
      const at = now();
      const leaseUntil = at + v.options.leaseMs;
      const [one] = open.length === 1 ? open : [];
      const inserted = await againOnDeadlock(async () =>
        one
          ? (
              await insertOneClaim.run(
                db,
                one.workspaceId,
                one.slackChannelId,
                one.localDate,
                owner,
                leaseUntil,
                at,
              )
            ).rows
          : insertClaims(db, open, owner, leaseUntil, at).execute(),
      );
      for (const row of inserted) results.set(rowKey(row), claimedRow(row));
      open = open.filter((k) => !results.has(inputKey(k)));
      if (open.length === 0) break;

      const retaken = await againOnDeadlock(async () =>
        one
          ? (
              await retakeOneClaim.run(
                db,
                one.workspaceId,
                one.slackChannelId,
                one.localDate,
                owner,
                leaseUntil,
                at,
                maxAttempts,
              )
            ).rows
          : retakeClaims(db, open, owner, leaseUntil, at, maxAttempts).execute(),
      );
      for (const row of retaken) results.set(rowKey(row), claimedRow(row));
      open = open.filter((k) => !results.has(inputKey(k)));
      if (open.length === 0) break;

      const current = one
        ? (await currentOneClaim.run(db, one.workspaceId, one.slackChannelId, one.localDate)).rows
        : await currentClaims(db, open).execute();
      for (const row of current) {
        const live = row.status === 'claimed' && row.lease_until > at;
        results.set(
          rowKey(row),
          row.status === 'posted'
            ? { claimed: false, reason: 'posted' }
            : !live && row.attempt - row.transient_failures >= maxAttempts
              ? { claimed: false, reason: 'exhausted' }
              : { claimed: false, reason: 'held' },
        );
      }
      open = open.filter((k) => !results.has(inputKey(k)));
      if (round >= 3) break;
    }
    const seen = new Set<string>();
    return v.keys.map((k) => {
      const key = inputKey(k);
      const first = !seen.has(key);
      seen.add(key);
      return (first ? results.get(key) : undefined) ?? { claimed: false, reason: 'held' };
    });
  }

  return {
    async claim(input) {
      const { owner, leaseMs, maxAttempts, ...key } = parseInput(claimInput, input, 'digest claim');
      const [result] = await claimMany([key], { owner, leaseMs, maxAttempts });
      return result ?? { claimed: false, reason: 'held' };
    },

    claimMany,

    async complete(input) {
      const v = parseInput(completeInput, input, 'digest completion');
      const at = now();
      const { outcome } = v;
      const attempt = v.attempt ?? null;
      const result =
        outcome.status === 'posted'
          ? await recordPosted.run(
              db,
              v.workspaceId,
              v.slackChannelId,
              v.localDate,
              v.owner,
              attempt,
              outcome.messageTs,
              outcome.snapshot ?? null,
              at,
            )
          : await recordFailed.run(
              db,
              v.workspaceId,
              v.slackChannelId,
              v.localDate,
              v.owner,
              attempt,
              outcome.error.slice(0, MAX_ERROR_LENGTH),
              outcome.retryAt,
              outcome.transient ? 1 : 0,
              at,
            );
      return touched(result);
    },

    async lastPosted(workspaceId, slackChannelId) {
      const [last] = (await lastPostedOf.run(db, workspaceId, slackChannelId)).rows;
      if (!last) return undefined;
      return {
        localDate: last.local_date,
        postedAt: new Date(last.posted_at ?? 0),
        ...(last.message_ts === null ? {} : { messageTs: last.message_ts }),
        ...(last.snapshot === null ? {} : { snapshot: last.snapshot }),
      };
    },

    async purgeOlderThan(days) {
      parseInput(z.number().int().nonnegative(), days, 'purge age in days');
      const cutoff = format(subDays(new TZDate(now(), 'UTC'), days), 'yyyy-MM-dd');
      const result = await db
        .deleteFrom('digest_claims as d')
        .where('d.local_date', '<', cutoff)
        // Keep a row only when it is its link's latest posted digest.
        .where((eb) =>
          eb.or([
            eb('d.status', '!=', 'posted'),
            eb.exists(
              eb
                .selectFrom('digest_claims as newer')
                .select('newer.local_date')
                .whereRef('newer.workspace_id', '=', 'd.workspace_id')
                .whereRef('newer.slack_channel_id', '=', 'd.slack_channel_id')
                .where('newer.status', '=', 'posted')
                .whereRef('newer.local_date', '>', 'd.local_date'),
            ),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
