/**
 * SQLite's live groups, each read, decided and written in one synchronous call
 * (sqlite-group-write.ts): on the event loop's connection (SqliteLoopWriter, the default), or on
 * a writer thread with its own connection to the database file (SqliteGroupWriter,
 * sqlite-writer.worker.ts). With the thread, the event loop that parses HTTP never runs a
 * group's statements, its decryption or its TOTP checks; a group crosses as one message each
 * way. Either way the answer comes back only after the group's COMMIT.
 *
 * What only the careful way can do (a debit that crosses a line with a mail, an event or an
 * auto-refill behind it, a business with live webhook endpoints, one that cannot pay) the group
 * write refuses: it rolls back and the caller writes the group the careful way, as PostgreSQL's
 * one-message write does.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { projectPath } from '../../lib/paths';
import type { LiveGroupWriter, WriterCheck, WriterReply } from './live-group';

export type { LiveGroupWriter, WriterCheck, WriterOutcome, WriterReply } from './live-group';

export interface WriterRequest {
  seq: number;
  checks: WriterCheck[];
}

export interface WriterSetup {
  file: string;
  encryptionKey: string;
  /** The thread's connection's automatic checkpoint (pages): the backstop when the checkpoint thread runs. */
  walAutocheckpointPages: number;
}

/** The thread died (or never started) with this group in flight: it may or may not have committed. */
export class WriterLost extends Error {
  constructor(override readonly cause: unknown) {
    super(`the SQLite writer thread stopped with a group in flight: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * The group write on the event loop's own connection (the default, SQLITE_WRITER=event-loop):
 * one synchronous call per group, run while holding the connection (`hold`, Kysely's), so it
 * never lands inside another request's transaction.
 */
export class SqliteLoopWriter implements LiveGroupWriter {
  /** Synchronous: a second group in flight would only wait for the first. */
  readonly inFlight = 1;
  readonly counts = { written: 0, refused: 0, failed: 0 };

  constructor(
    private readonly writeGroup: (checks: WriterCheck[], receivedAt: number) => WriterReply,
    private readonly hold: <T>(work: () => T) => Promise<T>,
  ) {}

  async write(checks: WriterCheck[]): Promise<WriterReply> {
    const reply = await this.hold(() => this.writeGroup(checks, performance.now()));
    this.counts[reply.kind]++;
    if (reply.kind === 'failed') process.emitWarning(`a group of checks went the careful way: ${reply.message}`, { code: 'SIXDIGIT_SQLITE_WRITER' });
    return reply;
  }
}

const LOST_LIMIT = 3;
const LOST_WINDOW_MS = 60_000;

/** The writer thread (SQLITE_WRITER=thread). */
export class SqliteGroupWriter implements LiveGroupWriter {
  /** The next group is formed and sent while the thread writes one (bench/README.md, fourth round). */
  readonly inFlight = 2;
  private worker: Worker | null = null;
  private seq = 0;
  private readonly pending = new Map<number, { worker: Worker; resolve: (reply: WriterReply) => void; reject: (err: Error) => void }>();
  private closed = false;
  /** When threads were lost lately: after LOST_LIMIT within LOST_WINDOW_MS, no new one for that long. */
  private lostAt: number[] = [];
  /** Groups by how the thread answered them, and threads started (a restart follows a lost thread). */
  readonly counts = { written: 0, refused: 0, failed: 0, started: 0 };

  constructor(private readonly setup: WriterSetup) {}

  write(checks: WriterCheck[]): Promise<WriterReply> {
    if (this.closed) return Promise.reject(new Error('the SQLite writer is closed'));
    // A thread that keeps dying (it cannot open the file, say) is not restarted for every group:
    // for a while, every group goes the careful way on the event loop.
    const now = Date.now();
    this.lostAt = this.lostAt.filter((t) => t > now - LOST_WINDOW_MS);
    if (!this.worker && this.lostAt.length >= LOST_LIMIT) return Promise.resolve({ kind: 'failed', message: 'the writer thread is paused after repeated losses' });
    const worker = this.worker ?? this.start();
    const seq = ++this.seq;
    return new Promise<WriterReply>((resolve, reject) => {
      this.pending.set(seq, { worker, resolve, reject });
      worker.postMessage({ seq, checks } satisfies WriterRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    // Groups in flight finish (their callers are answered) before the thread goes.
    while (this.pending.size > 0) await new Promise((r) => setTimeout(r, 5));
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    const options = {
      workerData: this.setup,
      // The thread's own heap: it holds one group's rows at a time.
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 64 },
    };
    // Run from the bundle `npm start` runs (scripts/build-server.ts), the thread's module was
    // bundled beside this code. Run from the TypeScript (tests, `npm run dev`), the thread loads it
    // as the main thread does: Node 20 does not pass --import hooks on to a worker, so the thread
    // registers tsx itself first; the path comes from the root, as this module may be a bundle.
    const bundled = new URL('./sqlite-writer.worker.js', import.meta.url);
    let worker: Worker;
    if (existsSync(bundled)) worker = new Worker(bundled, options);
    else {
      const tsx = import.meta.resolve('tsx/esm/api');
      const source = pathToFileURL(projectPath('server', 'src', 'features', 'verify', 'sqlite-writer.worker.ts')).href;
      worker = new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`, { ...options, eval: true });
    }
    // A thread waiting for work does not keep the process alive.
    worker.unref();
    this.counts.started++;
    worker.on('message', (message: { seq: number; reply: WriterReply }) => {
      const waiting = this.pending.get(message.seq);
      this.pending.delete(message.seq);
      this.counts[message.reply.kind]++;
      if (message.reply.kind === 'failed') process.emitWarning(`a group of checks went the careful way: ${message.reply.message}`, { code: 'SIXDIGIT_SQLITE_WRITER' });
      waiting?.resolve(message.reply);
    });
    // No new group goes to a thread that failed. Its groups in flight are given up only at 'exit':
    // 'error' can come before replies the thread had already sent (groups it committed), and
    // 'exit' comes after them. Those it had not answered may or may not have committed.
    let failure: unknown;
    worker.on('error', (err) => {
      failure = err;
      if (this.worker === worker) this.worker = null;
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      if (!this.closed) {
        this.lostAt.push(Date.now());
        process.emitWarning(`the SQLite writer thread stopped (exit code ${code}): ${failure instanceof Error ? failure.message : 'no error'}`, { code: 'SIXDIGIT_SQLITE_WRITER' });
      }
      for (const [seq, waiting] of this.pending) {
        if (waiting.worker !== worker) continue;
        this.pending.delete(seq);
        waiting.reject(new WriterLost(failure ?? new Error(`exited with code ${code}`)));
      }
    });
    this.worker = worker;
    return worker;
  }
}
