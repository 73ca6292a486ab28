/**
 * Bolt's HTTP receiver, with the request body checked before Bolt sees it.
 *
 * Bolt parses a signed body and reads fields of it in a promise nobody awaits: a signed `payload=null`
 * (or a JSON body `null`) threw there and ended the process; a payload without `user` or `view`
 * answered 500; one with empty `actions`, a form without its `state` (a TypeError in the listener) or
 * one of a type no listener handled (`view_closed`) waited 3 s for an ack that never came, then 404. Here a signed body that is not the shape of a request this app handles answers 400 at
 * once, and an interaction of a type the app does not listen to gets a quiet ack.
 *
 * The signature is checked here, once per request: Bolt is handed the request this guard verified,
 * with its own check turned off (it used to verify every request a second time). So nothing reaches
 * Bolt's event endpoint but through this guard: an unsigned or stale request is answered 401 here,
 * as Bolt answered it, and any other method on the endpoint 404.
 *
 * Socket Mode gets the same checks by the same functions (`createGuardedSocketReceiver`): each
 * envelope is read before the Socket Mode client hands it to Bolt — over the same size limit,
 * judged by the same `judgeBody`, logged and counted by the same `admitBody` — and one Bolt must
 * not see is acked over the socket (there is no status to answer), never left for Slack to resend.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type BufferedIncomingMessage,
  HTTPModuleFunctions,
  HTTPReceiver,
  type HTTPReceiverOptions,
  type Logger,
  SocketModeReceiver,
  type SocketModeReceiverOptions,
} from '@slack/bolt';
import { z } from 'zod';
import { type Logger as PinoLogger, withLogContext } from '../../logger.js';
import type { Metrics, SlackRequestKind, SlackRequestOutcome } from '../../metrics.js';

const id = z.string().min(1);
const user = z.object({ id });

/**
 * Interaction payloads (`payload=<json>`) of the types this app's listeners handle, with what they
 * read before they can ack: a form's listener reads `view.state.values` to decide its ack; a closed
 * modal's (Slack sends `view_closed` only for one that set `notify_on_close`) its callback id.
 */
const handledInteraction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('block_actions'), user, actions: z.array(z.object({ action_id: id })).min(1) }),
  z.object({ type: z.literal('block_suggestion'), user, action_id: id }),
  z.object({
    type: z.literal('view_submission'),
    user,
    view: z.object({
      id,
      callback_id: z.string(),
      state: z.object({ values: z.record(z.string(), z.unknown()) }),
    }),
  }),
  z.object({ type: z.literal('view_closed'), user, view: z.object({ id, callback_id: z.string() }) }),
  z.object({ type: z.literal('shortcut'), user, callback_id: id }),
  z.object({ type: z.literal('message_action'), user, callback_id: id }),
]);
const HANDLED_TYPES: ReadonlySet<string> = new Set(handledInteraction.options.map((o) => o.shape.type.value));

const slashCommand = z.object({ command: id, user_id: id, team_id: id, channel_id: z.string() });
const eventCallback = z.object({ type: z.literal('event_callback'), event: z.object({ type: id }) });
const appRateLimited = z.object({ type: z.literal('app_rate_limited') });

