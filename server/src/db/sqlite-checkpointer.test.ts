import { mkdtempSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './index';
import { CHECKPOINT_BACKSTOP_PAGES, SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES, startCheckpointer, type Checkpointer } from './sqlite-checkpointer';

/**
 * SQLITE_CHECKPOINTS=thread: the WAL is copied back into the database file by a thread of its
 * own, so no COMMIT on the event loop runs a checkpoint (the open loop's p99, bench/README.md).
 */
describe('SQLite checkpoints on a thread of their own [sqlite]', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean();
  });

  function freshFile(): string {
    const dir = mkdtempSync(join(tmpdir(), 'sixdigit-checkpoints-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'test.db');
  }

  function writer(file: string): SQLite.Database {
    const connection = new SQLite(file);
    connection.pragma('journal_mode = WAL');
    connection.pragma('synchronous = NORMAL');
    connection.exec('create table blob (id integer primary key, body blob not null)');
    cleanups.push(() => void connection.close());
    return connection;
  }

  function started(file: string, connection: SQLite.Database): Checkpointer {
    const checkpointer = startCheckpointer(file, connection, { intervalMs: 5 });
    cleanups.push(() => checkpointer.close());
    return checkpointer;
  }

  /** `count` transactions of ten ~4 KB rows (about ten pages each), yielding between them as a server would. */
  async function write(connection: SQLite.Database, count: number): Promise<void> {
    const insert = connection.prepare('insert into blob (body) values (randomblob(4000))');
    const transaction = connection.transaction(() => {
      for (let i = 0; i < 10; i++) insert.run();
    });
    for (let i = 0; i < count; i++) {
      transaction();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** What this process's file descriptors point at (Linux): the thread's connection is one of them. */
  function openFiles(): string[] {
    return readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(`/proc/self/fd/${fd}`)];
      } catch {
        return [];
      }
    });
  }

  async function until(condition: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    if (!condition()) throw new Error(`timed out waiting for ${what}`);
  }

  it("copies committed pages into the database file while the writer's own automatic checkpoint is out of reach", async () => {
    const file = freshFile();
    const connection = writer(file);
    const checkpointer = started(file, connection);
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(CHECKPOINT_BACKSTOP_PAGES);

    // ~3,000 pages: three times SQLite's default threshold, a third of the backstop, so the
    // writer never checkpointed and whatever reached the database file was copied by the thread.
    await write(connection, 300);
    await until(() => checkpointer.passes > 0 && statSync(file).size > 10_000_000, 'the thread to copy the WAL into the database file');
    // Nothing is left for a checkpoint to copy.
    await until(() => {
      const [result] = connection.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
      return result!.log === result!.checkpointed;
    }, 'the WAL to be copied completely');
  });

  it('keeps the WAL from growing under sustained writes: it starts again from its beginning once copied', async () => {
    const file = freshFile();
    const connection = writer(file);
    const checkpointer = started(file, connection);
    // ~12,000 pages (~48 MB) in rounds of ~1,000, more than the backstop: without restarts the
    // WAL file would hold them all. Between rounds the writer pauses (as between bursts) until
    // the thread has begun a pass after the round's last commit, so every frame is copied.
    for (let round = 0; round < 12; round++) {
      await write(connection, 100);
      const passes = checkpointer.passes;
      await until(() => checkpointer.passes >= passes + 2, 'a whole pass after the round');
    }
    // The file keeps its largest size: a few rounds at most, not twelve.
    const walPages = statSync(`${file}-wal`).size / 4096;
    expect(walPages).toBeLessThan(3_000);
  });

  it('gives the writer its own automatic checkpoint back when the thread is lost', async () => {
    const file = freshFile();
    const connection = writer(file);
    const checkpointer = started(file, connection);
    await write(connection, 10);
    await checkpointer.kill();
    expect(connection.pragma('wal_autocheckpoint', { simple: true })).toBe(SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES);
    // And the connection works on as before.
    await write(connection, 10);
    expect(connection.prepare('select count(*) as n from blob').get()).toEqual({ n: 200 });
  });

  it('stops the thread before the database closes: no connection to the file is left open', async () => {
    const file = freshFile();
    const db = openDatabase({ kind: 'sqlite', file, checkpoints: 'thread' });
    await db.db.schema.createTable('t').addColumn('n', 'integer').execute();
    expect(db.sqlite!.prepare('pragma wal_autocheckpoint').pluck().get()).toBe(CHECKPOINT_BACKSTOP_PAGES);
    await until(() => openFiles().filter((f) => f === file).length >= 2, "the thread's own connection");
    await db.close();
    expect(openFiles().filter((f) => f.startsWith(file))).toEqual([]);
  });

  it("leaves SQLite's own checkpoints alone when configured so, and in memory", async () => {
    const file = freshFile();
    for (const database of [openDatabase({ kind: 'sqlite', file, checkpoints: 'writer' }), openDatabase({ kind: 'sqlite', file }), openDatabase({ kind: 'sqlite', file: ':memory:', checkpoints: 'thread' })]) {
      expect(database.sqlite!.prepare('pragma wal_autocheckpoint').pluck().get()).toBe(SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES);
      await database.close();
    }
  });
});
