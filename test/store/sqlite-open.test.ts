/**
 * Opening a SQLite file another process holds: the switch to WAL waits for the lock instead of
 * failing at once (it did, with SQLITE_BUSY, when several processes opened a fresh file together).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { newKeyring } from '../helpers/store-backends.js';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-open-'));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('waits for a write in progress elsewhere, then opens in WAL mode', async () => {
  const file = join(dir, 'planning.sqlite');
  const holder = new SQLite(file);
  // A writer holding RESERVED: SQLite answers the switch to WAL with SQLITE_BUSY at once, without
  // calling the busy handler (waiting could deadlock), so only a retry gets through.
  holder.exec('create table other (x); begin immediate; insert into other values (1);');
  // Released while openStore is already trying (another process finishing its start-up).
  const release = setTimeout(() => holder.exec('commit'), 200);
  try {
    const store = await openStore({ sqliteFile: file, keyring: newKeyring() });
    const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(store.db);
    expect(rows[0]?.journal_mode).toBe('wal');
    await store.close();
  } finally {
    clearTimeout(release);
    holder.close();
  }
});
