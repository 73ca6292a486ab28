/**
 * Opens the Kysely instance for the chosen backend: PostgreSQL when a URL is given (several replicas
 * share it), otherwise an embedded SQLite file.
 */
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  type ColumnMetadata,
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type DialectAdapter,
  type Driver,
  Kysely,
  type KyselyConfig,
  type LogEvent,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SchemaMetadata,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  sql,
  type TableMetadata,
} from 'kysely';
import pg from 'pg';
import { classifyPostgresError, StoreNotWritableError, StoreUnavailableError } from './errors.js';
import type { StoreLogger } from './logger.js';
import type { Database } from './schema.js';

export type Backend = 'sqlite' | 'postgres';

export const SQLITE_FILE_NAME = 'planning.sqlite';
/** How long a SQLite writer waits for another process's write lock before giving up. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

export interface DatabaseOptions {
  /** postgres:// URL; when absent, SQLite is used. */
  databaseUrl?: string;
  /** Folder of the SQLite file (default ./data). */
  dataDir?: string;
  /** Explicit SQLite file, or ':memory:'; wins over dataDir. */
  sqliteFile?: string;
  /** PostgreSQL schema to work in (created if missing); default: the server's search_path. */
  pgSchema?: string;
  /** PostgreSQL: how long opening a connection may take (default 5 s). */
  connectTimeoutMs?: number;
  /** PostgreSQL: how long one statement may run (server side) or wait for an answer (default 5 s). */
  queryTimeoutMs?: number;
  /** Told of every query that fails (the process's metrics count them). */
  onQueryError?: (error: unknown) => void;
}

/** Kysely's log hook, when someone listens for failed queries (else none: it costs every query an await). */
function errorLog(options: DatabaseOptions): Pick<KyselyConfig, 'log'> {
  const listener = options.onQueryError;
  if (!listener) return {};
  return {
    log: (event: LogEvent) => {
      if (event.level === 'error') listener(event.error);
    },
  };
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_QUERY_TIMEOUT_MS = 5_000;
/** The name the app's connections carry in pg_stat_activity (a URL's application_name wins). */
export const PG_APPLICATION_NAME = 'team-planning-slack';

export interface OpenedDatabase {
  db: Kysely<Database>;
  backend: Backend;
  /** PostgreSQL: the schema the store's tables (and migration tables) live in. */
  schema?: string;
}

/** Schema names go into SQL and connection options unquoted-safe only when plain identifiers. */
function assertSchemaName(schema: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`pgSchema must be a plain SQL identifier, got "${schema}"`);
  }
}

/**
 * SQLite's default deferred BEGIN takes the write lock only at the first write; when another
 * process wrote in between, that upgrade fails at once with SQLITE_BUSY instead of waiting.
 * BEGIN IMMEDIATE takes the lock up front, so busy_timeout applies and transactions from several
 * processes (migrations at start-up, re-encryption) simply queue.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely's SQLite adapter says DDL is not transactional (it is, in SQLite), so its migrator would
 * read the applied migrations and create tables outside any transaction: processes starting together
 * on a fresh file each saw "nothing applied" and all but one failed on "table already exists".
 * Declaring it lets the migrator work inside one BEGIN IMMEDIATE, which serializes them.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Distinct SQL texts whose prepared statements are kept (the store has a few dozen; IN lists vary). */
export const STATEMENT_CACHE_SIZE = 256;

/**
 * The database as Kysely's SQLite driver sees it, with each SQL text prepared once: Kysely calls
 * `prepare` for every query, and compiling the same statement again was a visible part of a
 * command's CPU. Kept statements are reused safely: the driver runs one query at a time (its
 * connection mutex), and SQLite re-prepares a kept statement itself after a schema change. Bounded,
 * least recently used dropped first, because texts with IN lists of varying length differ.
 */
export function withStatementCache(database: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(text) {
      let statement = kept.get(text);
      if (statement) {
        // Most recently used goes last.
        kept.delete(text);
      } else {
        statement = database.prepare(text);
        if (kept.size >= size) kept.delete(kept.keys().next().value as string);
      }
      kept.set(text, statement);
      return statement;
    },
  };
}

