import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { startCheckpointer } from './sqlite-checkpointer';
import { SqliteValuesPlugin } from './sqlite-values-plugin';
import type { Database, Dialect } from './types';

export interface Db {
  db: Kysely<Database>;
  dialect: Dialect;
  /** SQLite only: the connection's cached statements, for synchronous use while holding it */
  sqlite?: SqliteStatements;
  /** PostgreSQL only: the pool under `db`, for the verify path's pinned-connection transaction */
  pgPool?: pg.Pool;
  /**
   * PostgreSQL only: a pool of `size` more connections to the same database that send each query
   * without waiting for the one before it to be answered (pg's pipeline mode), closed with `db`.
   * For a caller that owns every query on its connections (the live verify writer): Kysely's
   * pool stays one query at a time.
   */
  openPipelinedPool?: (size: number) => pg.Pool;
  /** Runs `hook` (a writer thread's close, say) before the database closes. */
  onClose(hook: () => Promise<void>): void;
  close(): Promise<void>;
}

export interface SqliteStatements {
  prepare(sql: string): SQLite.Statement;
  readonly inTransaction: boolean;
}

// PostgreSQL's int8 (bigint, count(*)) arrives as a string by default; money and counts are
// integers well inside 2^53, so read them as numbers on both engines.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Kysely's SQLite driver prepares every statement anew; the same few statements run on every
 * API call, so keep them prepared. Safe: one connection, and the driver runs each statement to
 * completion synchronously.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(text: string) {
      // Every transaction takes the write lock when it begins. A deferred one that read first
      // would fail with SQLITE_BUSY_SNAPSHOT (no busy wait) when it comes to write after another
      // connection (the verify writer thread, a second process) committed in between.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let statement = cache.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
    get inTransaction() {
      return sqlite.inTransaction;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

function closing(destroy: () => Promise<void>): Pick<Db, 'onClose' | 'close'> {
  const hooks: Array<() => Promise<void>> = [];
  return {
    onClose: (hook) => void hooks.push(hook),
    close: async () => {
      // Idle PostgreSQL connections do not hold the process open (allowExitOnIdle, and the group
      // writer's kept ones), and while they end nothing else may: the process could exit before
      // their ends were acknowledged, with close() never settled and the code after it never run
      // (seen: a script that closed, then dropped its database, exited 13 with it still there).
      // Held for at most 30 s, so a connection that never ends cannot keep a process alive.
      const holdOpen = setTimeout(() => undefined, 30_000);
      try {
        await Promise.all(hooks.splice(0).map((hook) => hook()));
        await destroy();
      } finally {
        clearTimeout(holdOpen);
      }
    },
  };
}

export function openDatabase(database: Config['database'], options: { poolSize?: number } = {}): Db {
  if (database.kind === 'postgres') {
    // Connections are kept, not closed after 10 s idle (pg-pool's default): a new one costs a
    // backend's start and its first plans of the group's functions, at the moment load rises (seen
    // as new backends in the middle of a steady open-loop run). Idle ones do not hold a
    // command-line process open.
    const keptPool = (max: number, pipeline: boolean) => {
      const kept = new pg.Pool({ connectionString: database.url, max, min: max, allowExitOnIdle: true, ...(pipeline ? { pipeline } : {}) });
      // An idle connection that PostgreSQL ends (a restart, pg_terminate_backend, a network drop)
      // is an 'error' event on its pool, which without a listener ends the process. The pool has
      // already let that connection go and opens another when one is needed.
      kept.on('error', (err) => process.emitWarning(`an idle PostgreSQL connection ended: ${err.message}`, { code: 'SIXDIGIT_PG_IDLE_CONNECTION' }));
      return kept;
    };
    const pool = keptPool(options.poolSize ?? 10, false);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const opened: Db = { db, dialect: 'postgres', pgPool: pool, ...closing(() => db.destroy()) };
    opened.openPipelinedPool = (size) => {
      const pipelined = keptPool(size, true);
      opened.onClose(() => pipelined.end());
      return pipelined;
    };
    return opened;
  }
  if (database.file !== ':memory:') mkdirSync(dirname(database.file), { recursive: true });
  const sqlite = new SQLite(database.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: statements as unknown as SQLite.Database }),
    plugins: [new SqliteValuesPlugin()],
  });
  const opened: Db = { db, dialect: 'sqlite', sqlite: statements, ...closing(() => db.destroy()) };
  if (database.checkpoints === 'thread' && database.file !== ':memory:') {
    const checkpointer = startCheckpointer(database.file, sqlite, {
      onError: (err) => process.emitWarning(`SQLite's checkpoint thread failed; the writers checkpoint themselves again: ${err.message}`, { code: 'SIXDIGIT_SQLITE_CHECKPOINTS' }),
    });
    opened.onClose(() => checkpointer.close());
  }
  return opened;
}
