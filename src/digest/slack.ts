/**
 * The digest's side of the Slack Web API: posting with the digest's metadata, and finding a digest
 * already posted for a local date (after a crash between the post and its record).
 *
 * The WebClient comes from the process's client factory (`Clients.slackBots`, or a request's): its
 * calls go through the one Slack sender (src/slack-api/), which waits out a 429 (within the caller's
 * posting deadline) and never sends a post again after it may have reached Slack — it looks for it
 * first, or rejects with `SlackCallUnconfirmedError`, which the scheduler retries later by looking
 * again.
 */

import type { WebClient } from '../clients.js';
import { encodedOnce, slackErrorCode } from '../slack-api/index.js';
import type { ComposedDigest } from './compose.js';
import { DIGEST_EVENT_TYPE } from './ids.js';

export { slackErrorCode, type WebClient };

/**
 * Who a digest's Slack calls act as: a client, and the workspace's bot token each call carries when
 * the client has none of its own (`Clients.slackBots`, one client for every workspace). A request's
 * client, made with its token, needs none.
 */
export interface DigestSlack {
  client: WebClient;
  token?: string;
}

/** The token a call carries in its arguments, when the client has none of its own. */
const tokenOf = ({ token }: DigestSlack) => (token ? { token } : {});

/** `metadata.event_payload` of a digest message. */
export interface DigestMetadataPayload {
  local_date: string;
  channel: string;
  /** Present on `/plan digest now` messages, which never stand for the day's scheduled digest. */
  on_demand?: true;
}

/** Posts a composed digest into `channel`; returns the message ts. */
export async function postDigest(
  slack: DigestSlack,
  channel: string,
  localDate: string,
  digest: Pick<ComposedDigest, 'text' | 'blocks'>,
  options: { onDemand?: boolean } = {},
): Promise<string> {
  const event_payload: DigestMetadataPayload = {
    local_date: localDate,
    channel,
    ...(options.onDemand ? { on_demand: true as const } : {}),
  };
  // Its blocks encoded here, once: the client would walk them for a debug line nothing logs, then
  // encode them (src/slack-api/body.ts); Slack receives the same form fields.
  const result = await slack.client.chat.postMessage(
    encodedOnce({
      ...tokenOf(slack),
      channel,
      text: digest.text,
      blocks: digest.blocks,
      metadata: { event_type: DIGEST_EVENT_TYPE, event_payload: { ...event_payload } },
      unfurl_links: false,
      unfurl_media: false,
    }),
  );
  if (!result.ts) throw new Error('chat.postMessage answered without a message ts');
  return result.ts;
}

/**
 * The ts of the scheduled digest for `localDate` already in `channel` since `since`, if any: the
 * history is read with metadata, and only our event type for that date counts. (Reading a public
 * channel the bot is not in, the Slack sender joins it first: src/slack-api/sender.ts.)
 */
export async function findPostedDigest(
  slack: DigestSlack,
  channel: string,
  localDate: string,
  since: Date,
  { maxPages = 5 }: { maxPages?: number } = {},
): Promise<string | undefined> {
  let cursor: string | undefined;
  const read = (after?: string) =>
    slack.client.conversations.history({
      ...tokenOf(slack),
      channel,
      oldest: (since.getTime() / 1000).toFixed(6),
      include_all_metadata: true,
      limit: 200,
      ...(after ? { cursor: after } : {}),
    });
  for (let page = 0; page < maxPages; page += 1) {
    const result = await read(cursor);
    const found = result.messages?.find((message) => {
      const metadata = message.metadata;
      if (metadata?.event_type !== DIGEST_EVENT_TYPE) return false;
      const payload = metadata.event_payload as Partial<DigestMetadataPayload> | undefined;
      return payload?.local_date === localDate && payload.channel === channel && !payload.on_demand;
    });
    if (found?.ts) return found.ts;
    cursor = result.response_metadata?.next_cursor || undefined;
    if (!cursor) return undefined;
  }
  return undefined;
}
