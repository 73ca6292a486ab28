/**
 * PostgreSQL for tests: the server at TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * each run isolated in a schema of its own (random name, dropped afterwards), so parallel files and
 * runs never collide.
 *
 * Where the server is unreachable, PostgreSQL suites skip with a loud warning, so a clone without
 * a database still passes; with REQUIRE_POSTGRES=1 (set by .ci/run) or CI set, they fail instead.
 *
 * ```ts
 * describeWithPostgres('digest on PostgreSQL', () => {
 *   let pg: PgSchema;
 *   beforeAll(async () => { pg = await withPgSchema('digest'); });
 *   afterAll(() => pg.drop());
 *   // openStore({ databaseUrl: pg.url, pgSchema: pg.schema, keyring })
 * });
 * ```
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import { withSearchPath } from '../../src/store/database.js';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** True when PostgreSQL tests must run (REQUIRE_POSTGRES=1 or CI): unreachable is then a failure. */
export function postgresRequired(): boolean {
  return process.env.REQUIRE_POSTGRES === '1' || Boolean(process.env.CI);
}

async function probe(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

// Probed once per test file, before any describe() runs, so suites can be declared, skipped or
// failed synchronously. Undefined when the server answers, else why not.
const unreachable = await probe();

/** Whether the test server answers. */
export async function postgresAvailable(): Promise<boolean> {
  return unreachable === undefined;
}

/** The server's address without credentials, for messages. */
function where(): string {
  const url = new URL(TEST_DATABASE_URL);
  return `${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/**
 * `describe` for suites that need PostgreSQL: runs them when the server answers; otherwise fails
 * (REQUIRE_POSTGRES=1 or CI) or skips with a warning.
 */
export function describeWithPostgres(name: string, body: () => void): void {
  if (unreachable === undefined) {
    describe(name, body);
    return;
  }
  const message = `PostgreSQL at ${where()} is unreachable (${unreachable}). Start it or set TEST_DATABASE_URL.`;
  if (postgresRequired()) {
    describe(name, () => {
      it('needs PostgreSQL (REQUIRE_POSTGRES=1 or CI is set)', () => {
        throw new Error(message);
      });
    });
    return;
  }
  console.warn(`\n  !! SKIPPED "${name}": ${message}\n`);
  describe.skip(name, body);
}

export interface PgSchema {
  /** TEST_DATABASE_URL whose connections start in the schema (search_path set). */
  url: string;
  /** The schema's name (for openStore's pgSchema). */
  schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

async function run(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** Creates a fresh schema with a random name (`t_<prefix>_<hex>`). */
export async function withPgSchema(prefix = 'test'): Promise<PgSchema> {
  const schema = `t_${prefix.replace(/\W/g, '_').slice(0, 30)}_${randomBytes(6).toString('hex')}`;
  await run(`create schema "${schema}"`);
  return {
    url: withSearchPath(TEST_DATABASE_URL, schema),
    schema,
    drop: () => run(`drop schema if exists "${schema}" cascade`),
  };
}
