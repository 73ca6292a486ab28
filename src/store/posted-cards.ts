/**
 * The cards the app posted for a task or a feature (a thread card, a copy in a channel list): after
 * any change made from Slack each one is updated in place, so nobody reads a stale state. Rows are
 * kept per workspace; a card whose message is gone is forgotten.
 */
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { type RepoContext, touched } from './context.js';
import { parseInput } from './errors.js';
import type { CardKind, PostedCardsTable } from './schema.js';

export type { CardKind } from './schema.js';

export interface PostedCard {
  workspaceId: string;
  kind: CardKind;
  entityId: string;
  slackChannelId: string;
  messageTs: string;
}

export interface PostedCardsRepo {
  /** Remembers a posted card (again: no change). */
  record(card: PostedCard): Promise<void>;
  /** Every card posted for the entity, oldest first. */
  list(workspaceId: string, kind: CardKind, entityId: string): Promise<PostedCard[]>;
  /** The card posted as this message, if the app remembers one (e.g. the parent of a thread). */
  find(workspaceId: string, slackChannelId: string, messageTs: string): Promise<PostedCard | undefined>;
  /** Forgets one card (its message was deleted). */
  forget(workspaceId: string, slackChannelId: string, messageTs: string): Promise<boolean>;
  /** Forgets every card of the entity (it was deleted); returns how many. */
  forgetEntity(workspaceId: string, kind: CardKind, entityId: string): Promise<number>;
  /** Forgets cards posted more than `days` ago (housekeeping); returns how many. */
  purgeOlderThan(days: number): Promise<number>;
}

const id = z.string().min(1);
const cardInput = z.object({
  workspaceId: id,
  kind: z.enum(['task', 'feature']),
  entityId: id,
  slackChannelId: id,
  messageTs: id,
});

const fromRow = (r: Selectable<PostedCardsTable>): PostedCard => ({
  workspaceId: r.workspace_id,
  kind: r.kind,
  entityId: r.entity_id,
  slackChannelId: r.slack_channel_id,
  messageTs: r.message_ts,
});

export function createPostedCardsRepo({ db, now }: RepoContext): PostedCardsRepo {
  return {
    async record(card) {
      const c = parseInput(cardInput, card, 'posted card');
      await db
        .insertInto('posted_cards')
        .values({
          workspace_id: c.workspaceId,
          slack_channel_id: c.slackChannelId,
          message_ts: c.messageTs,
          kind: c.kind,
          entity_id: c.entityId,
          created_at: now(),
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'slack_channel_id', 'message_ts']).doNothing())
        .execute();
    },

    async list(workspaceId, kind, entityId) {
      const rows = await db
        .selectFrom('posted_cards')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('kind', '=', kind)
        .where('entity_id', '=', entityId)
        .orderBy('created_at')
        .orderBy('message_ts')
        .execute();
      return rows.map(fromRow);
    },

    async find(workspaceId, slackChannelId, messageTs) {
      const r = await db
        .selectFrom('posted_cards')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('slack_channel_id', '=', slackChannelId)
        .where('message_ts', '=', messageTs)
        .executeTakeFirst();
      return r ? fromRow(r) : undefined;
    },

    async forget(workspaceId, slackChannelId, messageTs) {
      return touched(
        await db
          .deleteFrom('posted_cards')
          .where('workspace_id', '=', workspaceId)
          .where('slack_channel_id', '=', slackChannelId)
          .where('message_ts', '=', messageTs)
          .executeTakeFirst(),
      );
    },

    async forgetEntity(workspaceId, kind, entityId) {
      const result = await db
        .deleteFrom('posted_cards')
        .where('workspace_id', '=', workspaceId)
        .where('kind', '=', kind)
        .where('entity_id', '=', entityId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async purgeOlderThan(days) {
      parseInput(z.number().int().nonnegative(), days, 'purge age in days');
      const result = await db
        .deleteFrom('posted_cards')
        .where('created_at', '<', now() - days * 86_400_000)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
