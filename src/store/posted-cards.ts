/**
 * The cards the app posted for a task or a feature (a thread card, a copy in a channel list): after
 * any change made from Slack each one is updated in place, so nobody reads a stale state. Rows are
 * kept per workspace; a card whose message is gone is forgotten. Each card keeps the place of its
 * entity in the service (organization, team, channel, feature) as the app addressed it when posting:
 * a press is checked against it, and only a read at that place may retire the card.
 */
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { compiledStatement } from './compiled.js';
import { type RepoContext, touched } from './context.js';
import { parseInput } from './errors.js';
import type { CardKind, PostedCardsTable } from './schema.js';

export type { CardKind } from './schema.js';

/** Where a card's entity lives in the service (a feature card's `featureId` is its own id). */
export interface CardPlace {
  orgId: string;
  teamId: string;
  channelId: string;
  featureId: string;
}

export interface PostedCard {
  workspaceId: string;
  kind: CardKind;
  entityId: string;
  slackChannelId: string;
  messageTs: string;
  /** The root of the thread the card was posted in as a reply (absent: a message of its own). */
  threadTs?: string;
  /** Absent for a card recorded before places were (migration 0006), until a press reads its entity. */
  place?: CardPlace;
}

export interface PostedCardsRepo {
  /** Remembers a posted card (again: no change). */
  record(card: PostedCard): Promise<void>;
  /** Every card posted for the entity, oldest first. */
  list(workspaceId: string, kind: CardKind, entityId: string): Promise<PostedCard[]>;
  /**
   * The entity's cards and its feature's, oldest first, in one read: a press updates both (a
   * feature's own cards are both lists).
   */
  listWithFeature(
    workspaceId: string,
    kind: CardKind,
    entityId: string,
    featureId: string,
  ): Promise<{ entity: PostedCard[]; feature: PostedCard[] }>;
  /** The card posted as this message, if the app remembers one (e.g. the parent of a thread). */
  find(workspaceId: string, slackChannelId: string, messageTs: string): Promise<PostedCard | undefined>;
  /**
   * Records the place of the entity's cards that have none (recorded before places were): the
   * entity was just read there. Cards with a place keep it. Returns how many got one.
   */
  place(workspaceId: string, kind: CardKind, entityId: string, place: CardPlace): Promise<number>;
  /** Forgets one card (its message was deleted). */
  forget(workspaceId: string, slackChannelId: string, messageTs: string): Promise<boolean>;
  /** Forgets every card of the entity (it was deleted); returns how many. */
  forgetEntity(workspaceId: string, kind: CardKind, entityId: string): Promise<number>;
  /** Forgets cards posted more than `days` ago (housekeeping); returns how many. */
  purgeOlderThan(days: number): Promise<number>;
}

const id = z.string().min(1);
const placeInput = z.object({ orgId: id, teamId: id, channelId: id, featureId: id });
const cardInput = z.object({
  workspaceId: id,
  kind: z.enum(['task', 'feature', 'invitation']),
  entityId: id,
  slackChannelId: id,
  messageTs: id,
  threadTs: id.optional(),
  place: placeInput.optional(),
});

/** A row's place: all four columns, or none (a row of an older version, or half-written: none). */
function placeOf(r: Selectable<PostedCardsTable>): CardPlace | undefined {
  const { org_id: orgId, team_id: teamId, channel_id: channelId, feature_id: featureId } = r;
  return orgId && teamId && channelId && featureId ? { orgId, teamId, channelId, featureId } : undefined;
}

const fromRow = (r: Selectable<PostedCardsTable>): PostedCard => {
  const place = placeOf(r);
  return {
    workspaceId: r.workspace_id,
    kind: r.kind,
    entityId: r.entity_id,
    slackChannelId: r.slack_channel_id,
    messageTs: r.message_ts,
    ...(r.thread_ts && r.thread_ts !== r.message_ts ? { threadTs: r.thread_ts } : {}),
    ...(place ? { place } : {}),
  };
};

/** A place's columns, as every table that keeps one names them. */
export const placeColumns = (p: CardPlace) => ({
  org_id: p.orgId,
  team_id: p.teamId,
  channel_id: p.channelId,
  feature_id: p.featureId,
});

/** Every card of an entity, oldest first: read on every press and every change (compiled once). */
const cardsOfEntity = compiledStatement(3, (db, workspaceId: string, kind: CardKind, entityId: string) =>
  db
    .selectFrom('posted_cards')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .where('entity_id', '=', entityId)
    .orderBy('created_at')
    .orderBy('message_ts'),
);

/**
 * An entity's cards and its feature's, oldest first: read on every press (compiled once). Both
 * columns as `in` lists, so the (workspace, kind, entity) index finds the rows however many cards the
 * workspace has: as `(kind and entity) or (kind and entity)`, SQLite without table statistics searched
 * the index by workspace only and read every card of it (1.2 ms at 20,000 cards, against 7 µs). The
 * cross pairs it may also return (a task with the feature's id) are dropped by the caller's filter.
 */
const cardsOfEntityAndFeature = compiledStatement(
  4,
  (db, workspaceId: string, kind: CardKind, entityId: string, featureId: string) =>
    db
      .selectFrom('posted_cards')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('kind', 'in', [kind, 'feature'])
      .where('entity_id', 'in', [entityId, featureId])
      .orderBy('created_at')
      .orderBy('message_ts'),
);

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
          ...(c.threadTs && c.threadTs !== c.messageTs ? { thread_ts: c.threadTs } : {}),
          ...(c.place ? placeColumns(c.place) : {}),
        })
        .onConflict((oc) => oc.columns(['workspace_id', 'slack_channel_id', 'message_ts']).doNothing())
        .execute();
    },

    async list(workspaceId, kind, entityId) {
      const { rows } = await cardsOfEntity.run(db, workspaceId, kind, entityId);
      return rows.map(fromRow);
    },

    async listWithFeature(workspaceId, kind, entityId, featureId) {
      const { rows } = await cardsOfEntityAndFeature.run(db, workspaceId, kind, entityId, featureId);
      const cards = rows.map(fromRow);
      return {
        entity: cards.filter((c) => c.kind === kind && c.entityId === entityId),
        feature: cards.filter((c) => c.kind === 'feature' && c.entityId === featureId),
      };
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

    async place(workspaceId, kind, entityId, place) {
      const p = parseInput(placeInput, place, 'card place');
      const result = await db
        .updateTable('posted_cards')
        .set(placeColumns(p))
        .where('workspace_id', '=', workspaceId)
        .where('kind', '=', kind)
        .where('entity_id', '=', entityId)
        .where((eb) =>
          eb.or([
            eb('org_id', 'is', null),
            eb('team_id', 'is', null),
            eb('channel_id', 'is', null),
            eb('feature_id', 'is', null),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
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
