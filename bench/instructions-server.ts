/**
 * One side of `bench/instructions.ts`, run under valgrind's callgrind with instrumentation off
 * until the measured stretch: the server of checkout `dir` on a copy of the seeded SQLite file,
 * and in the same process a client keeping 50 managed-mode checks in flight. Callgrind counts the
 * instructions of both; the client's share is the same for every checkout. `dir` may also name a
 * yardstick: `ceiling` (bench/ceiling-app.ts, the same stack with no storage) or `bare` (Node's
 * HTTP server answering a fixed body: the client's share and Node's own HTTP).
 *
 *   node --import tsx bench/instructions-server.ts <dir> <seeded.db> <seed.json> <work.db> [<postgres url>]
 *
 * With a PostgreSQL URL (BENCH_INSTR_DB=postgres), the server uses that database (a copy of the
 * seeded one) instead of a copy of the SQLite file; `work.db` then only names the marker files.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';

const [dir, seededDb, seedFile, workDb, postgresUrl] = process.argv.slice(2) as [string, string, string, string, string | undefined];
const WARM = Number(process.env.BENCH_INSTR_WARM ?? 1_500);
const CHECKS = Number(process.env.BENCH_INSTR_CHECKS ?? 3_000);
const IN_FLIGHT = Number(process.env.BENCH_INSTR_IN_FLIGHT ?? 50);
const seed = JSON.parse(readFileSync(seedFile, 'utf8')) as { apiKey: string; secret: string; env: Record<string, string> };

/** The checkout's own server (its services, hooks and statements) on a copy of the seeded file, or a yardstick. */
async function serve(): Promise<{ port: number; close: () => Promise<unknown> }> {
  if (dir === 'bare') {
    // Node's own HTTP server answering a fixed body: what the client and Node's HTTP cost.
    const answer = JSON.stringify({ verified: true });
    const bare = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer));
    });
    await new Promise<void>((listening) => bare.listen(0, '127.0.0.1', listening));
    return { port: (bare.address() as AddressInfo).port, close: () => new Promise((closed) => bare.close(closed)) };
  }
  if (dir === 'ceiling') {
    const { buildCeilingApp } = await import('./ceiling-app');
    const ceiling = buildCeilingApp(seed.secret);
    await ceiling.listen({ port: 0, host: '127.0.0.1' });
    return { port: (ceiling.server.address() as AddressInfo).port, close: () => ceiling.close() };
  }
  if (!postgresUrl) {
    for (const f of [workDb, `${workDb}-wal`, `${workDb}-shm`]) rmSync(f, { force: true });
    copyFileSync(seededDb, workDb);
  }
  const { loadConfig } = (await import(`${dir}/server/src/config.ts`)) as typeof import('../server/src/config');
  const { createContext, migrateToLatest } = (await import(`${dir}/server/src/context.ts`)) as typeof import('../server/src/context');
  const { buildApp } = (await import(`${dir}/server/src/app.ts`)) as typeof import('../server/src/app');
  const ctx = createContext(loadConfig({ ...seed.env, DATABASE_URL: postgresUrl ?? `sqlite:${workDb}` }));
  await migrateToLatest(ctx);
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}
const { port, close } = await serve();

const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const totp = new TOTP({ secret: Secret.fromBase32(seed.secret) });
let nextUser = 0;

function check(): Promise<void> {
  const body = JSON.stringify({ user_id: `bench_${nextUser++}`, totp_code: totp.generate() });
  const headers = { authorization: `Bearer ${seed.apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  return new Promise((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/api/v1/verify', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => (res.statusCode === 200 && text.includes('"verified":true') ? resolve() : reject(new Error(`${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function checks(n: number): Promise<void> {
  let left = n;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (left-- > 0) await check();
  }));
}

/**
 * callgrind_control asks this process through valgrind's gdbserver, which answers only while the
 * process runs: so it spins (a stat per turn) until the helper says the switch was made.
 */
function instrumentation(on: boolean): void {
  const marker = `${workDb}.switched`;
  rmSync(marker, { force: true });
  spawn('sh', ['-c', `callgrind_control -i ${on ? 'on' : 'off'} ${process.pid} >/dev/null 2>&1; touch ${marker}`], { detached: true, stdio: 'ignore' }).unref();
  const started = Date.now();
  while (!existsSync(marker)) if (Date.now() - started > 120_000) throw new Error('callgrind_control did not answer');
}

// A full collection between two warm-ups, so that no checkout's window holds a major GC that
// another's does not (one costs ~180k instructions a check here, and moves the mutator's figure
// by ~40k); the second warm-up makes again what the collection threw away of compiled code.
await checks(WARM);
(globalThis as { gc?: () => void }).gc?.();
await checks(WARM);
instrumentation(true);
await checks(CHECKS);
instrumentation(false);
await close();
process.exit(0);
