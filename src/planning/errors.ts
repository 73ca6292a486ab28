/**
 * One error hierarchy for every failure of a call to the Team Planning Service, built by one factory
 * from the service's `{id, message}` body (see shared/contract/NOTES.md). Callers branch with
 * `instanceof` (e.g. `UnauthorizedError` → ask the user to reconnect) or on `errorId`.
 *
 * Errors never carry the caller's token: the client passes every error through
 * {@link redactError} before it leaves, which also rebuilds causes from undici as plain errors.
 */
import { tz } from '@date-fns/tz';
import { differenceInMilliseconds, isValid, parse } from 'date-fns';
import type { HttpMethod } from './endpoints.js';
import { ServiceErrorBody } from './models.js';

/** Where a failure happened: the operation (`area.name`), its method and its path template. */
export interface ErrorContext {
  /** `area.name`, e.g. `tasks.create`. */
  operation: string;
  method: HttpMethod;
  /** The path template (`/teams/{teamId}`), never the filled URL, so logs group by operation. */
  path: string;
}

export interface PlanningErrorInit extends ErrorContext {
  status?: number;
  errorId?: string;
  retryCount?: number;
  cause?: unknown;
  /** The service's own `message`, as it wrote it (a business refusal worth showing a user). */
  serviceMessage?: string;
}

/** Base of every error the planning client throws. */
export class PlanningError extends Error {
  override name = 'PlanningError';
  /** HTTP status, when the service answered. */
  readonly status?: number;
  /** The service's error id, e.g. `not-found`, `auth-api-expired`. */
  readonly errorId?: string;
  readonly operation: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** How many times the call was retried before this error was final. */
  retryCount: number;
  /** The service's own `message` ("You must add at least 1 Assumption"), when it sent one; redacted like `message`. */
  serviceMessage?: string;

  constructor(message: string, init: PlanningErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.errorId = init.errorId;
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    this.retryCount = init.retryCount ?? 0;
    if (init.serviceMessage) this.serviceMessage = init.serviceMessage;
  }

  /** What a log line needs; never the cause (it may come from a library we do not control). */
  toJSON(): Record<string, unknown> {
    // Own fields (subclasses add `field`, `retryAfterMs`…) plus the inherited `message`.
    return { ...Object.fromEntries(Object.entries(this)), message: this.message };
  }
}

/** 400, or a bad argument caught before sending (`local: true`, and then no request was made). */
export class InvalidArgumentError extends PlanningError {
  override name = 'InvalidArgumentError';
  /** The argument at fault: from `invalid-argument-<field>`, or the first failing input path. */
  readonly field?: string;
  /** `true` when the client refused the input itself and nothing was sent. */
  readonly local: boolean;

  constructor(message: string, init: PlanningErrorInit & { field?: string; local?: boolean }) {
    super(message, init);
    this.field = init.field;
    this.local = init.local ?? false;
  }
}

/** 401: the token is missing, invalid, expired or revoked; the user must reconnect. */
export class UnauthorizedError extends PlanningError {
  override name = 'UnauthorizedError';
}

/** 402: the organization's plan does not allow it. */
export class PaymentRequiredError extends PlanningError {
  override name = 'PaymentRequiredError';
}

/** 403: the role does not allow it, or a business rule refuses it ("add at least 1 Assumption"). */
export class ForbiddenError extends PlanningError {
  override name = 'ForbiddenError';
}

/** 404: no such resource (also one just deleted). */
export class NotFoundError extends PlanningError {
  override name = 'NotFoundError';
}

/** 409: the request conflicts with the resource's state. */
export class ConflictError extends PlanningError {
  override name = 'ConflictError';
}

/** 429: the API usage limit was reached. */
export class RateLimitedError extends PlanningError {
  override name = 'RateLimitedError';
  /** From `Retry-After` (seconds or HTTP date), when the service said when to come back. */
  readonly retryAfterMs?: number;