/** What to do with a parsed, signed body. */
export type BodyVerdict = { kind: 'pass' } | { kind: 'ack'; why: string } | { kind: 'reject'; why: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Decides, without I/O, whether Bolt may see a parsed body. `interaction` is true when it came as
 * `payload=<json>` in a form (Slack's interactivity), false for a JSON body or a plain form.
 */
export function judgeBody(body: unknown, interaction: boolean): BodyVerdict {
  if (!isObject(body))
    return {
      kind: 'reject',
      why: `the body is ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}, not an object`,
    };
  if (body.ssl_check === '1' || body.type === 'url_verification') return { kind: 'pass' };
  if (interaction) {
    if (typeof body.type === 'string' && isObject(body.user) && !HANDLED_TYPES.has(body.type)) {
      return { kind: 'ack', why: `no listener handles interactions of type ${body.type}` };
    }
    return handledInteraction.safeParse(body).success
      ? { kind: 'pass' }
      : {
          kind: 'reject',
          why: `the ${typeof body.type === 'string' ? `${body.type} ` : ''}interaction payload lacks its type, user, actions or view (with its state)`,
        };
  }
  if ('command' in body) {
    return slashCommand.safeParse(body).success
      ? { kind: 'pass' }
      : { kind: 'reject', why: 'the slash command lacks its command, user, team or channel' };
  }
  if (eventCallback.safeParse(body).success || appRateLimited.safeParse(body).success)
    return { kind: 'pass' };
  return { kind: 'reject', why: 'the body is neither an interaction, a slash command nor an event' };
}

/** The largest body either mode reads (Bolt's own limit for HTTP: 4 MB). */
export const BODY_LIMIT = HTTPModuleFunctions.defaultBodyLimit;

/** Counts a request by its kind and outcome. */
type Count = (outcome: SlackRequestOutcome, body?: unknown) => void;

/**
 * The one check of a parsed body, in both modes: judged by {@link judgeBody}, anything Bolt must
 * not see told on one line (`refused` says how: "a signed request (400)"), and counted.
 */
export function admitBody(
  body: unknown,
  interaction: boolean,
  { logger, count, refused }: { logger: Logger; count: Count; refused: string },
): BodyVerdict['kind'] {
  const verdict = judgeBody(body, interaction);
  if (verdict.kind === 'pass') count('handled', body);
  else if (verdict.kind === 'ack') {
    count('ignored', body);
    logger.info(`Acknowledged without handling: ${verdict.why}`);
  } else {
    count('malformed', body);
    logger.warn(`Refused ${refused}: ${verdict.why}`);
  }
  return verdict.kind;
}

/** A request's id in the log: its ack line and every line of its work carry it. */
export function newRequestId(): string {
  return randomUUID();
}

const INTERACTION_KINDS: ReadonlySet<string> = new Set<SlackRequestKind>([
  'block_actions',
  'block_suggestion',
  'view_submission',
  'view_closed',
  'shortcut',
  'message_action',
]);

/** What kind of request a parsed body is, as a metric's label: a few fixed words, never a value from it. */
export function slackRequestKind(body: unknown): SlackRequestKind {
  if (!isObject(body)) return 'other';
  if (typeof body.command === 'string') return 'command';
  if (body.type === 'event_callback') return 'event';
  if (typeof body.type === 'string' && INTERACTION_KINDS.has(body.type)) return body.type as SlackRequestKind;
  return 'other';
}

/** Whether a form body carries Slack's interactivity `payload` field. */
function isInteractionForm(req: BufferedIncomingMessage): boolean {
  return (
    req.headers['content-type'] === 'application/x-www-form-urlencoded' &&
    new URLSearchParams(req.rawBody.toString()).has('payload')
  );
}

export interface GuardedReceiverOptions extends HTTPReceiverOptions {
  signingSecret: string;
  logger: Logger;
  endpoints: string;
  /** Where each request's ack line is written, and what counts requests and times acks. */
  observe?: { logger: PinoLogger; metrics?: Metrics };
}

/** Creates the HTTP receiver with its body guard in front of Bolt's request listener. */
export function createGuardedReceiver(options: GuardedReceiverOptions): HTTPReceiver {
  // Bolt gets only requests the guard verified: verifying them again would cost every request twice.
  const receiver = new HTTPReceiver({ ...options, signatureVerification: false });
  const bolt = receiver.requestListener;
  const { logger, signingSecret, endpoints, observe } = options;
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;

  /**
   * Counts the request and, once its answer is sent, times it and writes its ack line — with the
   * request's id, which every line of its work carries too (see server.ts).
   */
  const observed = (res: ServerResponse, reqId: string, began: number) => {
    let kind: SlackRequestKind = 'other';
    res.once('finish', () => {
      const seconds = (performance.now() - began) / 1000;
      observe?.metrics?.ackDuration.observe({ kind }, seconds);
      observe?.logger.info(
        { reqId, kind, status: res.statusCode, ms: Math.round(seconds * 1000) },
        'slack request answered',
      );
    });
    return (outcome: SlackRequestOutcome, body?: unknown) => {
      if (body !== undefined) kind = slackRequestKind(body);
      observe?.metrics?.slackRequests.inc({ kind, outcome });
    };
  };

  const guard = async (req: IncomingMessage, res: ServerResponse, reqId: string) => {
    const ended = observed(res, reqId, performance.now());
    let buffered: BufferedIncomingMessage;
    try {
      buffered = await HTTPModuleFunctions.bufferIncomingMessage(req, bodyLimit);
    } catch (error) {
      const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
      logger.warn(`Request body could not be read: ${(error as Error).message}`);
      ended(tooLarge ? 'too_large' : 'malformed');
      HTTPModuleFunctions.buildNoBodyResponse(res, tooLarge ? 413 : 400);
      return;
    }
    try {
      // On the request itself: an `ssl_check` body is stripped of anything smuggled beside it.
      await HTTPModuleFunctions.parseAndVerifyHTTPRequest({ enabled: true, signingSecret }, buffered);
    } catch (error) {
      logger.warn(`Failed to parse and verify the request data: ${(error as Error).message}`);
      ended('unverified');
      HTTPModuleFunctions.buildNoBodyResponse(res, 401);
      return;
    }
    let body: unknown;
    try {
      body = HTTPModuleFunctions.parseHTTPRequestBody(buffered);
    } catch (error) {
      logger.warn(`Malformed request body: ${(error as Error).message}`);
      ended('malformed');
      HTTPModuleFunctions.buildNoBodyResponse(res, 400);
      return;
    }
    const verdict = admitBody(body, isInteractionForm(buffered), {
      logger,
      count: ended,
      refused: 'a signed request (400)',
    });
    if (verdict === 'pass') bolt(buffered, res);
    else HTTPModuleFunctions.buildNoBodyResponse(res, verdict === 'ack' ? 200 : 400);
  };

  receiver.requestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== endpoints) {
      // The install pages, the OAuth redirect, /healthz: no Slack signature there.
      bolt(req, res);
      return;
    }
    if (req.method?.toUpperCase() !== 'POST') {
      HTTPModuleFunctions.buildNoBodyResponse(res, 404);
      return;
    }
    // Bolt and every listener run inside the request's log context, their after-ack work included.
    const reqId = newRequestId();
    withLogContext({ reqId }, () => guard(req, res, reqId)).catch((error: unknown) => {
      // Nothing above should throw; if it does, the request fails, never the process.
      logger.error(`Request guard failed: ${(error as Error).message}`);
      if (!res.headersSent) HTTPModuleFunctions.buildNoBodyResponse(res, 500);
    });
  };
  return receiver;
}