class ImmediateSqliteDialect extends SqliteDialect {
  private readonly database: SqliteDatabase;
  constructor(raw: SQLite.Database) {
    const database = withStatementCache(raw);
    super({ database });
    this.database = database;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.database });
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/**
 * Switching a file to WAL takes an exclusive lock that SQLite does not wait for (busy_timeout does
 * not apply): processes opening a fresh file together got SQLITE_BUSY at once. Retry for as long as
 * a writer would wait.
 */
async function enableWal(database: SQLite.Database): Promise<void> {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      await sleep(10 + Math.random() * 20);
    }
  }
}

/** SQLite's answers that mean the file or its folder cannot be written. */
const NOT_WRITABLE_CODES = new Set(['SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PERM', 'SQLITE_IOERR']);

const codeOf = (error: unknown) => String((error as { code?: unknown }).code ?? 'error');

/**
 * The folder exists (created 0700: it holds the tokens) and can be written, and the file exists
 * (created 0600) and can be read and written — or a {@link StoreNotWritableError} says which not.
 */
function prepareSqliteFile(file: string): void {
  const dir = dirname(file);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new StoreNotWritableError(`The data folder ${dir} cannot be written (${codeOf(error)})`, {
      cause: error,
    });
  }
  try {
    if (existsSync(file)) accessSync(file, constants.R_OK | constants.W_OK);
    else closeSync(openSync(file, 'a', 0o600));
  } catch (error) {
    throw new StoreNotWritableError(`The SQLite file ${file} cannot be written (${codeOf(error)})`, {
      cause: error,
    });
  }
}

/**
 * Writes (and rolls back) once, so a file SQLite could only open read-only stops start-up now rather
 * than failing the first user's write. Permission bits do not bind root; this does not rely on them.
 */
function probeWrite(database: SQLite.Database): void {
  database.exec('begin immediate');
  try {
    database.exec('create table _write_probe (x)');
  } finally {
    database.exec('rollback');
  }
}

async function openSqlite(options: DatabaseOptions): Promise<OpenedDatabase> {
  const file = options.sqliteFile ?? join(options.dataDir ?? './data', SQLITE_FILE_NAME);
  if (file !== ':memory:') prepareSqliteFile(file);
  const database = new SQLite(file);
  database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  if (file !== ':memory:') {
    try {
      await enableWal(database);
      probeWrite(database);
    } catch (error) {
      database.close();
      if (!NOT_WRITABLE_CODES.has(codeOf(error))) throw error;
      throw new StoreNotWritableError(`The SQLite file ${file} cannot be written (${codeOf(error)})`, {
        cause: error,
      });
    }
  }
  database.pragma('foreign_keys = ON');
  // With WAL, NORMAL is durable across application crashes and much faster than FULL.
  database.pragma('synchronous = NORMAL');
  return {
    db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect(database), ...errorLog(options) }),
    backend: 'sqlite',
  };
}

/** bigint columns (epoch ms, counts) come back as JS numbers: every value we store fits. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Kysely's PostgreSQL introspector (which its migrator uses to see whether its tables exist) reads
 * every schema in the database and calls has_schema_privilege / pg_get_serial_sequence on each by
 * name: a schema dropped by someone else between its catalog snapshot and those calls failed our
 * migration with `schema "…" does not exist` (3F000). Concurrent test runs drop schemas all the
 * time; so may other tenants of a shared server. This one looks at the store's own schema only.
 */
class SchemaScopedIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<SchemaMetadata>`select current_schema() as name`.execute(this.db);
    return rows.filter((row) => row.name !== null);
  }

  async getTables(options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    const { rows } = await sql<{
      schema: string;
      table: string;
      kind: string;
      column: string;
      type: string;
      nullable: string;
      default: string | null;
    }>`select c.table_schema as schema, c.table_name as table, t.table_type as kind, c.column_name as column,
              c.data_type as type, c.is_nullable as nullable, c.column_default as default
         from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = current_schema()
        order by c.table_name, c.ordinal_position`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: ColumnMetadata[] }>();
    for (const row of rows) {
      if (!options?.withInternalKyselyTables && row.table.startsWith('kysely_migration')) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: row.schema, isView: row.kind === 'VIEW', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        isNullable: row.nullable === 'YES',
        hasDefaultValue: row.default !== null,
        isAutoIncrementing: row.default?.startsWith('nextval(') ?? false,
      });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

class SchemaScopedPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db);
  }
}

