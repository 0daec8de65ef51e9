import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/db';
import type { Db } from './index';

/**
 * SQLite: every Kysely transaction takes the write lock when it begins. A deferred transaction that
 * read first fails with SQLITE_BUSY_SNAPSHOT, without waiting, when it comes to write after another
 * connection committed in between: the CLI granting credits while the server runs, or the verify
 * writer thread (SQLITE_WRITER=thread).
 */
describe('SQLite transactions [sqlite]', () => {
  let database: TestDatabase;
  let db: Db;
  let other: SQLite.Database;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    db = database.open();
    await db.db.schema.createTable('counter').addColumn('n', 'integer').execute();
    await db.db.insertInto('counter' as never).values({ n: 0 } as never).execute();
    if (database.config.kind !== 'sqlite') throw new Error('sqlite only');
    other = new SQLite(database.config.file);
    other.pragma('busy_timeout = 0');
  });
  afterAll(async () => {
    other?.close();
    await db?.close();
    await database?.drop();
  });

  it('holds the write lock from BEGIN: another connection cannot start writing while a transaction that has only read is open', async () => {
    await db.db.transaction().execute(async (trx) => {
      await trx.selectFrom('counter' as never).selectAll().execute();
      expect(() => other.prepare('begin immediate').run()).toThrow(/locked|busy/i);
    });
    // Released at COMMIT.
    other.prepare('begin immediate').run();
    other.prepare('rollback').run();
  });

});
