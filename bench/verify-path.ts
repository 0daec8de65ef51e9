/**
 * `npx tsx bench/verify-path.ts [sqlite|postgres]`: the verify path without HTTP — service.verify
 * (group commit, the group's statements, decryption, the TOTP check, the debit) called in-process,
 * 50 checks in flight like the closed-loop bench — and its CPU time and garbage collections per
 * check. Steadier than the HTTP bench on a shared machine (no load generator, no sockets), so
 * it is the figure to compare a change of the verify path against.
 *
 *   PATH_CHECKS=20000 PATH_WARMUP=4000 PATH_IN_FLIGHT=50
 *   PATH_CPU_PROF=<file.cpuprofile>: a V8 CPU profile of the measured checks only (not the seeding
 *   or the warm-up, which `--cpu-prof` would take in too)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { loadConfig } from '../server/src/config';
import { createContext, migrateToLatest } from '../server/src/context';
import { findBusinessById, setRateLimit } from '../server/src/features/business/repo';
import { createBusiness } from '../server/src/features/business/service';
import { grantCredits } from '../server/src/features/credits/service';
import { insertEnrolments } from '../server/src/features/verify/repo';
import { encryptionContext, verify } from '../server/src/features/verify/service';
import { newId } from '../server/src/lib/ids';

const engine = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const CHECKS = Number(process.env.PATH_CHECKS ?? 20_000);
const WARMUP = Number(process.env.PATH_WARMUP ?? 4_000);
const IN_FLIGHT = Number(process.env.PATH_IN_FLIGHT ?? 50);
const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const dir = mkdtempSync(join(tmpdir(), 'sixdigit-path-'));
let databaseUrl = `sqlite:${join(dir, 'path.db')}`;
const pgName = `sixdigit_path_${Date.now()}`;
if (engine === 'postgres') {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${pgName}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${pgName}`;
  databaseUrl = url.toString();
}
const ctx = createContext(
  loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, APP_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'), ADMIN_EMAIL: 'admin@example.com', DATA_DIR: dir, PORT: '5999', SQLITE_WRITER: process.env.SQLITE_WRITER }),
);
try {
  await migrateToLatest(ctx);
  const authCtx = await ctx.auth.$context;
  const owner = await authCtx.internalAdapter.createUser({ email: 'path@example.com', name: 'Path Owner' }, { method: 'bench' });
  const { profile } = await createBusiness(ctx, { id: owner.id, email: owner.email, firstName: 'Path', lastName: 'Owner', profileImageUrl: null, role: 'user', isAdmin: false }, 'Path Co');
  await setRateLimit(ctx.db, profile.id, 100_000_000);
  const users = CHECKS + WARMUP;
  await grantCredits(ctx.db, { businessIdOrEmail: profile.id, amountPaise: users * 10, reason: 'benchmark' }, { userId: null, label: 'bench' });
  const secret = new Secret({ size: 20 }).base32;
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  for (let start = 0; start < users; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(users, start + 500); i++) {
      const externalUserId = `path_${i}`;
      rows.push({ id: newId('enr'), businessId: profile.id, externalUserId, secretEnc: ctx.secrets.encrypt(secret, encryptionContext(profile.id, externalUserId)), algorithm: 'SHA1' as const, digits: 6, period: 30, purpose: null, livemode: true });
    }
    await insertEnrolments(ctx.db, rows, new Date());
  }
  const business = (await findBusinessById(ctx.db, profile.id))!;

  let next = 0;
  const run = async (count: number) => {
    const end = next + count;
    const worker = async () => {
      while (next < end) {
        const i = next++;
        const result = await verify(ctx, business, true, { user_id: `path_${i}`, totp_code: totp.generate() }, `req-${i}`, undefined, performance.now());
        if (result.body.verified !== true) throw new Error(`check ${i} not verified: ${JSON.stringify(result.body)}`);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  };
  await run(WARMUP);
  const gc = { minor: 0, major: 0, ms: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.minor++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
      gc.ms += e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const profiler = process.env.PATH_CPU_PROF ? new Session() : null;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await run(CHECKS);
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(process.env.PATH_CPU_PROF!, JSON.stringify(profile));
    profiler.disconnect();
  }
  await new Promise((r) => setTimeout(r, 50));
  observer.disconnect();
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(
    `${engine}: ${CHECKS} checks, ${IN_FLIGHT} in flight: CPU ${(((used.user + used.system) / CHECKS)).toFixed(1)} µs/check, wall ${((wall * 1000) / CHECKS).toFixed(1)} µs/check, GC minor ${((gc.minor * 1000) / CHECKS).toFixed(2)} / major ${((gc.major * 1000) / CHECKS).toFixed(2)} per 1k, GC ${(gc.ms / CHECKS * 1000).toFixed(1)} µs/check (load ${load})`,
  );
} finally {
  await ctx.database.close();
  rmSync(dir, { recursive: true, force: true });
  if (engine === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${pgName} with (force)`);
    await admin.end();
  }
}