/** The envelopes Slack sends an app over Socket Mode, and which of them carry an interaction. */
const ENVELOPE_TYPES: ReadonlySet<string> = new Set(['events_api', 'interactive', 'slash_commands']);

export interface GuardedSocketReceiverOptions extends SocketModeReceiverOptions {
  logger: Logger;
  /** The largest envelope read (default {@link BODY_LIMIT}, as over HTTP). */
  bodyLimit?: number;
  /** What counts the envelopes (as `/slack/events` requests are counted). */
  observe?: { metrics?: Metrics };
}

/**
 * Bolt's Socket Mode receiver, with each envelope checked as `/slack/events` checks a body, before
 * the Socket Mode client hands it to Bolt: its size, then its payload by {@link admitBody}. Slack's
 * own messages (`hello`, `disconnect`) go through as they are.
 */
export function createGuardedSocketReceiver(options: GuardedSocketReceiverOptions): SocketModeReceiver {
  const receiver = new SocketModeReceiver(options);
  const { client } = receiver;
  const { logger, observe } = options;
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;
  // The client reads each message in one listener: the guard takes its place and calls it.
  const readers = client.listeners('ws_message');
  if (readers.length !== 1)
    throw new Error(
      'The Socket Mode client no longer reads its messages in one listener: the guard cannot stand in front of it',
    );
  const read = readers[0] as (data: string, isBinary: boolean) => Promise<void>;
  client.removeAllListeners('ws_message');

  const count: Count = (outcome, body) =>
    observe?.metrics?.slackRequests.inc({ kind: slackRequestKind(body), outcome });
  const refused = 'a Socket Mode envelope (acked, not handled)';

  const guard = async (data: unknown, isBinary: boolean) => {
    if (isBinary || (typeof data !== 'string' && !(data instanceof ArrayBuffer))) {
      logger.warn('Refused a Socket Mode message: not text');
      count('malformed');
      return;
    }
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (error) {
      logger.warn(`Refused a Socket Mode message: ${(error as Error).message}`);
      count('malformed');
      return;
    }
    // Slack's own messages to the client (hello, disconnect): no envelope to check or ack.
    if (!isObject(message) || typeof message.envelope_id !== 'string') return read(text, false);
    const envelopeType = String(message.type);
    let verdict: BodyVerdict['kind'];
    const size = Buffer.byteLength(text);
    if (size > bodyLimit) {
      count('too_large', message.payload);
      logger.warn(`Refused ${refused}: ${size} bytes, over the ${bodyLimit}-byte limit`);
      verdict = 'reject';
    } else if (!ENVELOPE_TYPES.has(envelopeType)) {
      count('ignored');
      logger.info(
        `Acknowledged without handling: no listener handles Socket Mode envelopes of type ${envelopeType.slice(0, 40)}`,
      );
      verdict = 'ack';
    } else {
      verdict = admitBody(message.payload, envelopeType === 'interactive', { logger, count, refused });
    }
    if (verdict === 'pass') return read(text, false);
    try {
      // The client's own ack (`send`, private in its types only): the envelope id and no payload.
      await (client as unknown as { send(envelopeId: string): Promise<void> }).send(message.envelope_id);
    } catch (error) {
      logger.warn(`Could not ack a Socket Mode envelope: ${(error as Error).message}`);
    }
  };

  client.on('ws_message', (data: unknown, isBinary: boolean) => {
    // Bolt and every listener run inside the envelope's log context, as a request's over HTTP.
    const reqId = newRequestId();
    withLogContext({ reqId }, () => guard(data, isBinary)).catch((error: unknown) => {
      // Nothing above should throw; if it does, the envelope is lost, never the process.
      logger.error(`Socket Mode guard failed: ${(error as Error).message}`);
    });
  });
  return receiver;
}
