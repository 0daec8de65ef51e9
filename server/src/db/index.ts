import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { SqliteValuesPlugin } from './sqlite-values-plugin';
import type { Database, Dialect } from './types';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// PostgreSQL's int8 (bigint, count(*)) arrives as a string by default; money and counts are
// integers well inside 2^53, so read them as numbers on both engines.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function openDatabase(database: Config['database'], options: { poolSize?: number } = {}): Db {
  if (database.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: database.url, max: options.poolSize ?? 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (database.file !== ':memory:') mkdirSync(dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new SqliteValuesPlugin()],
  });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
