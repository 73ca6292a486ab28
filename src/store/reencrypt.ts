/**
 * Key rotation's second half: rewrite every ciphertext still under an older key with the current
 * one, a batch per transaction. Each row is rewritten only if unchanged since it was read
 * (compare-and-swap), so a concurrent write is never replaced by an older value.
 */
import type { Expression, Kysely, SqlBool } from 'kysely';
import { aad } from './aad.js';
import { ciphertextPrefix, type Keyring } from './crypto.js';
import type { Database } from './schema.js';

type Row = Record<string, string | null>;

/** Every encrypted column: its table, primary key and the AAD that binds it to its row. */
const SEALED_COLUMNS: ReadonlyArray<{
  table: keyof Database;
  column: string;
  keys: readonly string[];
  aad: (row: Row) => string;
}> = [
  {
    table: 'installations',
    column: 'data',
    keys: ['workspace_id'],
    aad: (r) => aad.installation(r.workspace_id!),
  },
  {
    table: 'installation_users',
    column: 'data',
    keys: ['workspace_id', 'slack_user_id'],
    aad: (r) => aad.installationUser(r.workspace_id!, r.slack_user_id!),
  },
  {
    table: 'workspaces',
    column: 'admin_token',
    keys: ['workspace_id'],
    aad: (r) => aad.workspaceAdmin(r.workspace_id!),
  },
  {
    table: 'identities',
    column: 'token',
    keys: ['workspace_id', 'slack_user_id'],
    aad: (r) => aad.identity(r.workspace_id!, r.slack_user_id!),
  },
  {
    table: 'account_closures',
    column: 'admin_token',
    keys: ['workspace_id', 'service_account_id'],
    aad: (r) => aad.accountClosure(r.workspace_id!, r.service_account_id!),
  },
];

export const REENCRYPT_BATCH_SIZE = 200;

export interface ReencryptResult {
  /** Rows rewritten in all. */
  rows: number;
  /** Rows rewritten per table. */
  byTable: Partial<Record<keyof Database, number>>;
}

/** Rewrites every ciphertext not under the current key; says how many rows changed. */
export async function reencryptAll(
  db: Kysely<Database>,
  keyring: Keyring,
  batchSize = REENCRYPT_BATCH_SIZE,
): Promise<ReencryptResult> {
  // Table and column names come from the list above, so one loose-typed view serves all of them.
  const loose = db as unknown as Kysely<Record<string, Row>>;
  const current = `${ciphertextPrefix(keyring.currentKeyId)}%`;
  const byTable: ReencryptResult['byTable'] = {};
  for (const { table, column, keys, aad: aadOf } of SEALED_COLUMNS) {
    byTable[table] = 0;
    let after: Row | undefined;
    for (;;) {
      let query = loose
        .selectFrom(table)
        .select([...keys, column])
        .where(column, 'is not', null)
        .where(column, 'not like', current)
        .limit(batchSize);
      for (const key of keys) query = query.orderBy(key);
      const last = after;
      if (last) {
        // Keyset paging over the primary key: (k1 > v1) or (k1 = v1 and k2 > v2) …
        query = query.where((eb) =>
          eb.or(
            keys.map((key, i) =>
              eb.and([
                ...keys.slice(0, i).map((k): Expression<SqlBool> => eb(k, '=', last[k]!)),
                eb(key, '>', last[key]!),
              ]),
            ),
          ),
        );
      }
      const batch = await query.execute();
      if (batch.length === 0) break;
      byTable[table] += await loose.transaction().execute(async (trx) => {
        let changed = 0;
        for (const row of batch) {
          const sealed = row[column]!;
          const fresh = keyring.encrypt(keyring.decrypt(sealed, aadOf(row)), aadOf(row));
          let update = trx
            .updateTable(table)
            .set({ [column]: fresh })
            .where(column, '=', sealed);
          for (const key of keys) update = update.where(key, '=', row[key]!);
          const result = await update.executeTakeFirst();
          changed += Number(result.numUpdatedRows);
        }
        return changed;
      });
      if (batch.length < batchSize) break;
      after = batch.at(-1);
    }
  }
  return { rows: Object.values(byTable).reduce((a, b) => a + b, 0), byTable };
}
