/**
 * The cards' side of a change: every card the app posted for a changed task or feature is updated
 * in place (chat.update), and the cards of one that is gone become one line. Best effort: the
 * change is made, so a card that cannot be updated is logged (and forgotten when its message is
 * gone), never thrown; one Slack refused for now (a 429 past the sender's waits, Slack down) leaves
 * the change incomplete, for the watch to finish next pass.
 */
import type { WebClient } from '@slack/web-api';
import { type Mrkdwn, md, message, section } from '../../../blockkit/index.js';
import { encodedOnce, slackErrorCode } from '../../../slack-api/index.js';
import type { CardKind, PostedCard } from '../../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { CardBody } from '../live-cards.js';
import type { FeaturePlace } from './change.js';

/** Slack's answers that mean the message can no longer be updated: forget it. */
const GONE = new Set(['message_not_found', 'channel_not_found', 'is_archived', 'cant_update_message']);

/** The one line a card of a deleted object becomes (deleted from Slack, found gone by a press or the watch). */
export const deletedLine = (noun: string): Mrkdwn => md`:wastebasket: This ${noun} was deleted.`;

/** The one line each kind's card becomes when its object is gone. */
const RETIRED: Record<CardKind, () => Mrkdwn> = {
  task: () => deletedLine('task'),
  feature: () => deletedLine('feature'),
  invitation: () => md`:no_entry_sign: This invitation was revoked: its link no longer works.`,
};

type Deps = Pick<SlackDeps, 'store' | 'logger'>;

/**
 * Puts `body` in every given card: how many now show it, and how many are still there without it (a
 * card whose message is gone is forgotten, and is neither).
 */
export async function updateCards(
  deps: Deps,
  client: WebClient,
  cards: readonly PostedCard[],
  body: CardBody,
): Promise<{ updated: number; left: number }> {
  let updated = 0;
  let left = 0;
  // The same body for every card: encoded for Slack once.
  const encoded = encodedOnce(body);
  for (const card of cards) {
    try {
      await client.chat.update({ channel: card.slackChannelId, ts: card.messageTs, ...encoded });
      updated += 1;
    } catch (error) {
      const code = slackErrorCode(error);
      if (code && GONE.has(code)) {
        await deps.store.cards.forget(card.workspaceId, card.slackChannelId, card.messageTs);
      } else {
        left += 1;
        deps.logger.warn({ kind: card.kind, slackError: code, err: error }, 'could not update a card');
      }
    }
  }
  return { updated, left };
}

/** Each given card becomes one line saying its object was deleted, and is forgotten. */
async function retire(deps: Deps, client: WebClient, cards: readonly PostedCard[]): Promise<void> {
  for (const card of cards) {
    const line = RETIRED[card.kind]();
    try {
      await client.chat.update({
        channel: card.slackChannelId,
        ts: card.messageTs,
        ...message(line, [section(line)]),
      });
    } catch (error) {
      const code = slackErrorCode(error);
      if (!code || !GONE.has(code)) {
        deps.logger.warn({ kind: card.kind, slackError: code, err: error }, 'could not retire a card');
      }
    }
    await deps.store.cards.forget(card.workspaceId, card.slackChannelId, card.messageTs);
  }
}

const samePlace = (a: FeaturePlace, b: FeaturePlace) =>
  a.teamId === b.teamId && a.channelId === b.channelId && a.featureId === b.featureId;

/**
 * The object was deleted by the change: every card of it goes (where it lived was just read to
 * delete it).
 */
export async function retireDeleted(
  deps: Deps,
  client: WebClient,
  workspaceId: string,
  kind: CardKind,
  id: string,
): Promise<void> {
  await retire(deps, client, await deps.store.cards.list(workspaceId, kind, id));
}

/**
 * The object was found gone from `place` (a 404 there). A 404 proves something only about cards
 * recorded at that place: when one was, the cards recorded there — and those recorded before
 * places were (it is the same object) — are retired; cards recorded elsewhere (an object moved to
 * another channel) stay. Whether any card was retired.
 */
export async function retireGone(
  deps: Deps,
  client: WebClient,
  workspaceId: string,
  kind: CardKind,
  id: string,
  place: FeaturePlace,
): Promise<boolean> {
  const cards = await deps.store.cards.list(workspaceId, kind, id);
  if (!cards.some((c) => c.place !== undefined && samePlace(c.place, place))) return false;
  await retire(
    deps,
    client,
    cards.filter((c) => !c.place || samePlace(c.place, place)),
  );
  return true;
}
