/**
 * The Team Planning Service client: one namespace per area and one method per operation, all built
 * from the table in `endpoints.ts` — there is no hand-written method here. Every call checks its
 * arguments locally, authenticates, retries what is safe to retry, validates the answer and reports
 * a {@link RequestEvent}; every failure is a {@link PlanningError} without the token in it.
 */
import { readFileSync } from 'node:fs';
import { decodeJwt } from 'jose';
import { type Dispatcher, FormData } from 'undici';
import { z } from 'zod';
import {
  type Endpoints,
  type HttpMethod,
  type OperationRef,
  operations,
  type PathParamNames,
  pathParamNames,
} from './endpoints.js';
import {
  AbortedError,
  type ErrorContext,
  errorFromResponse,
  InvalidArgumentError,
  isPlanningError,
  PlanningError,
  ResponseShapeError,
  redactError,
  ServiceError,
} from './errors.js';
import { AvatarInput, Grade } from './models.js';
import { type PageRequest, pageRequest } from './paginate.js';
import { avatarProblem } from './png.js';
import { type BackoffOptions, DEFAULT_BACKOFF, retryDelay } from './retry.js';
import {
  closePlanningPools,
  DEFAULT_MAX_CONNECTIONS,
  poolFor,
  type RawResponse,
  sendOnce,
} from './transport.js';

export { closePlanningPools, DEFAULT_MAX_CONNECTIONS };

// ---------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------

/** Per-call options, the last argument of every method. */
export interface CallOptions {
  /** Aborts the call (and any wait between retries); an aborted call is never retried. */
  signal?: AbortSignal;
  /** Bounds each attempt, body included; defaults to the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retries for this call; defaults to the client's `retries`. */
  retries?: number;
}

/** Reported once per call that reached the network: no token, no body. */
export interface RequestEvent {
  /** `area.name`, e.g. `tasks.create`. */
  operation: string;
  method: HttpMethod;
  /** The path template, e.g. `/teams/{teamId}`. */
  path: string;
  /** HTTP status of the last attempt, when it got an answer. */
  status?: number;
  /** From the first attempt to the outcome, waits between retries included. */
  durationMs: number;
  retryCount: number;
  outcome: 'ok' | 'error';
  /** The service's error id, when it sent one. */
  errorId?: string;
  /** The error class of a failure, e.g. `TimeoutError`. */
  errorName?: string;
}

export interface PlanningClientOptions {
  /** The service's base URL including its version path, e.g. `https://api.kronup.com/v1`. */
  baseUrl: string;
  /** A service-account token (JWT). Sent as a Bearer credential; never logged or put in errors. */
  token: string;
  /** Bound of each attempt (connect, headers and body), in ms. Default 10 000. */
  timeoutMs?: number;
  /** Bound of opening a connection, in ms (for the shared pool). Default 5 000. */
  connectTimeoutMs?: number;
  /**
   * Sockets the shared pool keeps open at once to the service's origin; calls beyond it queue.
   * Default {@link DEFAULT_MAX_CONNECTIONS}.
   */
  maxConnections?: number;
  /**
   * Retries on network errors, timeouts, 429 and 5xx: of operations the endpoint table marks
   * idempotent, and of the others only when the request never left. Default 2.
   */
  retries?: number;
  /** Replaces the default `team-planning-slack/<version> (+node)`. */
  userAgent?: string;
  /** An undici dispatcher (e.g. a MockAgent in tests); default: a keep-alive pool shared per origin. */
  dispatcher?: Dispatcher;
  /** Called once per call that reached the network. Exceptions it throws are ignored. */
  onEvent?: (event: RequestEvent) => void;
  /** Backoff tuning; tests inject `sleep` and `random`. */
  backoff?: BackoffOptions;
  /** Safety stop for `for await` over a list: at most this many pages (default 1 000). */
  maxPages?: number;
}

type Schema<S> = S extends z.ZodType ? S : never;
type BodyOf<D> = D extends { body?: infer B } ? Schema<B> : never;
type QueryOf<D> = D extends { query?: infer Q } ? Schema<Q> : never;
type ResultOf<D> = D extends { result: infer R extends z.ZodType } ? z.output<R> : never;
type PathOf<D> = D extends { path: infer P extends string } ? P : never;

