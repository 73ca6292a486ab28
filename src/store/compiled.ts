/**
 * Hot statements built and compiled by Kysely once per database, then executed with each call's
 * values: building a query's tree and compiling it to SQL again on every call was a visible share of
 * a card press (README, Benchmarks). The SQL text stays Kysely's, for SQLite and PostgreSQL alike, and
 * the values still go as bound parameters, never into the text.
 *
 * A statement is written once as a function of its values; at its first use it is built with a
 * placeholder for each value and compiled, and each call then hands the compiled SQL its own
 * values in the placeholders' places. Only plain values can be placeholders — a list for `in` of
 * the call's length, or anything that changes the statement's shape (how many rows an insert
 * writes), cannot: such statements stay built per call. A list of a fixed length, each item a
 * value, can (the press's card read: two kinds, two entities).
 */
import {
  type Compilable,
  type CompiledQuery,
  createQueryId,
  type Kysely,
  type QueryResult,
  type Transaction,
} from 'kysely';
import type { Database } from './schema.js';

/** Stands for the value at `index` of a call while the statement is compiled. */
class Placeholder {
  constructor(readonly index: number) {}
}

/** A statement over `Values` returning rows of `Row`. */
export interface CompiledStatement<Values extends readonly unknown[], Row> {
  run(db: Kysely<Database>, ...values: Values): Promise<QueryResult<Row>>;
  /**
   * Runs it inside `trx`, a transaction of `db`: compiled once for `db` (each transaction is a new
   * object, the SQL is its database's).
   */
  runIn(trx: Transaction<Database>, db: Kysely<Database>, ...values: Values): Promise<QueryResult<Row>>;
}

export function compiledStatement<Values extends readonly unknown[], Row>(
  arity: Values['length'],
  build: (db: Kysely<Database>, ...values: Values) => Compilable<Row>,
): CompiledStatement<Values, Row> {
  // Per database: SQLite and PostgreSQL compile the same statement to different SQL.
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<Row>>();
  const compile = (db: Kysely<Database>): CompiledQuery<Row> => {
    const placeholders = Array.from({ length: arity }, (_, i) => new Placeholder(i)) as unknown as Values;
    const query = build(db, ...placeholders).compile();
    const used = new Set(query.parameters.flatMap((p) => (p instanceof Placeholder ? [p.index] : [])));
    if (used.size !== arity) {
      // A value used outside a parameter (a list, an identifier) would be frozen at its first call.
      throw new Error(
        `a compiled statement must take each of its ${arity} values as a parameter: ${query.sql}`,
      );
    }
    compiled.set(db, query);
    return query;
  };
  const execute = async (on: Kysely<Database>, db: Kysely<Database>, values: Values) => {
    const query = compiled.get(db) ?? compile(db);
    return on.executeQuery<Row>({
      ...query,
      // A query id per execution, as Kysely gives each query it builds.
      queryId: createQueryId(),
      parameters: query.parameters.map((p) => (p instanceof Placeholder ? values[p.index] : p)),
    });
  };
  return {
    run: (db, ...values) => execute(db, db, values),
    runIn: (trx, db, ...values) => execute(trx, db, values),
  };
}
