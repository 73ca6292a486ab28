/** Input the store refuses, with every problem named (never the offending value). */
import type { z } from 'zod';

export class StoreValidationError extends Error {
  constructor(
    what: string,
    readonly problems: string[],
  ) {
    super(`Invalid ${what}: ${problems.join('; ')}`);
    this.name = 'StoreValidationError';
  }
}

/** Parses `input` with `schema`, or throws {@link StoreValidationError} naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new StoreValidationError(
    what,
    parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'} ${issue.message}`),
  );
}

/**
 * The database cannot be reached, dropped the connection, or did not answer within its bound. The
 * operation did not complete (a transaction was rolled back); the next one may well succeed. The
 * message names the kind of failure, never the connection URL.
 */
export class StoreUnavailableError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'timeout',
    options?: { cause?: unknown },
  ) {
    super(
      reason === 'timeout'
        ? 'The database did not answer in time'
        : 'The database is unreachable or dropped the connection',
      options,
    );
    this.name = 'StoreUnavailableError';
  }
}

/** Socket-level failures (Node's codes) that mean the database is out of reach. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Whether a PostgreSQL driver error means "unavailable" rather than "this query is wrong": SQLSTATE
 * class 08 (connection exception), 57P01–03 (the server terminated the backend or is shutting down:
 * pg_terminate_backend, a restart), 53300 (too many connections), 57014 (cancelled by
 * statement_timeout), and node-postgres's own connection and timeout messages.
 */
export function classifyPostgresError(error: unknown): StoreUnavailableError['reason'] | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code === '57014') return 'timeout';
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)) return 'unreachable';
    if (NETWORK_CODES.has(code)) return code === 'ETIMEDOUT' ? 'timeout' : 'unreachable';
  }
  if (
    /timeout exceeded when trying to connect|connection timeout|timeout expired|Query read timeout/i.test(
      error.message,
    )
  ) {
    return 'timeout';
  }
  if (/Connection terminated|not queryable|Client was closed/i.test(error.message)) return 'unreachable';
  return undefined;
}

/**
 * The SQLite file or its folder cannot be written: start-up stops with this one line instead of
 * running until the first write fails (the path is named; it holds no secret).
 */
export class StoreNotWritableError extends Error {
  constructor(what: string, options?: { cause?: unknown }) {
    super(
      `${what}: the app must be able to write there (check its owner and permissions, or set DATA_DIR)`,
      options,
    );
    this.name = 'StoreNotWritableError';
  }
}

/** PostgreSQL's SQLSTATE for a statement it aborted to break a deadlock. */
const DEADLOCK = '40P01';

/**
 * Runs one autocommit statement, again (at most `times` more) when PostgreSQL aborted it to break a
 * deadlock: the aborted statement changed nothing, and the other side has gone on by then.
 */
export async function againOnDeadlock<T>(statement: () => Promise<T>, times = 3): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await statement();
    } catch (error) {
      if ((error as { code?: unknown }).code !== DEADLOCK || tries >= times) throw error;
    }
  }
}