/** Path arguments of a template, in order; `grade` may be given as a number. */
type PathValues<Names extends string[]> = {
  [K in keyof Names]: Names[K] extends 'grade' ? string | number : string;
};
type PathArgs<D> = PathValues<PathParamNames<PathOf<D>>>;

/** The element type of the one array of a list result. */
type ItemOf<R> = { [K in keyof R]-?: NonNullable<R[K]> extends readonly (infer E)[] ? E : never }[keyof R];

type MethodArgs<D> = [BodyOf<D>] extends [never]
  ? [QueryOf<D>] extends [never]
    ? [...PathArgs<D>, options?: CallOptions]
    : [...PathArgs<D>, query?: z.input<QueryOf<D>>, options?: CallOptions]
  : [...PathArgs<D>, input: z.input<BodyOf<D>>, options?: CallOptions];

/** Lists (a query with `pageNumber`) return a {@link PageRequest}; everything else a promise. */
type MethodResult<D> = [QueryOf<D>] extends [never]
  ? Promise<ResultOf<D>>
  : 'pageNumber' extends keyof z.input<QueryOf<D>>
    ? PageRequest<ResultOf<D>, ItemOf<ResultOf<D>>>
    : Promise<ResultOf<D>>;

/** One method per operation of the table, typed from its path, schemas and result. */
export type PlanningClient = {
  readonly [A in keyof Endpoints]: {
    readonly [O in keyof Endpoints[A]]: (
      ...args: MethodArgs<Endpoints[A][O]>
    ) => MethodResult<Endpoints[A][O]>;
  };
};

// ---------------------------------------------------------------------------------------------
// Construction
// ---------------------------------------------------------------------------------------------

const VERSION = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))).version;
const DEFAULT_USER_AGENT = `team-planning-slack/${VERSION} (+node)`;

const Options = z.object({
  baseUrl: z.url({ protocol: /^https?$/ }),
  token: z.string().min(1, 'is required'),
  timeoutMs: z.number().int().positive().default(10_000),
  connectTimeoutMs: z.number().int().positive().default(5_000),
  maxConnections: z.number().int().positive().default(DEFAULT_MAX_CONNECTIONS),
  retries: z.number().int().min(0).default(2),
  userAgent: z.string().min(1).default(DEFAULT_USER_AGENT),
  maxPages: z.number().int().positive().default(1_000),
});

