/**
 * The HTTP face of the sandbox, on node:http: every request is routed from the endpoint table,
 * passed through the test controls (injected faults, latency), authenticated, validated and
 * answered with JSON — errors as `{id, message}`. A bug in a handler answers 500 and is logged;
 * the server keeps serving.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Engine } from './engine.js';
import { ApiError, invalidArgument, notFound } from './errors.js';
import { type Faults, injectedResponse, type RequestLog, type RequestRecord } from './faults.js';
import { completeCheckout } from './handlers/billing.js';
import { avatarBody, jsonBody, queryObject } from './input.js';
import { invitationPage, invitationPageFor } from './invitation-page.js';
import { Router } from './router.js';
import { dayKey } from './time.js';

/** Generous for JSON, and room for a multipart avatar just over its 200 KB limit (so that it is named). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const API_PREFIX = '/v1';

export interface ServerDeps {
  engine: Engine;
  faults: Faults;
  requests: RequestLog;
  logger: Logger;
  /** Aborted when the sandbox closes: ends injected delays. */
  signal: AbortSignal;
  /** Called after every request that reached an operation (state may have changed). */
  afterRequest: () => void;
}

export function createSandboxServer(deps: ServerDeps): Server {
  const router = new Router();
  return createServer((req, res) => {
    handle(deps, router, req, res).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'sandbox: request failed outside a handler');
      send(res, 500, { id: 'internal-error', message: 'The sandbox failed on this request' });
    });
  });
}

async function handle(deps: ServerDeps, router: Router, req: IncomingMessage, res: ServerResponse) {
  const { engine, faults, requests, logger, signal } = deps;
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const started = performance.now();
  let record: RequestRecord | undefined;
  try {
    const bytes = await readBody(req);
    if (url.pathname.startsWith('/sandbox/')) return sandboxPage(deps, method, url.pathname, res);
    const path = url.pathname.startsWith(`${API_PREFIX}/`)
      ? url.pathname.slice(API_PREFIX.length)
      : undefined;
    const pageOf = invitationPageFor(method, path, req.headers);
    if (pageOf !== undefined) {
      const shown = invitationPage(engine.store, pageOf);
      deps.afterRequest();
      res.writeHead(shown.status, shown.headers);
      res.end(shown.html);
      return;
    }
    const match = path === undefined ? ({ kind: 'none' } as const) : router.match(method, path);
    if (match.kind === 'none') throw notFound(`Route ${method} ${url.pathname}`);
    if (match.kind === 'method') {
      throw new ApiError(405, 'method-not-allowed', `${method} is not allowed on ${url.pathname}`, {
        allow: match.allow.join(', '),
      });
    }
    const { op, params } = match;
    record = {
      operationId: op.def.operationId,
      operation: op.operation,
      method,
      path: url.pathname,
      at: engine.store.now(),
    };
    requests.entries.push(record);

    const fault = faults.take(op, method);
    if (fault?.hang) return; // never answered; the socket is destroyed when the sandbox closes
    if (fault?.delayMs) await sleep(fault.delayMs, undefined, { signal });
    if (fault?.holdUntil) {
      await Promise.race([fault.holdUntil, once(signal, 'abort')]);
      signal.throwIfAborted();
    }
    if (fault?.status !== undefined) {
      const injected = injectedResponse({ ...fault, status: fault.status });
      return send(res, fault.status, injected.body, injected.headers);
    }
    if (faults.latencyMs > 0) await sleep(faults.latencyMs, undefined, { signal });

    const anonymous = engine.allowsAnonymous(op) && req.headers.authorization === undefined;
    const principal = anonymous ? undefined : await engine.tokens.authenticate(req.headers);
    if (principal) {
      const day = dayKey(engine.store.now());
      principal.account.apiCalls[day] = (principal.account.apiCalls[day] ?? 0) + 1;
    }
    const body = op.def.multipart
      ? await avatarBody(req.headers['content-type'], bytes)
      : op.def.body
        ? jsonBody(bytes)
        : undefined;
    const result = await engine.run(
      op,
      principal,
      { params, query: queryObject(url.searchParams), body },
      origin,
    );
    if (fault?.answerDelayMs) await sleep(fault.answerDelayMs, undefined, { signal });
    send(res, 200, result);
  } catch (error) {
    if (error instanceof ApiError) send(res, error.status, error.body, error.headers);
    else if (signal.aborted) res.destroy();
    else {
      logger.error({ err: error, operation: record?.operation }, 'sandbox: handler failed');
      send(res, 500, { id: 'internal-error', message: 'The sandbox failed on this request; see its log' });
    }
  } finally {
    if (record && res.headersSent) record.status = res.statusCode;
    if (record) deps.afterRequest();
    logger.debug(
      { method, path: url.pathname, operation: record?.operation, status: res.statusCode },
      `${method} ${url.pathname} ${res.statusCode} ${Math.round(performance.now() - started)}ms`,
    );
  }
}

/** Pages outside the API that links handed out by the sandbox point at (checkout, billing). */
function sandboxPage(deps: ServerDeps, method: string, pathname: string, res: ServerResponse): void {
  if (method !== 'GET') throw notFound(`Route ${method} ${pathname}`);
  const checkoutId = /^\/sandbox\/checkout\/([^/]+)$/.exec(pathname)?.[1];
  if (checkoutId) {
    const org = completeCheckout(deps.engine.store, decodeURIComponent(checkoutId));
    deps.afterRequest();
    html(res, `Subscription active for ${org.orgName}. You can close this page.`);
    return;
  }
  html(res, 'Team Planning sandbox: no payment details are collected here.');
}

function html(res: ServerResponse, text: string): void {
  const escaped = text.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>Team Planning sandbox</title><p>${escaped}</p>`);
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const json = JSON.stringify(body ?? null);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    ...headers,
  });
  res.end(json);
}

/** The whole body; past the limit it is drained and refused, so the client is never left blocked. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > MAX_BODY_BYTES)
    throw invalidArgument('body', `The request body is larger than ${MAX_BODY_BYTES} bytes`);
  return Buffer.concat(chunks);
}
