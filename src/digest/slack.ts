/**
 * The digest's side of the Slack Web API: posting with the digest's metadata, honouring 429
 * Retry-After, and finding a digest already posted for a local date (after a crash between the post
 * and its record).
 *
 * The WebClient comes from the process's client factory (`Clients.slack`), built without retries
 * of its own: it would resend a chat.postMessage after a network error, which may have posted
 * already. Only a 429 — certainly not posted — is resent here; any other failure goes back to the
 * scheduler, whose next attempt looks in the channel history first.
 */
import { webApi } from '@slack/bolt';
import { slackErrorCode, type WebClient } from '../clients.js';
import type { ComposedDigest } from './compose.js';
import { DIGEST_EVENT_TYPE } from './ids.js';

export { slackErrorCode, type WebClient };

/** `metadata.event_payload` of a digest message. */
export interface DigestMetadataPayload {
  local_date: string;
  channel: string;
  /** Present on `/plan digest now` messages, which never stand for the day's scheduled digest. */
  on_demand?: true;
}

export interface PostOptions {
  /** Resends after a 429, waiting Retry-After each time, at most this many times. Default 3. */
  maxRateLimitWaits?: number;
  /** A 429 whose wait would end after this instant (epoch ms) is not waited for: the error is thrown. */
  deadline?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  onRateLimited?: (retryAfterSeconds: number) => void;
  onDemand?: boolean;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Posts a composed digest into `channel`; returns the message ts. */
export async function postDigest(
  client: WebClient,
  channel: string,
  localDate: string,
  digest: Pick<ComposedDigest, 'text' | 'blocks'>,
  options: PostOptions = {},
): Promise<string> {
  const { maxRateLimitWaits = 3, sleep = defaultSleep, now = Date.now } = options;
  const event_payload: DigestMetadataPayload = {
    local_date: localDate,
    channel,
    ...(options.onDemand ? { on_demand: true as const } : {}),
  };
  for (let waits = 0; ; waits += 1) {
    try {
      const result = await client.chat.postMessage({
        channel,
        text: digest.text,
        blocks: digest.blocks,
        metadata: { event_type: DIGEST_EVENT_TYPE, event_payload: { ...event_payload } },
        unfurl_links: false,
        unfurl_media: false,
      });
      if (!result.ts) throw new Error('chat.postMessage answered without a message ts');
      return result.ts;
    } catch (error) {
      if (!(error instanceof webApi.WebAPIRateLimitedError) || waits >= maxRateLimitWaits) throw error;
      const waitMs = error.retryAfter * 1000;
      if (options.deadline !== undefined && now() + waitMs > options.deadline) throw error;
      options.onRateLimited?.(error.retryAfter);
      await sleep(waitMs);
    }
  }
}

/**
 * The ts of the scheduled digest for `localDate` already in `channel` since `since`, if any: the
 * history is read with metadata, and only our event type for that date counts. chat:write.public
 * posts in a public channel without joining it, but reading its history takes membership: on
 * `not_in_channel` the bot joins (channels:join) and reads again.
 */
export async function findPostedDigest(
  client: WebClient,
  channel: string,
  localDate: string,
  since: Date,
  { maxPages = 5 }: { maxPages?: number } = {},
): Promise<string | undefined> {
  let cursor: string | undefined;
  const read = (after?: string) =>
    client.conversations.history({
      channel,
      oldest: (since.getTime() / 1000).toFixed(6),
      include_all_metadata: true,
      limit: 200,
      ...(after ? { cursor: after } : {}),
    });
  for (let page = 0; page < maxPages; page += 1) {
    let result: Awaited<ReturnType<typeof read>>;
    try {
      result = await read(cursor);
    } catch (error) {
      if (page > 0 || slackErrorCode(error) !== 'not_in_channel') throw error;
      await client.conversations.join({ channel });
      result = await read(cursor);
    }
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
