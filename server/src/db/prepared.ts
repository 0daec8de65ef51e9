import { CompiledQuery, SqliteAdapter, type Compilable, type Kysely, type QueryResult, type Transaction } from 'kysely';
import type { SqliteStatements } from './index';
import { toSqliteValue } from './sqlite-values-plugin';
import type { Database } from './types';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * A SQLite connection held by the caller (ctx.db.connection()), whose prepared statements run
 * synchronously: no executor, no mutex and no promise chain per statement. `kysely` is bound to
 * the same connection for statements that are not prepared.
 */
export interface SyncSqlite {
  kysely: Executor;
  statements: SqliteStatements;
}

export type QueryTarget = Executor | SyncSqlite;

/** Unique stand-ins for the arguments while the query is compiled once per dialect. */
const placeholder = (index: number) => `@@sixdigit-prepared-arg-${index}@@`;
const PLACEHOLDER = /^@@sixdigit-prepared-arg-(\d+)@@$/;

interface Plan {
  sql: string;
  /** per bound parameter: the argument index it takes, or a constant from the query itself */
  slots: Array<number | { constant: unknown }>;
  sqlite: boolean;
}

/**
 * A query built and compiled once per dialect, then executed with new arguments: the hot path
 * (every public API call) skips Kysely's per-call building, plugin transforms and compilation.
 * The builder must use its arguments only as bound values (where/values/set), never to shape SQL.
 * Given a SyncSqlite it runs the statement synchronously (the same SQL).
 */
export function preparedQuery<Args extends unknown[], Row>(
  build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>,
): (db: QueryTarget, ...args: Args) => Promise<QueryResult<Row>> {
  const plans = new Map<'sqlite' | 'postgres', Plan>();
  const planFor = (db: Executor, args: Args): Plan => {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    const dialect = sqlite ? 'sqlite' : 'postgres';
    let plan = plans.get(dialect);
    if (!plan) {
      const stand = args.map((_, i) => placeholder(i)) as Args;
      const compiled = build(db as Kysely<Database>, ...stand).compile();
      plan = {
        sql: compiled.sql,
        sqlite,
        slots: compiled.parameters.map((p) => {
          const match = typeof p === 'string' ? PLACEHOLDER.exec(p) : null;
          return match ? Number(match[1]) : { constant: p };
        }),
      };
      plans.set(dialect, plan);
    }
    return plan;
  };
  const bind = (plan: Plan, args: Args) =>
    plan.slots.map((slot) => {
      const value = typeof slot === 'number' ? args[slot] : slot.constant;
      return plan.sqlite ? toSqliteValue(value) : value;
    });
  return async (db, ...args) => {
    if ('statements' in db) {
      const plan = planFor(db.kysely, args);
      const statement = db.statements.prepare(plan.sql);
      if (statement.reader) return { rows: statement.all(bind(plan, args)) as Row[] };
      const { changes } = statement.run(bind(plan, args));
      return { rows: [], numAffectedRows: BigInt(changes) };
    }
    const plan = planFor(db, args);
    return db.executeQuery<Row>(CompiledQuery.raw(plan.sql, bind(plan, args)));
  };
}
