/**
 * Other schemas created and dropped while the store migrates (concurrent test runs do this; so may
 * other tenants of a shared server). Kysely's own introspector read every schema by name and failed
 * the migration with `schema "…" does not exist` (3F000) when one vanished under it; the store's
 * migration now looks at its own schema only.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { describeWithPostgres, TEST_DATABASE_URL, withPgSchema } from '../helpers/postgres.js';
import { newKeyring } from '../helpers/store-backends.js';

describeWithPostgres('migrating while other schemas come and go', () => {
  it('every migration succeeds while another connection churns schemas', async () => {
    const churner = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await churner.connect();
    let churning = true;
    const churn = (async () => {
      while (churning) {
        const name = `t_churn_${randomBytes(4).toString('hex')}`;
        await churner.query(`create schema "${name}"; create table "${name}".x (id serial primary key)`);
        await churner.query(`drop schema "${name}" cascade`);
      }
    })();
    // Listened to at once; awaited (and thrown) below.
    churn.catch(() => {});
    const failures: string[] = [];
    try {
      for (let i = 0; i < 15; i++) {
        const schema = await withPgSchema('churn_store');
        try {
          const store = await openStore({
            databaseUrl: schema.url,
            pgSchema: schema.schema,
            keyring: newKeyring(),
          });
          await store.close();
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await schema.drop();
        }
      }
    } finally {
      churning = false;
      await churn;
      await churner.end();
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
