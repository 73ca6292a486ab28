/**
 * Live cards: every card the app posts for a task or a feature is remembered (store/posted-cards),
 * so that after any change the change funnel (kit/changes/) updates it in place — the thread card
 * and every copy in a channel. Each card is remembered with where its entity lives (organization,
 * team, channel, feature), as the app addressed it when posting: kit/press.ts checks presses
 * against it.
 */
import type { MessageMetadata } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { MessageBody } from '../../blockkit/index.js';
import type { CardKind, CardPlace } from '../../store/index.js';
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

/**
 * Posts a card (in a thread when `threadTs` is given) and remembers it with its entity's place —
 * the one the app just addressed it with — and the thread it is in; returns its ts.
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
  await deps.store.cards.record({
    ...ref,
    slackChannelId: posted.channel ?? where.channel,
    messageTs: ts,
    // A reply's own ts is no thread: the card's activity goes to the root it was posted under.
    ...(where.threadTs ? { threadTs: where.threadTs } : {}),
  });
  return ts;
}