  constructor(message: string, init: PlanningErrorInit & { retryAfterMs?: number }) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx, a status the contract does not list, or an error body that is not the service's JSON. */
export class ServiceError extends PlanningError {
  override name = 'ServiceError';
}

/** The service could not be reached, or the connection broke before a full answer. */
export class NetworkError extends PlanningError {
  override name = 'NetworkError';
  /** No connection was made, so the request never left this process: even a POST may be sent again. */
  notSent = false;
}

/** The call took longer than its `timeoutMs` (or the connection longer than `connectTimeoutMs`). */
export class TimeoutError extends NetworkError {
  override name = 'TimeoutError';
}

/** The caller's `AbortSignal` fired; never retried. */
export class AbortedError extends PlanningError {
  override name = 'AbortedError';
}

/** A 2xx answer whose body does not match the contract's model. */
export class ResponseShapeError extends PlanningError {
  override name = 'ResponseShapeError';
}

export function isPlanningError(value: unknown): value is PlanningError {
  return value instanceof PlanningError;
}

/** What {@link errorFromResponse} needs to know about a non-2xx answer. */
export interface ErrorResponse extends ErrorContext {
  status: number;
  /** The raw body text. */
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** When to compute an HTTP-date `Retry-After` against; defaults to now. */
  now?: Date;
}

const INVALID_ARGUMENT_PREFIX = 'invalid-argument-';

/** The one factory: a non-2xx answer of the service → the matching {@link PlanningError}. */
export function errorFromResponse(response: ErrorResponse): PlanningError {
  const { operation, status } = response;
  const parsed = parseErrorBody(response.body);
  const init: PlanningErrorInit = {
    ...response,
    errorId: parsed?.id,
    ...(parsed?.message ? { serviceMessage: parsed.message } : {}),
  };
  if (parsed === null) {
    // A body that is not JSON comes from something in front of the service (a proxy's HTML page):
    // its status says nothing about what the service thought of the request.
    return new ServiceError(`${operation}: HTTP ${status} with a body that is not the service's JSON`, init);
  }
  const what = parsed?.message || parsed?.id || 'no details given';
  const message = `${operation}: ${what} (HTTP ${status}${parsed?.id ? ` ${parsed.id}` : ''})`;
  switch (status) {
    case 400: {
      const id = parsed?.id ?? '';
      const field = id.startsWith(INVALID_ARGUMENT_PREFIX) ? id.slice(INVALID_ARGUMENT_PREFIX.length) : '';
      return new InvalidArgumentError(message, {
        ...init,
        field: field && field !== '*' ? field : undefined,
      });
    }
    case 401:
      return new UnauthorizedError(message, init);
    case 402:
      return new PaymentRequiredError(message, init);
    case 403:
      return new ForbiddenError(message, init);
    case 404:
      return new NotFoundError(message, init);
    case 409:
      return new ConflictError(message, init);
    case 429:
      return new RateLimitedError(message, {
        ...init,
        retryAfterMs: parseRetryAfter(header(response.headers, 'retry-after'), response.now),
      });
    default:
      return new ServiceError(message, init);
  }
}

/**
 * The service's `{id, message}`; `undefined` for an empty body or JSON of another shape (the
 * status alone then decides); `null` for a body that is not JSON at all.
 */
function parseErrorBody(body: string): { id: string; message: string } | undefined | null {
  if (body.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  const parsed = ServiceErrorBody.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

function header(headers: ErrorResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const HTTP_DATE = "EEE, dd MMM yyyy HH:mm:ss 'GMT'";

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; `undefined` if unusable. */
export function parseRetryAfter(value: string | undefined, now = new Date()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only the HTTP date format (RFC 9110 IMF-fixdate): `new Date()` would also take "-5" as a year.
  const at = parse(trimmed, HTTP_DATE, now, { in: tz('UTC') });
  if (!isValid(at)) return undefined;
  return Math.max(0, differenceInMilliseconds(at, now));
}

// ---------------------------------------------------------------------------------------------
// Redaction
// ---------------------------------------------------------------------------------------------

const BEARER = /(bearer\s+)[^\s'",;]+/gi;

/** `text` with every secret and every `Bearer <credential>` replaced by `[REDACTED]`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text.replace(BEARER, '$1[REDACTED]');
  for (const secret of secrets) if (secret) out = out.split(secret).join('[REDACTED]');
  return out;
}

/**
 * A plain copy of a cause chain with secrets removed. Library errors can hold sockets, request
 * options or headers (undici's mock errors print the request headers): only name, code and the
 * redacted message and stack survive.
 */
export function redactCause(cause: unknown, secrets: readonly string[], depth = 0): Error | undefined {
  if (cause === undefined || cause === null) return undefined;
  const source = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redactText(source.message, secrets));
  copy.name = source.name;
  copy.stack = source.stack === undefined ? undefined : redactText(source.stack, secrets);
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  const inner = depth < 5 ? redactCause(source.cause, secrets, depth + 1) : undefined;
  if (inner) Object.defineProperty(copy, 'cause', { value: inner, enumerable: false, writable: true });
  return copy;
}

/** Removes secrets from the error's message, stack and cause chain, in place; returns it. */
export function redactError<E extends PlanningError>(error: E, secrets: readonly string[]): E {
  error.message = redactText(error.message, secrets);
  if (error.serviceMessage) error.serviceMessage = redactText(error.serviceMessage, secrets);
  if (error.stack) error.stack = redactText(error.stack, secrets);
  if (error.cause !== undefined) {
    Object.defineProperty(error, 'cause', {
      value: redactCause(error.cause, secrets),
      enumerable: false,
      writable: true,
      configurable: true,
    });
  }
  return error;
}
