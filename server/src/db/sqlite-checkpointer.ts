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
 * Copying is not enough to keep the WAL small. A writer starts the WAL again from its beginning
 * only if, when it begins, every frame has been copied; under a writer that never pauses (a
 * group every millisecond or two) a PASSIVE pass always ends a few frames behind, so the WAL grew
 * until the backstop's checkpoint ran inside a COMMIT on the event loop: 40–220 ms every few
 * seconds at 3,000 checks/s (bench/README.md, fifteenth round). So once the WAL holds
 * RESTART_AFTER_PAGES and the passes have copied what they could, the thread runs one RESTART
 * checkpoint: it holds writers off while it copies the last few frames and starts the WAL again,
 * a millisecond or two. It waits at most RESTART_WAIT_MS for the writer and for readers (a long
 * read, such as a backup in progress, makes it give up and try again later) instead of the
 * connection's busy timeout, since writers wait behind it meanwhile.
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
const restart = db.prepare('pragma wal_checkpoint(RESTART)');
const waitLong = db.prepare('pragma busy_timeout = 5000');
const waitShort = db.prepare(\`pragma busy_timeout = \${workerData.restartWaitMs}\`);
const control = new Int32Array(workerData.control);
try {
  while (Atomics.load(control, 0) === 0) {
    Atomics.wait(control, 0, 0, workerData.intervalMs);
    // A pass copies what was committed before it began. Passes follow each other while the writer
    // keeps adding, each shorter than the last, so the thread catches up: a writer that then
    // begins finds every frame copied and starts the WAL again from its beginning (the file does
    // not grow).
    let result = null;
    for (let pass = 0; pass < 4 && Atomics.load(control, 0) === 0; pass++) {
      result = checkpoint.get();
      Atomics.add(control, 1, 1);
      if (result.busy !== 0 || result.checkpointed >= result.log) break;
    }
    // A writer that never paused long enough: start the WAL again here (see the module's comment).
    // Only right after a pass that copied everything it found, so that what is left to copy while
    // writers wait is what they committed during that pass.
    if (result && result.busy === 0 && result.checkpointed >= result.log && result.log >= workerData.restartAfterPages && Atomics.load(control, 0) === 0) {
      waitShort.get();
      try {
        if (restart.get().busy === 0) Atomics.add(control, 2, 1);
      } finally {
        waitLong.get();
      }
    }
  }
} finally {
  db.close();
}
`;

/** The writing connections' automatic checkpoint while the thread runs: ~40 MB of WAL (4 KB pages). */
export const CHECKPOINT_BACKSTOP_PAGES = 10_000;
/**
 * The WAL's size (4 KB pages, ~16 MB) at which the thread starts it again itself: within one
 * block of the wal-index, and at 3,000 checks/s one restart every second or two, each of which may
 * hold a writer's BEGIN for a millisecond or two.
 */
export const RESTART_AFTER_PAGES = 4_000;
/** How long a RESTART checkpoint may wait for the writer and for readers; writers wait behind it meanwhile. */
export const RESTART_WAIT_MS = 10;
/** SQLite's own default, given back to the event loop's connection if the thread is lost. */
export const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

export interface Checkpointer {
  /** Checkpoint passes the thread has run. */
  readonly passes: number;
  /** Times the thread started the WAL again from its beginning (RESTART checkpoints that completed). */
  readonly restarts: number;
  /** Stops the thread; resolves once its connection is closed. */
  close(): Promise<void>;
  /** Kills the thread as a crash would (tests: the backstop must take over). */
  kill(): Promise<void>;
}

export interface CheckpointerOptions {
  /** How long the thread sleeps between rounds of passes. */
  intervalMs?: number;
  /** The WAL's size in pages at which the thread starts it again (RESTART_AFTER_PAGES). */
  restartAfterPages?: number;
  /** The thread failed (it has exited; the backstop holds): for a process warning. */
  onError?: (err: Error) => void;
}

interface Pragmas {
  pragma(source: string): unknown;
  readonly open: boolean;
}

/** Starts the thread for the database `file` and moves `connection`'s automatic checkpoint to the backstop. */
export function startCheckpointer(file: string, connection: Pragmas, options: CheckpointerOptions = {}): Checkpointer {
  // [0]: stop (1); [1]: passes run; [2]: restarts.
  const control = new Int32Array(new SharedArrayBuffer(12));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      control: control.buffer,
      intervalMs: options.intervalMs ?? 20,
      restartAfterPages: options.restartAfterPages ?? RESTART_AFTER_PAGES,
      restartWaitMs: RESTART_WAIT_MS,
    },
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
    get restarts() {
      return Atomics.load(control, 2);
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
