/**
 * Opens the Kysely instance for the chosen backend: PostgreSQL when a URL is given (several replicas
 * share it), otherwise an embedded SQLite file.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
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
}

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

async function openSqlite(options: DatabaseOptions): Promise<OpenedDatabase> {
  const file = options.sqliteFile ?? join(options.dataDir ?? './data', SQLITE_FILE_NAME);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  if (file !== ':memory:') {
    try {
      await enableWal(database);
    } catch (error) {
      database.close();
      throw error;
    }
  }
  database.pragma('foreign_keys = ON');
  // With WAL, NORMAL is durable across application crashes and much faster than FULL.
  database.pragma('synchronous = NORMAL');
  return { db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect(database) }), backend: 'sqlite' };
}

/** bigint columns (epoch ms, counts) come back as JS numbers: every value we store fits. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Concurrent `CREATE SCHEMA IF NOT EXISTS` may still collide in PostgreSQL; the loser ignores it. */
async function ensurePgSchema(databaseUrl: string, schema: string): Promise<void> {
  assertSchemaName(schema);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`create schema if not exists "${schema}"`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  } finally {
    await client.end();
  }
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
  pgSchema: string | undefined,
  logger: StoreLogger,
): Promise<OpenedDatabase> {
  if (pgSchema !== undefined) await ensurePgSchema(databaseUrl, pgSchema);
  const pool = new pg.Pool({
    // Every pooled connection starts in the store's schema; queries stay unqualified.
    connectionString: pgSchema === undefined ? databaseUrl : withSearchPath(databaseUrl, pgSchema),
    types: pgTypes,
  });
  pool.on('error', (error) => logger.warn(`PostgreSQL connection lost while idle: ${error.message}`));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.pgSchema, logger)
    : openSqlite(options);
}
