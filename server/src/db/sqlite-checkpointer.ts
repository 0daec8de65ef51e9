import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's WAL checkpoints on a thread of their own.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past 1,000 pages: on
 * the connection that committed, so on the event loop that also answers HTTP. At a busy
 * customer's 3,000 checks/s that was ~9 checkpoints a second of 2–9 ms each, and every request
 * that arrived meanwhile waited: most of the open loop's p99 (bench/README.md, fifth round).
 *
 * Here a worker thread with its own connection copies the WAL back into the database file with
 * PASSIVE checkpoints: it never waits for the writer and the writer never waits for it. The
 * writing connections keep SQLite's automatic checkpoint only as a backstop, at a far larger WAL
 * (CHECKPOINT_BACKSTOP_PAGES): should the thread fall behind or die, the WAL stays bounded and a
 * writer's own checkpoint completes it, as before. If the thread exits, the event loop's
 * connection gets SQLite's default back.
 *
 * Durability does not change: a checkpoint only copies committed pages from the WAL into the
 * database file, whichever connection runs it; a commit is as durable as it was (WAL,
 * synchronous = NORMAL).
 *
 * The worker is a few lines of plain JavaScript, evaluated (no TypeScript loader, one small
 * isolate).
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
// PASSIVE checkpoints never call the busy handler; the timeout only spares opening a file that
// another connection is recovering or restarting at that moment.
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const control = new Int32Array(workerData.control);
try {
  while (Atomics.load(control, 0) === 0) {
    Atomics.wait(control, 0, 0, workerData.intervalMs);
    // A pass copies what was committed before it began. Passes follow each other while the writer
    // keeps adding, each shorter than the last, so the thread catches up: a writer that then
    // begins finds every frame copied and starts the WAL again from its beginning (the file does
    // not grow).
    for (let pass = 0; pass < 4 && Atomics.load(control, 0) === 0; pass++) {
      const result = checkpoint.get();
      Atomics.add(control, 1, 1);
      if (result.busy !== 0 || result.checkpointed >= result.log) break;
    }
  }
} finally {
  db.close();
}
`;

/** The writing connections' automatic checkpoint while the thread runs: ~40 MB of WAL (4 KB pages). */
export const CHECKPOINT_BACKSTOP_PAGES = 10_000;
/** SQLite's own default, given back to the event loop's connection if the thread is lost. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

export interface Checkpointer {
  /** Checkpoint passes the thread has run. */
  readonly passes: number;
  /** Stops the thread; resolves once its connection is closed. */
  close(): Promise<void>;
  /** Kills the thread as a crash would (tests: the backstop must take over). */
  kill(): Promise<void>;
}

export interface CheckpointerOptions {
  /** How long the thread sleeps between rounds of passes. */
  intervalMs?: number;
  /** The thread failed (it has exited; the backstop holds): for a process warning. */
  onError?: (err: Error) => void;
}

interface Pragmas {
  pragma(source: string): unknown;
  readonly open: boolean;
}

/** Starts the thread for the database `file` and moves `connection`'s automatic checkpoint to the backstop. */
export function startCheckpointer(file: string, connection: Pragmas, options: CheckpointerOptions = {}): Checkpointer {
  // [0]: stop (1); [1]: passes run.
  const control = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3'), control: control.buffer, intervalMs: options.intervalMs ?? 20 },
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  // It never keeps the process alive by itself.
  worker.unref();
  connection.pragma(`wal_autocheckpoint = ${CHECKPOINT_BACKSTOP_PAGES}`);
  let closing = false;
  worker.on('error', (err) => options.onError?.(err));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!closing && connection.open) connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
      resolve();
    }),
  );
  return {
    get passes() {
      return Atomics.load(control, 1);
    },
    async close() {
      closing = true;
      // Held until its connection is closed: unref'd, it would not keep the process up for that.
      worker.ref();
      Atomics.store(control, 0, 1);
      Atomics.notify(control, 0);
      await exited;
    },
    async kill() {
      worker.ref();
      await worker.terminate();
      await exited;
    },
  };
}