/** Concurrent `CREATE SCHEMA IF NOT EXISTS` may still collide in PostgreSQL; the loser ignores it. */
async function ensurePgSchema(databaseUrl: string, schema: string, bounds: PgBounds): Promise<void> {
  assertSchemaName(schema);
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    query_timeout: bounds.queryTimeoutMs,
  });
  // A connection dropped while idle must not become an unhandled 'error' event.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query(`create schema if not exists "${schema}"`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw asStoreError(error);
  } finally {
    await client.end().catch(() => {});
  }
}

interface PgBounds {
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}

/** A driver error that means "unavailable" becomes a {@link StoreUnavailableError}; others pass. */
function asStoreError(error: unknown): unknown {
  const reason = classifyPostgresError(error);
  return reason ? new StoreUnavailableError(reason, { cause: error }) : error;
}

/**
 * What Kysely gets instead of the pg pool: the same pool, with every failure to reach the database
 * turned into a {@link StoreUnavailableError}, and a connection that failed that way destroyed on
 * release instead of going back to the pool (after a client-side read timeout its socket may still
 * deliver the late answer to the next query).
 */
function guardedPool(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw asStoreError(error);
      }
      let broken: Error | undefined;
      return {
        query: ((...args: Parameters<pg.PoolClient['query']>) => {
          const result = (client.query as (...a: unknown[]) => unknown)(...args);
          if (!(result instanceof Promise)) return result; // a cursor: Kysely streams from it
          return result.catch((error: unknown) => {
            const mapped = asStoreError(error);
            if (mapped instanceof StoreUnavailableError) broken = mapped;
            throw mapped;
          });
        }) as PostgresPoolClient['query'],
        release: () => client.release(broken),
      };
    },
    end: () => pool.end(),
  };
}

/**
 * The URL with its connections' search_path set to `schema` (replacing any `options` it had: in
 * pg, the connection string wins over pool options).
 */
export function withSearchPath(databaseUrl: string, schema: string): string {
  assertSchemaName(schema);
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    // URL's own error keeps the input (password included) on the error object.
    throw new Error('the PostgreSQL URL is not a valid URL');
  }
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function openPostgres(
  databaseUrl: string,
  options: DatabaseOptions,
  logger: StoreLogger,
): Promise<OpenedDatabase> {
  const { pgSchema } = options;
  const bounds: PgBounds = {
    connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    queryTimeoutMs: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
  };
  if (pgSchema !== undefined) await ensurePgSchema(databaseUrl, pgSchema, bounds);
  const pool = new pg.Pool({
    // Every pooled connection starts in the store's schema; queries stay unqualified.
    connectionString: pgSchema === undefined ? databaseUrl : withSearchPath(databaseUrl, pgSchema),
    types: pgTypes,
    application_name: PG_APPLICATION_NAME,
    // A server that accepts the connection but never answers must not hang a request forever.
    connectionTimeoutMillis: bounds.connectTimeoutMs,
    // The server cancels a statement running longer than this (57014) and the connection stays usable;
    // the client gives up a little later on its own, for a server that stopped answering altogether.
    statement_timeout: bounds.queryTimeoutMs,
    query_timeout: bounds.queryTimeoutMs + 1_000,
  });
  pool.on('error', (error) => logger.warn(`PostgreSQL connection lost while idle: ${error.message}`));
  // A connection dropped while checked out (pg_terminate_backend, a failover) emits 'error' on its
  // client; with no listener that event ends the process. The query in flight fails on its own
  // (StoreUnavailableError, see guardedPool) and the pool drops the connection on release.
  pool.on('connect', (client) => {
    client.on('error', (error) => logger.warn(`PostgreSQL connection lost while in use: ${error.message}`));
  });
  const db = new Kysely<Database>({
    dialect: new SchemaScopedPostgresDialect({ pool: guardedPool(pool) }),
    ...errorLog(options),
  });
  try {
    // The migrator looks for its tables in every schema unless told which one: name it always.
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const schema = rows[0]?.schema;
    if (!schema) throw new Error('the search_path of DATABASE_URL names no existing schema');
    return { db, backend: 'postgres', schema };
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** Opens (does not migrate) the database the options name. */
export async function openDatabase(options: DatabaseOptions, logger: StoreLogger): Promise<OpenedDatabase> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options, logger) : openSqlite(options);
}
