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

  function started(file: string, connection: SQLite.Database, options: { restartAfterPages?: number } = {}): Checkpointer {
    const checkpointer = startCheckpointer(file, connection, { intervalMs: 5, ...options });
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

  it('starts the WAL again itself under a writer that never pauses, instead of leaving it to the backstop', async () => {
    const file = freshFile();
    const connection = writer(file);
    // As the server's connections wait (openDatabase): a restart holds writers off for a moment.
    connection.pragma('busy_timeout = 5000');
    // A low threshold, so that the thread's own restart is reached however the timing falls. At
    // this test's pace the writer often starts the WAL again itself (it began just after a pass
    // that copied every frame): in one run of eight the WAL never grew past 408 pages, and with a
    // threshold of 500 the thread had nothing to restart.
    const checkpointer = started(file, connection, { restartAfterPages: 50 });
    // Transactions of four ~4 KB rows, one a millisecond, as a busy server commits its groups.
    // Left to PASSIVE passes, a writer starts the WAL again only when it happens to begin just
    // after a pass that copied every frame; under the server's load that was rare, the WAL reached
    // the backstop, and its checkpoint ran inside a COMMIT on the event loop. The writer goes on
    // until the thread has started the WAL again, up to ~8,000 pages: below the backstop's 10,000,
    // so the backstop never acts here. (A fixed ~4,000 pages was not always enough for the thread
    // to catch up while the whole suite ran on two cores.)
    const insert = connection.prepare('insert into blob (body) values (randomblob(4000))');
    const transaction = connection.transaction(() => {
      for (let i = 0; i < 4; i++) insert.run();
    });
    for (let i = 0; i < 2_000 && checkpointer.restarts === 0; i++) {
      transaction();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(checkpointer.restarts).toBeGreaterThan(0);
    // The file keeps its largest size: below the backstop, which never had to act.
    expect(statSync(`${file}-wal`).size / 4096).toBeLessThan(CHECKPOINT_BACKSTOP_PAGES);
  });

  it('gives up a restart that a long read would make writers wait for', async () => {
    const file = freshFile();
    const connection = writer(file);
    connection.pragma('busy_timeout = 5000');
    const checkpointer = started(file, connection, { restartAfterPages: 500 });
    const insert = connection.prepare('insert into blob (body) values (randomblob(4000))');
    const transaction = connection.transaction(() => {
      for (let i = 0; i < 4; i++) insert.run();
    });
    for (let i = 0; i < 200; i++) transaction();
    // A read that keeps its snapshot (a backup in progress, a slow report), begun after the last
    // commit: every frame can be copied, but the WAL cannot start again while the read lasts. A
    // RESTART that waited for it with the connection's 5-s timeout would hold writers off that long.
    const reader = new SQLite(file);
    cleanups.push(() => void reader.close());
    reader.prepare('begin').run();
    reader.prepare('select count(*) from blob').get();
    const passes = checkpointer.passes;
    await until(() => checkpointer.passes >= passes + 4, 'passes while the read lasts');
    let slowest = 0;
    for (let i = 0; i < 50; i++) {
      const began = performance.now();
      transaction();
      slowest = Math.max(slowest, performance.now() - began);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(checkpointer.restarts).toBe(0);
    expect(slowest).toBeLessThan(500);
    reader.prepare('commit').run();
    // Once the read ends, the thread starts the WAL again.
    await until(() => checkpointer.restarts > 0, 'a restart after the read ended');
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
