/**
 * The one Slack sender: every Web API call of the process — Bolt's clients and respond(), the jobs'
 * client, the digest, the watch, token rotation — goes through this `fetch`, which applies the
 * method's policy from methods.ts:
 * - a message (`chat.postMessage`, `chat.update`) first waits for its workspace's and channel's
 *   turn in the posting limiter (src/limits.ts);
 * - a 429 waits Retry-After and is sent again, whatever the method: Slack did not act on it. For a
 *   message, the pause holds every later message of its workspace (the limiter); a wait past the
 *   caller's posting deadline (`withPostDeadline`), longer than `maxRateLimitWaitMs` or beyond
 *   `rateLimitWaits` answers the 429, which the WebClient turns into `WebAPIRateLimitedError`;
 * - a failure before any connection was made is sent again, with backoff, whatever the method;
 * - reading a public channel's history the bot is not in (`not_in_channel`: chat:write.public posts
 *   without membership) joins it (channels:join) and reads again, once;
 * - a failure that may have reached Slack (a 5xx, a reset, a timeout) is sent again, with backoff,
 *   only for a `repeatable` method. A new message (`post`) is looked for in its channel or thread
 *   instead: found, it is the answer; not found (or the read fails), and any other call (`once`),
 *   rejects with {@link SlackCallUnconfirmedError} — never sent again blindly.
 * The WebClients are made with no retries of their own, so this is the only retry policy.
 */
import { type BackoffOptions, DEFAULT_BACKOFF, HttpAttemptError, jitteredDelay } from '../http/index.js';
import { type PostLimiter, postDeadline } from '../limits.js';
import { slackMethodOf } from '../metrics.js';
import { headersOf, isPlainPost } from './attempt.js';
import { SlackCallUnconfirmedError } from './errors.js';
import { POSTING_METHODS, policyOf } from './methods.js';

export interface SlackSenderOptions {
  /** One attempt (`slackFetch`, counted by the metrics). */
  attempt: typeof fetch;
  /** Spaces messages per workspace and channel; unset: nothing is spaced. */
  limiter?: PostLimiter;
  /** Rate-limit waits and unconfirmed calls are logged here (method and seconds, never a token or body). */
  logger?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** Sends again of one call after failures (default 3). */
  retries?: number;
  /** Backoff between them (default 250 ms doubling to 2 s, with jitter); its `sleep` also waits out 429s. */
  backoff?: BackoffOptions;
  /** 429s one call waits out (default 3). */
  rateLimitWaits?: number;
  /** A longer Retry-After is not waited for: the 429 is the answer (default 60 s). */
  maxRateLimitWaitMs?: number;
  /** How far before its send a message may carry Slack's stamp when looked for (clocks differ; default 60 s). */
  lookBackMs?: number;
  now?: () => number;
}

/** Short enough for someone waiting on a modal. */
const SLACK_BACKOFF = { baseMs: 250, capMs: 2_000 };

/** The fields of a call's body the sender reads: who sends, where, what. */
interface CallFields {
  token?: string;
  channel?: string;
  text?: string;
  thread_ts?: string;
  metadata?: { event_type?: string };
}

/** Reads the body as the WebClient sent it (form-encoded, objects as JSON; or JSON). */
function fieldsOf(headers: Record<string, string>, body: string): CallFields {
  const raw: Record<string, unknown> = {};
  if (headers['content-type']?.includes('application/json')) {
    try {
      Object.assign(raw, JSON.parse(body));
    } catch {
      // Slack answers a malformed body itself.
    }
  } else {
    for (const [name, value] of new URLSearchParams(body)) raw[name] = value;
  }
  const text = (name: string) => (typeof raw[name] === 'string' ? (raw[name] as string) : undefined);
  let metadata = raw.metadata;
  if (typeof metadata === 'string') {
    try {
      metadata = JSON.parse(metadata);
    } catch {
      metadata = undefined;
    }
  }
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
  return {
    ...((bearer ?? text('token')) ? { token: bearer ?? text('token') } : {}),
    ...(text('channel') ? { channel: text('channel') } : {}),
    ...(text('text') !== undefined ? { text: text('text') } : {}),
    ...(text('thread_ts') ? { thread_ts: text('thread_ts') } : {}),
    ...(metadata && typeof metadata === 'object' ? { metadata: metadata as CallFields['metadata'] } : {}),
  };
}

