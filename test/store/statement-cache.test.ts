/**
 * The SQLite statement cache Kysely's driver goes through (src/store/database.ts): one prepare per
 * SQL text, results right for every parameter set, bounded, and still right after the schema
 * changes under a kept statement.
 */
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withStatementCache } from '../../src/store/database.js';

interface Db {
  t: { id: number; name: string };
}

const opened: SQLite.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function open(size?: number) {
  const raw = new SQLite(':memory:');
  opened.push(raw);
  raw.exec('create table t (id integer primary key, name text not null)');
  const prepare = vi.spyOn(raw, 'prepare');
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(raw, size) }) });
  return { db, prepare };
}

describe('withStatementCache', () => {
  it('prepares each SQL text once and answers every call with its own parameters', async () => {
    const { db, prepare } = open();
    for (let id = 1; id <= 20; id++)
      await db
        .insertInto('t')
        .values({ id, name: `n${id}` })
        .execute();
    const names: string[] = [];
    for (let id = 1; id <= 20; id++) {
      const row = await db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirstOrThrow();
      names.push(row.name);
    }
    expect(names).toEqual(Array.from({ length: 20 }, (_, i) => `n${i + 1}`));
    // One insert text and one select text.
    expect(prepare).toHaveBeenCalledTimes(2);
    const updated = await db.updateTable('t').set({ name: 'x' }).where('id', '<=', 5).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(5n);
  });

  it('keeps at most `size` statements, the least recently used dropped first', async () => {
    const { db, prepare } = open(2);
    const byId = (id: number) => db.selectFrom('t').select('id').where('id', '=', id);
    const byName = (name: string) => db.selectFrom('t').select('id').where('name', '=', name);
    const all = () => db.selectFrom('t').select('id');
    await byId(1).execute(); // prepared: [byId]
    await byName('a').execute(); // prepared: [byId, byName]
    await byId(2).execute(); // kept; byId most recent
    expect(prepare).toHaveBeenCalledTimes(2);
    await all().execute(); // drops byName
    await byId(3).execute(); // still kept
    expect(prepare).toHaveBeenCalledTimes(3);
    await byName('b').execute(); // prepared again
    expect(prepare).toHaveBeenCalledTimes(4);
  });

  it('a kept statement still works after the table changes under it', async () => {
    const { db } = open();
    await db.insertInto('t').values({ id: 1, name: 'one' }).execute();
    const read = () => db.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(await read()).toEqual({ id: 1, name: 'one' });
    await sql`alter table t add column extra text default 'e'`.execute(db);
    expect(await read()).toEqual({ id: 1, name: 'one', extra: 'e' });
  });

  it('closing closes the database', async () => {
    const { db } = open();
    await db.selectFrom('t').selectAll().execute();
    await db.destroy();
    expect(opened[0]?.open).toBe(false);
  });
});
