/**
 * An open-loop load generator: requests are sent at a fixed rate whatever the server does, each
 * on its own schedule (request k is due at start + k / rate). A request that finds every
 * connection busy when it falls due is measured from that INTENDED send time to the end of its
 * answer, so a server that stalls pays for every request that should have been sent during the
 * stall (no coordinated omission); one sent on an idle connection is measured from its send, less
 * at most one timer tick (the pacer's own timer fires up to ~1 ms late, which is not the server's
 * latency). The pacing
 * is even: due requests go out as they fall due, one per idle connection, never a whole
 * connection pool at once per tick (autocannon's `overallRate` does that and adds its own
 * queueing). HTTP/1.1 keep-alive on raw sockets, a minimal answer parser: the generator costs
 * far less CPU than the servers it measures.
 */
import { connect, type Socket } from 'node:net';

export interface OpenLoopOptions {
  port: number;
  /** requests per second */
  rate: number;
  seconds: number;
  connections: number;
  next: () => { key: string; body: string };
  path?: string;
}

export interface OpenLoopResult {
  rate: number;
  seconds: number;
  sent: number;
  completed: number;
  /** answered per second over the run (below `rate` when the server could not keep up) */
  achievedRps: number;
  errors: number;
  status5xx: number;
  notVerified: number;
  byStatus: Record<number, number>;
  /** milliseconds, from each request's intended send time */
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

interface Conn {
  socket: Socket;
  /** intended send time of the request on this connection, or -1 when idle */
  intended: number;
  chunks: Buffer[];
  length: number;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const VERIFIED = Buffer.from('"verified":true');

export function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const { port, rate, seconds, connections, next } = options;
  const path = options.path ?? '/api/v1/verify';
  const total = Math.max(1, Math.round(rate * seconds));
  const interval = 1000 / rate;
  const latencies = new Float64Array(total);
  const byStatus: Record<number, number> = {};
  let completed = 0;
  let errors = 0;
  let notVerified = 0;
  let sent = 0;
  let scheduled = 0;
  /** intended send times of due requests waiting for an idle connection */
  const due: number[] = [];
  let dueHead = 0;
  const idle: Conn[] = [];
  const conns: Conn[] = [];
  let start = 0;
  let timer: NodeJS.Timeout | undefined;
  let finish: (() => void) | undefined;

  const request = (): Buffer => {
    const { key, body } = next();
    return Buffer.from(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };

  const send = (conn: Conn, intended: number) => {
    conn.intended = intended;
    sent++;
    conn.socket.write(request());
  };

  const settle = (conn: Conn, status: number, body: Buffer | null) => {
    const now = performance.now();
    if (status === 0) errors++;
    else {
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (status === 200 && body && body.indexOf(VERIFIED) === -1) notVerified++;
    }
    latencies[completed++] = now - conn.intended;
    conn.intended = -1;
    if (dueHead < due.length) send(conn, due[dueHead++]!);
    else idle.push(conn);
    if (completed === total) finish?.();
  };

  /** Parses as many complete answers as have arrived (one at a time on a connection). */
  const onData = (conn: Conn, chunk: Buffer) => {
    conn.chunks.push(chunk);
    conn.length += chunk.length;
    const buf = conn.chunks.length === 1 ? conn.chunks[0]! : Buffer.concat(conn.chunks, conn.length);
    const headerEnd = buf.indexOf(HEADER_END);
    if (headerEnd === -1) {
      conn.chunks = [buf];
      return;
    }
    const head = buf.toString('latin1', 0, headerEnd);
    const status = Number(head.slice(9, 12));
    const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const bodyLength = m ? Number(m[1]) : 0;
    const end = headerEnd + 4 + bodyLength;
    if (buf.length < end) {
      conn.chunks = [buf];
      return;
    }
    const rest = buf.length > end ? buf.subarray(end) : null;
    conn.chunks = rest ? [rest] : [];
    conn.length = rest ? rest.length : 0;
    settle(conn, status, buf.subarray(headerEnd + 4, end));
  };

  const open = (): Conn => {
    const conn: Conn = { socket: connect({ port, host: '127.0.0.1', noDelay: true }), intended: -1, chunks: [], length: 0 };
    conn.socket.on('data', (chunk: Buffer) => onData(conn, chunk));
    const lost = () => {
      // An answer that never came counts as an error; the connection is replaced.
      const k = conns.indexOf(conn);
      if (k === -1) return;
      conns.splice(k, 1);
      const i = idle.indexOf(conn);
      if (i !== -1) idle.splice(i, 1);
      if (conn.intended >= 0) settle(conn, 0, null);
      if (completed < total) {
        const fresh = open();
        fresh.socket.once('connect', () => {
          if (fresh.intended === -1 && !idle.includes(fresh)) {
            if (dueHead < due.length) send(fresh, due[dueHead++]!);
            else idle.push(fresh);
          }
        });
      }
    };
    conn.socket.on('error', lost);
    conn.socket.on('close', lost);
    conns.push(conn);
    return conn;
  };

  const tick = () => {
    const now = performance.now();
    while (scheduled < total && start + scheduled * interval <= now) {
      const intended = start + scheduled * interval;
      scheduled++;
      const conn = idle.pop();
      // Node's timers fire on whole milliseconds, so a request goes out up to ~1 ms after it fell
      // due even with a connection idle: that one timer tick is the pacer's lateness, not the
      // server's, and is forgiven — any later than that (the generator's own stalls, the CPU it
      // shares with the server) still counts. A request that found every connection busy waited
      // for the server: its latency counts from when it fell due (no coordinated omission).
      if (conn) send(conn, Math.min(performance.now(), intended + TIMER_TICK_MS));
      else due.push(intended);
    }
    if (dueHead > 4096 && dueHead * 2 > due.length) {
      due.splice(0, dueHead);
      dueHead = 0;
    }
    if (scheduled < total) timer = setTimeout(tick, Math.max(0, start + scheduled * interval - performance.now()));
  };

  return new Promise<OpenLoopResult>((resolve) => {
    const ready = Array.from({ length: connections }, () => {
      const conn = open();
      return new Promise<void>((ok) => conn.socket.once('connect', () => (idle.push(conn), ok())));
    });
    void Promise.all(ready).then(() => {
      start = performance.now();
      let ended = false;
      const done = () => {
        if (ended) return;
        ended = true;
        if (timer) clearTimeout(timer);
        clearTimeout(deadline);
        const elapsed = (performance.now() - start) / 1000;
        for (const c of conns.splice(0)) c.socket.destroy();
        const sorted = latencies.subarray(0, completed).sort();
        const at = (q: number) => (completed === 0 ? 0 : round(sorted[Math.min(completed - 1, Math.floor(q * completed))]!));
        const status5xx = Object.entries(byStatus).reduce((n, [s, c]) => (Number(s) >= 500 ? n + c : n), 0);
        resolve({
          rate,
          seconds,
          sent,
          completed,
          achievedRps: Math.round(completed / Math.max(elapsed, seconds)),
          errors: errors + (total - completed),
          status5xx,
          notVerified,
          byStatus,
          p50: at(0.5),
          p90: at(0.9),
          p99: at(0.99),
          p999: at(0.999),
          max: completed === 0 ? 0 : round(sorted[completed - 1]!),
        });
      };
      finish = done;
      // Answers still missing 10 s after the last one was due count as errors.
      const deadline = setTimeout(done, seconds * 1000 + 10_000);
      tick();
    });
  });
}

/** Node's timer resolution: what the pacer itself may be late by. */
const TIMER_TICK_MS = 1;

const round = (ms: number) => Math.round(ms * 100) / 100;
