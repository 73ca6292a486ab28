/**
 * Hot statements compiled once (src/store/compiled.ts): each call answered with its own values, on
 * SQLite and PostgreSQL, the values bound as parameters, and a statement that would freeze a value
 * into its SQL refused.
 */
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { compiledStatement } from '../../src/store/compiled.js';
import { openDatabase } from '../../src/store/database.js';
import { silentLogger } from '../../src/store/logger.js';
import type { Database } from '../../src/store/schema.js';
import { forEachBackend, newKeyring } from '../helpers/store-backends.js';

forEachBackend('compiledStatement', (backend) => {
  let db: Kysely<Database>;
  beforeEach(async () => {
    await backend.open({ keyring: newKeyring() }); // migrates this test's database
    db = (await openDatabase(backend.location(), silentLogger)).db;
    const rows = [
      { key: 'a', state: 'pending' as const, result: null, expires_at: 10, created_at: 1 },
      { key: 'b', state: 'done' as const, result: 'x', expires_at: 20, created_at: 1 },
      {
        key: "c'; drop table processed_interactions; --",
        state: 'pending' as const,
        result: 'y',
        expires_at: 30,
        created_at: 1,
      },
      { key: 'd', state: 'pending' as const, result: 'd', expires_at: 40, created_at: 1 },
    ];
    await db.insertInto('processed_interactions').values(rows).execute();
  });
  afterEach(async () => {
    await db.destroy();
  });

  it('builds a statement once and answers each call with its own values, as the built query would', async () => {
    const build = vi.fn((d: Kysely<Database>, state: 'pending' | 'done', from: number) =>
      d
        .selectFrom('processed_interactions')
        .select('key')
        .where('state', '=', state)
        .where('expires_at', '>=', from)
        .orderBy('key'),
    );
    const keysOf = compiledStatement(2, build);
    for (const [state, from] of [
      ['pending', 0],
      ['pending', 25],
      ['done', 0],
      ['done', 25],
    ] as const) {
      const expected = await db
        .selectFrom('processed_interactions')
        .select('key')
        .where('state', '=', state)
        .where('expires_at', '>=', from)
        .orderBy('key')
        .execute();
      expect((await keysOf.run(db, state, from)).rows).toEqual(expected);
    }
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('binds values as parameters: a value that looks like SQL is only data', async () => {
    const byKey = compiledStatement(1, (d, key: string) =>
      d.selectFrom('processed_interactions').select(['key', 'result']).where('key', '=', key),
    );
    const tricky = "c'; drop table processed_interactions; --";
    expect((await byKey.run(db, tricky)).rows).toEqual([{ key: tricky, result: 'y' }]);
    expect((await byKey.run(db, 'a')).rows).toEqual([{ key: 'a', result: null }]);
  });

  it('a value used in two places is bound in both; a write reports the rows it touched', async () => {
    const deleteOwn = compiledStatement(1, (d, key: string) =>
      d.deleteFrom('processed_interactions').where('key', '=', key).where('result', '=', key),
    );
    expect((await deleteOwn.run(db, 'b')).numAffectedRows).toBe(0n); // b's result is x
    expect((await deleteOwn.run(db, 'd')).numAffectedRows).toBe(1n);
    const left = await db.selectFrom('processed_interactions').select('key').orderBy('key').execute();
    expect(left.map((r) => r.key)).toEqual(['a', 'b', "c'; drop table processed_interactions; --"]);
  });

  it('runs inside a transaction of its database, compiled once for the database, not per transaction', async () => {
    const build = vi.fn((d: Kysely<Database>, key: string) =>
      d.deleteFrom('processed_interactions').where('key', '=', key),
    );
    const deleteKey = compiledStatement(1, build);
    // Rolled back: the delete was the transaction's, not made on the database beside it.
    await expect(
      db.transaction().execute(async (trx) => {
        expect((await deleteKey.runIn(trx, db, 'a')).numAffectedRows).toBe(1n);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await db.transaction().execute(async (trx) => {
      expect((await deleteKey.runIn(trx, db, 'b')).numAffectedRows).toBe(1n);
    });
    const left = await db.selectFrom('processed_interactions').select('key').orderBy('key').execute();
    expect(left.map((r) => r.key)).toEqual(['a', "c'; drop table processed_interactions; --", 'd']);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('refuses a statement that does not take each of its values as a parameter', async () => {
    const frozen = compiledStatement(2, (d, state: 'pending' | 'done', _unused: number) =>
      d.selectFrom('processed_interactions').select('key').where('state', '=', state),
    );
    await expect(frozen.run(db, 'pending', 1)).rejects.toThrow(/each of its 2 values as a parameter/);
  });
});