/** The headers of a call the sender makes on a caller's behalf (a read, a join), with its token. */
function onBehalf(token: string | undefined): Record<string, string> {
  return {
    'content-type': 'application/x-www-form-urlencoded',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}

/** Whether Slack answered the call with `{ ok: false, error: code }` (the response stays readable). */
async function refusedFor(response: Response, code: string): Promise<boolean> {
  if (response.status !== 200) return false;
  try {
    const answer = (await response.clone().json()) as { ok?: boolean; error?: string };
    return answer.ok === false && answer.error === code;
  } catch {
    return false;
  }
}

/** A form field's value read straight off the body, without parsing the rest (blocks can be kilobytes). */
function formField(body: string, name: string): string | undefined {
  const found = new RegExp(`(?:^|&)${name}=([^&]*)`).exec(body)?.[1];
  return found === undefined ? undefined : decodeURIComponent(found.replace(/\+/g, ' '));
}

/**
 * Whose and which channel's turn a message takes in the posting limiter: the bot token (from the
 * bearer header, as the WebClient sends it) and the channel — read off a form body at once, every
 * other body parsed in full.
 */
function turnOf(init: RequestInit | undefined, fields: () => CallFields): { key: string; channel: string } {
  const given = init?.headers;
  if (given && !(given instanceof Headers) && !Array.isArray(given)) {
    const headers = given as Record<string, string | undefined>;
    const bearer = /^Bearer (.+)$/.exec(headers.Authorization ?? headers.authorization ?? '')?.[1];
    const type = headers['Content-Type'] ?? headers['content-type'] ?? '';
    if (bearer && type.includes('urlencoded')) {
      return { key: bearer, channel: formField(init?.body as string, 'channel') ?? '' };
    }
  }
  return { key: fields().token ?? '', channel: fields().channel ?? '' };
}

/** Retry-After in ms (at least a second: Slack's unit). */
function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000;
}

/** A message of the channel or thread read that is this call's post: the app's, with its text and metadata type. */
function isThePost(
  message: { bot_id?: unknown; text?: unknown; ts?: unknown; metadata?: { event_type?: unknown } },
  sent: CallFields,
): boolean {
  if (!message.bot_id || message.text !== sent.text) return false;
  if ((message.metadata?.event_type ?? undefined) !== (sent.metadata?.event_type ?? undefined)) return false;
  // A thread read starts with its root, which is never the reply looked for.
  return !sent.thread_ts || message.ts !== sent.thread_ts;
}

