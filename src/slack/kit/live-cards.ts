/**
 * Live cards: every card the app posts for a task or a feature is remembered (store/posted-cards)
 * and, after any change made from Slack, updated in place with chat.update — the thread card and
 * every copy in a channel — so nobody reads a stale state. A card whose message is gone is
 * forgotten; a deleted entity turns each of its cards into one line saying so. Each card is
 * remembered with where its entity lives (organization, team, channel, feature), as the app
 * addressed it when posting: kit/press.ts checks presses against it.
 */
import type { MessageMetadata } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { type MessageBody, type Mrkdwn, message, section } from '../../blockkit/index.js';
import { slackErrorCode } from '../../slack-api/index.js';
import type { CardKind, CardPlace, PostedCard } from '../../store/index.js';
import type { SlackDeps } from './deps.js';

/** Which entity a card is about. */
export interface CardRef {
  workspaceId: string;
  kind: CardKind;
  /** The task's or feature's id in the planning service. */
  entityId: string;
}

/** A card's message: blocks, notification text and the metadata that names its entity. */
export type CardBody = MessageBody & { metadata?: MessageMetadata };

/** Slack's answers that mean the message can no longer be updated: forget it. */
const GONE = new Set(['message_not_found', 'channel_not_found', 'is_archived', 'cant_update_message']);

/**
 * Posts a card (in a thread when `threadTs` is given) and remembers it with its entity's place —
 * the one the app just addressed it with; returns its ts.
 */
export async function postCard(
  deps: Pick<SlackDeps, 'store'>,
  client: WebClient,
  ref: CardRef & { place: CardPlace },
  where: { channel: string; threadTs?: string },
  body: CardBody,
): Promise<string> {
  const posted = await client.chat.postMessage({
    channel: where.channel,
    ...body,
    ...(where.threadTs ? { thread_ts: where.threadTs, reply_broadcast: false } : {}),
    unfurl_links: false,
    unfurl_media: false,
  });
  const ts = posted.ts;
  if (!ts) throw new Error('chat.postMessage answered without a ts');
  await deps.store.cards.record({ ...ref, slackChannelId: posted.channel ?? where.channel, messageTs: ts });
  return ts;
}

/**
 * Puts `body` in every card posted for the entity (or in `options.cards`, some of them). Best
 * effort: the change is already made, so a card that cannot be updated is logged (and forgotten
 * when its message is gone), never thrown; `options.failed` collects the cards that could not be
 * updated and are still there (a 429, Slack down), for a caller that tries again later (the watch).
 * Returns how many were updated.
 */
export async function updateCards(
  deps: Pick<SlackDeps, 'store' | 'logger'>,
  client: WebClient,
  ref: CardRef,
  body: CardBody,
  options: { cards?: readonly PostedCard[]; failed?: PostedCard[] } = {},
): Promise<number> {
  let updated = 0;
  const cards = options.cards ?? (await deps.store.cards.list(ref.workspaceId, ref.kind, ref.entityId));
  for (const card of cards) {
    try {
      await client.chat.update({ channel: card.slackChannelId, ts: card.messageTs, ...body });
      updated += 1;
    } catch (error) {
      const code = slackErrorCode(error);
      if (code && GONE.has(code)) {
        await deps.store.cards.forget(card.workspaceId, card.slackChannelId, card.messageTs);
      } else {
        options.failed?.push(card);
        deps.logger.warn({ kind: ref.kind, slackError: code, err: error }, 'could not update a card');
      }
    }
  }
  return updated;
}

/**
 * The entity of these cards is gone: each becomes one line saying so, and is forgotten. Only the
 * cards given — those whose recorded place was read and found empty (kit/press.ts). Best effort on
 * Slack's side, like updateCards.
 */
export async function retireCards(
  deps: Pick<SlackDeps, 'store' | 'logger'>,
  client: WebClient,
  cards: readonly PostedCard[],
  line: Mrkdwn,
): Promise<void> {
  const body = message(line, [section(line)]);
  for (const card of cards) {
    try {
      await client.chat.update({ channel: card.slackChannelId, ts: card.messageTs, ...body });
    } catch (error) {
      const code = slackErrorCode(error);
      if (!code || !GONE.has(code)) {
        deps.logger.warn({ kind: card.kind, slackError: code, err: error }, 'could not retire a card');
      }
    }
    await deps.store.cards.forget(card.workspaceId, card.slackChannelId, card.messageTs);
  }
}