/** The `org_id` claim of a service-account token, decoded without verification (the service verifies). */
export function orgIdFromToken(token: string): string | undefined {
  try {
    const orgId = decodeJwt(token).org_id;
    return typeof orgId === 'string' && orgId !== '' ? orgId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A client of the Team Planning Service acting with one token. Cheap to create: connections come
 * from a pool shared per origin (see {@link closePlanningPools}).
 *
 * @example
 * const planning = createPlanningClient({ baseUrl, token });
 * const task = await planning.tasks.create(teamId, channelId, featureId, { heading: 'Ship it' });
 * for await (const feature of planning.features.list(teamId, channelId, { stage: 'planning' })) { … }
 */
export function createPlanningClient(options: PlanningClientOptions): PlanningClient {
  const parsed = Options.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // The issue message only: zod's default text could quote the rejected value (the token).
    throw new TypeError(`createPlanningClient: option ${issue?.path.join('.')} ${issue?.message}`);
  }
  const config = parsed.data;
  const base = new URL(config.baseUrl);
  const orgId = orgIdFromToken(config.token);
  const caller: Caller = {
    origin: base.origin,
    basePath: base.pathname.replace(/\/+$/, ''),
    headers: {
      authorization: `Bearer ${config.token}`,
      accept: 'application/json',
      'user-agent': config.userAgent,
      ...(orgId ? { 'x-org-id': orgId } : {}),
    },
    secrets: [config.token],
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    maxPages: config.maxPages,
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    dispatcher: () =>
      options.dispatcher ?? poolFor(base.origin, config.connectTimeoutMs, config.maxConnections),
    onEvent: options.onEvent,
  };
  const client: object = Object.create(AREAS);
  callers.set(client, caller);
  return client as PlanningClient;
}

// ---------------------------------------------------------------------------------------------
// Calls
// ---------------------------------------------------------------------------------------------

interface Caller {
  origin: string;
  basePath: string;
  headers: Record<string, string>;
  secrets: string[];
  timeoutMs: number;
  retries: number;
  maxPages: number;
  backoff: Required<BackoffOptions>;
  dispatcher: () => Dispatcher;
  onEvent: ((event: RequestEvent) => void) | undefined;
}

interface CompiledOperation extends OperationRef {
  paramNames: string[];
  takesInput: boolean;
  context: ErrorContext;
  /** `def.result` through zod's ahead-of-time compiler, built on first use. */
  result?: z.ZodType;
}

const compiled: CompiledOperation[] = operations.map((op) => ({
  ...op,
  paramNames: pathParamNames(op.def.path),
  takesInput: op.def.body !== undefined || op.def.query !== undefined,
  context: { operation: op.operation, method: op.def.method, path: op.def.path },
}));

/**
 * What each client's methods call with, its token among it: beside the client, not on it, so that
 * nothing that prints a client (a log line, a test's diff) can show the token.
 */
const callers = new WeakMap<object, Caller>();

/**
 * What every client inherits: a getter per area that makes the area's methods for the client on
 * first use and keeps them on it. A method is a function per operation and client (77 of them), and
 * the process keeps a client per token (src/clients.ts): made all at once they were about 11 KB per
 * client, most of it areas it never used (the digest's clients read features and tasks, 2 of 12).
 */
const AREAS: object = {};
const byArea = new Map<string, CompiledOperation[]>();
for (const op of compiled) byArea.set(op.area, [...(byArea.get(op.area) ?? []), op]);
for (const [area, ops] of byArea) {
  Object.defineProperty(AREAS, area, {
    enumerable: true,
    get(this: object) {
      const caller = callers.get(this);
      if (!caller) throw new TypeError(`planning client: ${area} read off something that is not a client`);
      const methods = Object.fromEntries(ops.map((op) => [op.name, methodFor(op, caller)]));
      Object.defineProperty(this, area, {
        value: methods,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return methods;
    },
  });
}

function methodFor(op: CompiledOperation, caller: Caller) {
  const arity = op.paramNames.length;
  return (...args: unknown[]) => {
    const pathValues = args.slice(0, arity);
    const input = op.takesInput ? args[arity] : undefined;
    const options = args[op.takesInput ? arity + 1 : arity] as CallOptions | undefined;
    if (op.def.items === undefined) return call(op, caller, pathValues, input, options);
    const query = (input ?? {}) as { pageNumber?: number; pageSize?: number };
    return pageRequest({
      fetchPage: (pageNumber) =>
        call(op, caller, pathValues, pageNumber === undefined ? input : { ...query, pageNumber }, options),
      itemsKey: op.def.items,
      pageNumber: query.pageNumber,
      pageSize: query.pageSize,
      maxPages: caller.maxPages,
      tooManyPages: () =>
        redactError(
          new ServiceError(`${op.operation}: stopped after ${caller.maxPages} full pages`, op.context),
          caller.secrets,
        ),
    });
  };
}

async function call(
  op: CompiledOperation,
  caller: Caller,
  pathValues: unknown[],
  input: unknown,
  options: CallOptions = {},
): Promise<unknown> {
  let request: PreparedRequest;
  try {
    request = prepare(op, pathValues, input);
  } catch (error) {
    throw redactError(error as PlanningError, caller.secrets);
  }
  const { context } = op;
  const retries = options.retries ?? caller.retries;
  const started = performance.now();
  const report = (
    retryCount: number,
    outcome: Pick<RequestEvent, 'outcome' | 'status' | 'errorId' | 'errorName'>,
  ) => {
    const durationMs = performance.now() - started;
    try {
      caller.onEvent?.({ ...context, ...outcome, durationMs, retryCount });
    } catch {
      // A broken listener must not turn a good answer into a failure.
    }
  };

  for (let retryCount = 0; ; retryCount++) {
    let error: PlanningError;
    try {
      const raw = await sendOnce(
        {
          dispatcher: caller.dispatcher(),
          origin: caller.origin,
          path: caller.basePath + request.path,
          method: context.method,
          headers: request.contentType
            ? { ...caller.headers, 'content-type': request.contentType }
            : caller.headers,
          body: request.body,
          timeoutMs: options.timeoutMs ?? caller.timeoutMs,
          signal: options.signal,
        },
        context,
      );
      const result = readAnswer(op, raw);
      report(retryCount, { outcome: 'ok', status: raw.status });
      return result;
    } catch (thrown) {
      // Everything below throws PlanningErrors; anything else is a bug, and not worth a retry.
      error = isPlanningError(thrown)
        ? thrown
        : new PlanningError(`${op.operation}: unexpected failure`, { ...context, cause: thrown });
    }
    const wait = retryDelay(error, op.def.idempotent, retryCount, retries, caller.backoff);
    if (wait !== undefined) {
      try {
        await caller.backoff.sleep(wait, options.signal);
        continue;
      } catch (cause) {
        error = new AbortedError(`${op.operation}: aborted by the caller`, { ...context, cause });
      }
    }
    error.retryCount = retryCount;
    const { status, errorId, name: errorName } = error;
    report(retryCount, { outcome: 'error', status, errorId, errorName });
    throw redactError(error, caller.secrets);
  }
}

/** A 2xx answer parsed with the operation's result model; anything else through the error factory. */
function readAnswer(op: CompiledOperation, raw: RawResponse): unknown {
  const { context } = op;
  if (raw.status < 200 || raw.status >= 300) {
    throw errorFromResponse({ ...context, status: raw.status, body: raw.text, headers: raw.headers });
  }
  const shapeError = (what: string) =>
    new ResponseShapeError(`${op.operation}: ${what}`, { ...context, status: raw.status });
  let json: unknown;
  try {
    json = JSON.parse(raw.text);
  } catch {
    throw shapeError('response is not JSON');
  }
  // zod's compiled parser validates the same rules 2–3× faster on big lists (bench/client.ts), and
  // falls back to the runtime parser to report issues, so messages and paths are unchanged.
  op.result ??= z.compile(op.def.result);
  const parsed = op.result.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw shapeError(`response field ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
}

// ---------------------------------------------------------------------------------------------
// Arguments → request
// ---------------------------------------------------------------------------------------------

interface PreparedRequest {
  /** Filled path and query string, relative to the base path. */
  path: string;
  body?: string | FormData;
  contentType?: string;
}

/** Checks and encodes every argument; throws a local {@link InvalidArgumentError}, sends nothing. */
function prepare(op: CompiledOperation, pathValues: unknown[], input: unknown): PreparedRequest {
  const { def } = op;
  const filled = new Map<string, string>();
  op.paramNames.forEach((name, i) => {
    const value = pathValues[i];
    if (name === 'grade') {
      filled.set(name, parseInput(op, Grade, value, [name]));
    } else if (typeof value === 'string' && value !== '') {
      filled.set(name, value);
    } else {
      throw invalid(op, name, 'must be a non-empty string');
    }
  });
  const path = def.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(filled.get(name) ?? ''),
  );

  if (def.multipart) {
    const { avatar } = parseInput(op, AvatarInput, input) as { avatar: Uint8Array };
    const problem = avatarProblem(avatar);
    if (problem) throw invalid(op, 'avatar', problem);
    const form = new FormData();
    form.set('avatar', new Blob([avatar], { type: 'image/png' }), 'avatar.png');
    return { path, body: form };
  }
  if (def.body) {
    return { path, body: JSON.stringify(parseInput(op, def.body, input)), contentType: 'application/json' };
  }
  if (def.query) {
    const query = parseInput(op, def.query, input ?? {}) as Record<string, unknown>;
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const qs = search.toString();
    return { path: qs ? `${path}?${qs}` : path };
  }
  return { path };
}

function parseInput<S extends z.ZodType>(
  op: CompiledOperation,
  schema: S,
  value: unknown,
  at: PropertyKey[] = [],
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // An unknown key is reported on the object; name the key itself, it is what the caller mistyped.
  const extra = issue?.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
  const field = [...at, ...(issue?.path ?? []), ...extra].map(String).join('.') || 'input';
  throw invalid(op, field, issue?.message ?? 'is invalid');
}

function invalid(op: CompiledOperation, field: string, why: string): InvalidArgumentError {
  return new InvalidArgumentError(`${op.operation}: invalid ${field}: ${why}`, {
    ...op.context,
    field,
    local: true,
  });
}
