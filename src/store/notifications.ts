/**
 * Each person's notification preferences (the DM kinds they turned off, quiet hours in their time
 * zone) and the outbox of DMs held back by quiet hours. Rows are per workspace; a person without a
 * row gets every DM at any hour.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { RepoContext } from './context.js';
import { parseInput } from './errors.js';

export interface NotificationPrefs {
  /** Kinds the person turned off (values of `NOTIFICATION_KINDS` in src/slack/kit/notify.ts). */
  muted: string[];
  /** Local `HH:MM` quiet hours, start inclusive, end exclusive; may wrap midnight. */
  quiet?: { start: string; end: string };
  /** IANA zone of the quiet hours. */
  timeZone: string;
}

export interface OutboxItem {
  id: string;
  workspaceId: string;
  slackUserId: string;
  kind: string;
  /** JSON message body. */
  body: string;
  deliverAt: number;
  attempts: number;
}

export interface NotificationsRepo {
  /** The person's preferences, or undefined when they never set any. */
  prefs(workspaceId: string, slackUserId: string): Promise<NotificationPrefs | undefined>;
  /** Replaces the person's preferences. */
  savePrefs(workspaceId: string, slackUserId: string, prefs: NotificationPrefs): Promise<void>;
  /** Holds a DM until `deliverAt` (epoch ms). */
  enqueue(item: Omit<OutboxItem, 'id' | 'attempts'>): Promise<string>;
  /** DMs due by `at` (epoch ms), oldest first. */
  due(at: number, limit?: number): Promise<OutboxItem[]>;
  /** Removes a delivered (or abandoned) DM; false when another replica removed it first. */
  remove(id: string): Promise<boolean>;
  /** A failed delivery: tried again at `retryAt`. */
  retryLater(id: string, retryAt: number): Promise<void>;
  /** How many DMs are held, in every workspace (a gauge of the process's metrics). */
  heldCount(): Promise<number>;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const id = z.string().min(1);
const prefsInput = z.object({
  muted: z.array(z.string().min(1)).max(20),
  quiet: z
    .object({ start: z.string().regex(TIME, 'must be HH:MM'), end: z.string().regex(TIME, 'must be HH:MM') })
    .optional(),
  timeZone: z.string().min(1),
});
const itemInput = z.object({
  workspaceId: id,
  slackUserId: id,
  kind: id,
  body: z.string().min(2),
  deliverAt: z.number().int().nonnegative(),
});
const Muted = z.array(z.string());

export function createNotificationsRepo({ db, now }: RepoContext): NotificationsRepo {
  return {
    async prefs(workspaceId, slackUserId) {
      const row = await db
        .selectFrom('notification_prefs')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('slack_user_id', '=', slackUserId)
        .executeTakeFirst();
      if (!row) return undefined;
      const muted = Muted.safeParse(JSON.parse(row.muted));
      return {
        muted: muted.success ? muted.data : [],
        ...(row.quiet_start && row.quiet_end
          ? { quiet: { start: row.quiet_start, end: row.quiet_end } }
          : {}),
        timeZone: row.time_zone,
      };
    },

    async savePrefs(workspaceId, slackUserId, prefs) {
      parseInput(z.object({ workspaceId: id, slackUserId: id }), { workspaceId, slackUserId }, 'person');
      const p = parseInput(prefsInput, prefs, 'notification preferences');
      const values = {
        muted: JSON.stringify([...new Set(p.muted)].sort()),
        quiet_start: p.quiet?.start ?? null,
        quiet_end: p.quiet?.end ?? null,
        time_zone: p.timeZone,
        updated_at: now(),
      };
      await db
        .insertInto('notification_prefs')
        .values({ workspace_id: workspaceId, slack_user_id: slackUserId, ...values })
        .onConflict((oc) => oc.columns(['workspace_id', 'slack_user_id']).doUpdateSet(values))
        .execute();
    },

    async enqueue(item) {
      const i = parseInput(itemInput, item, 'held notification');
      const itemId = randomUUID();
      await db
        .insertInto('notification_outbox')
        .values({
          id: itemId,
          workspace_id: i.workspaceId,
          slack_user_id: i.slackUserId,
          kind: i.kind,
          body: i.body,
          deliver_at: i.deliverAt,
          attempts: 0,
          created_at: now(),
        })
        .execute();
      return itemId;
    },

    async heldCount() {
      const row = await db
        .selectFrom('notification_outbox')
        .select((eb) => eb.fn.countAll<string | number | bigint>().as('held'))
        .executeTakeFirstOrThrow();
      return Number(row.held);
    },

    async due(at, limit = 100) {
      const rows = await db
        .selectFrom('notification_outbox')
        .selectAll()
        .where('deliver_at', '<=', at)
        .orderBy('deliver_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        workspaceId: r.workspace_id,
        slackUserId: r.slack_user_id,
        kind: r.kind,
        body: r.body,
        deliverAt: Number(r.deliver_at),
        attempts: r.attempts,
      }));
    },

    async remove(itemId) {
      const result = await db.deleteFrom('notification_outbox').where('id', '=', itemId).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async retryLater(itemId, retryAt) {
      await db
        .updateTable('notification_outbox')
        .set((eb) => ({ deliver_at: retryAt, attempts: eb('attempts', '+', 1) }))
        .where('id', '=', itemId)
        .execute();
    },
  };
}