export function slackSender(options: SlackSenderOptions): typeof fetch {
  const { attempt, limiter, logger } = options;
  const backoff = { ...DEFAULT_BACKOFF, ...SLACK_BACKOFF, ...options.backoff };
  const maxRetries = options.retries ?? 3;
  const maxWaits = options.rateLimitWaits ?? 3;
  const maxWaitMs = options.maxRateLimitWaitMs ?? 60_000;
  const lookBackMs = options.lookBackMs ?? 60_000;
  const now = options.now ?? Date.now;

  /**
   * A message that may have been posted, looked for where it went; Slack's own answer when found.
   * Rejects with {@link SlackCallUnconfirmedError} when it is not found or cannot be looked for.
   */
  async function lookFor(
    url: string,
    sent: CallFields,
    sentAt: number,
    cause: unknown,
    signal?: AbortSignal,
  ) {
    const unconfirmed = (why: unknown) => {
      logger?.warn(
        { method: 'chat.postMessage', why: String(why) },
        'Slack post not confirmed: not sent again',
      );
      return new SlackCallUnconfirmedError('chat.postMessage', cause);
    };
    if (!sent.channel || sent.text === undefined) throw unconfirmed('no channel or text to look for');
    const read = sent.thread_ts ? 'conversations.replies' : 'conversations.history';
    const query = new URLSearchParams({
      channel: sent.channel,
      oldest: ((sentAt - lookBackMs) / 1000).toFixed(6),
      limit: '200',
      include_all_metadata: 'true',
      ...(sent.thread_ts ? { ts: sent.thread_ts } : {}),
    });
    let answer: { ok?: boolean; error?: string; messages?: Parameters<typeof isThePost>[0][] };
    try {
      const response = await send(url.replace(/chat\.postMessage$/, read), {
        method: 'POST',
        headers: onBehalf(sent.token),
        body: query.toString(),
        ...(signal ? { signal } : {}),
      });
      answer = (await response.json()) as typeof answer;
    } catch (error) {
      throw unconfirmed(error);
    }
    if (!answer.ok) throw unconfirmed(`${read}: ${answer.error ?? 'refused'}`);
    const found = answer.messages?.find((m) => isThePost(m, sent));
    if (!found) throw unconfirmed('not in the channel yet');
    logger?.info(
      { method: 'chat.postMessage' },
      'Slack post confirmed from the channel after a failed answer',
    );
    return new Response(JSON.stringify({ ok: true, channel: sent.channel, ts: found.ts, message: found }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }

  const send: typeof fetch = async (input, init) => {
    if (!isPlainPost(input, init)) return attempt(input, init);
    const method = slackMethodOf(input);
    const policy = policyOf(method);
    const signal = init?.signal ?? undefined;
    // The body is read only when needed (a turn to take, a post to look for): most calls never are.
    let read: CallFields | undefined;
    const fields = () => {
      read ??= fieldsOf(headersOf(init), init?.body as string);
      return read;
    };
    const turn = limiter && POSTING_METHODS.has(method) ? turnOf(init, fields) : undefined;
    const sentAt = now();
    const again = async (retries: number) => backoff.sleep(jitteredDelay(retries, backoff), signal);
    let joined = false;
    for (let retries = 0, waits = 0; ; ) {
      // The channel's next message counts its interval from when this call is over, however it ends.
      const went = turn ? await limiter?.turn(turn.key, turn.channel, signal) : undefined;
      let response: Response;
      try {
        response = await attempt(input, init).finally(went);
      } catch (error) {
        const notSent = error instanceof HttpAttemptError && error.notSent;
        const resendable = notSent || policy === 'repeatable';
        if (signal?.aborted) {
          if (resendable) throw error;
          throw new SlackCallUnconfirmedError(method, error);
        }
        if (resendable && retries < maxRetries) {
          await again(retries++);
          continue;
        }
        if (resendable) throw error;
        if (policy === 'post') return lookFor(input, fields(), sentAt, error, signal);
        logger?.warn({ method, why: String(error) }, 'Slack call not confirmed: not sent again');
        throw new SlackCallUnconfirmedError(method, error);
      }
      if (response.status === 429) {
        // Not acted on: sent again once Retry-After has passed, by every caller alike.
        const waitMs = retryAfterMs(response);
        if (turn) limiter?.pause(turn.key, waitMs);
        const deadline = postDeadline();
        const inTime = deadline === undefined || now() + waitMs <= deadline;
        if (waits < maxWaits && waitMs <= maxWaitMs && inTime) {
          waits += 1;
          logger?.warn({ method, retryAfterSeconds: waitMs / 1000 }, 'Slack rate limit; waiting Retry-After');
          // A message's next turn waits for the pause itself.
          if (!turn) await backoff.sleep(waitMs, signal);
          continue;
        }
        return response;
      }
      if (method === 'conversations.history' && !joined && (await refusedFor(response, 'not_in_channel'))) {
        // A public channel's history takes membership (chat:write.public posts without it): the
        // bot joins (channels:join) and reads again, once.
        joined = true;
        const reading = fields();
        if (reading.channel) {
          await send(input.replace(/conversations\.history$/, 'conversations.join'), {
            method: 'POST',
            headers: onBehalf(reading.token),
            body: new URLSearchParams({ channel: reading.channel }).toString(),
            ...(signal ? { signal } : {}),
          }).catch(() => undefined);
          continue;
        }
      }
      if (response.status >= 500) {
        if (policy === 'repeatable' && retries < maxRetries) {
          await again(retries++);
          continue;
        }
        const failed = new Error(`HTTP ${response.status}`);
        if (policy === 'post') return lookFor(input, fields(), sentAt, failed, signal);
        if (policy === 'once') {
          logger?.warn({ method, why: failed.message }, 'Slack call not confirmed: not sent again');
          throw new SlackCallUnconfirmedError(method, failed);
        }
      }
      return response;
    }
  };
  return send;
}
