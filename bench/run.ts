/**
 * `npm run bench`: autocannon against POST /api/v1/verify, each target its own server process
 * (this process only generates load), ceiling and targets in one run on one machine. Prints one
 * table with a pass/fail column per target (bench/README.md has the goals) and writes
 * bench/results/latest.json.
 *
 *   BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_CONNECTIONS=50
 *   BENCH_TARGETS=ceiling,sqlite,sqlite-stateless,postgres,postgres-100,postgres-2x
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { loadConfig } from '../server/src/config';
import { createContext, migrateToLatest, type AppContext } from '../server/src/context';
import { setRateLimit } from '../server/src/features/business/repo';
import { createBusiness } from '../server/src/features/business/service';
import { ledgerTotals } from '../server/src/features/credits/repo';
import { grantCredits } from '../server/src/features/credits/service';
import { insertEnrolments } from '../server/src/features/verify/repo';
import { encryptionContext } from '../server/src/features/verify/service';
import { newId } from '../server/src/lib/ids';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ALL_TARGETS = ['ceiling', 'sqlite', 'sqlite-stateless', 'postgres', 'postgres-100', 'postgres-2x'] as const;
type Target = (typeof ALL_TARGETS)[number];
const TARGETS = (process.env.BENCH_TARGETS ?? ALL_TARGETS.join(',')).split(',') as Target[];
const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');
/** The per-key limit of the two-instance target: reached within the run, shared through Redis. */
const SHARED_LIMIT_PER_MINUTE = Number(process.env.BENCH_SHARED_LIMIT ?? 3_000);
const MAX_RSS_MB = 300;

/** The goals (issue 12): ratio of the ceiling's req/s measured in the same run, and p99. */
const GOALS: Partial<Record<Target, { ratio?: number; p99?: number; note: string }>> = {
  sqlite: { ratio: 0.3, p99: 10, note: '≥ 0.30, p99 ≤ 10 ms' },
  'sqlite-stateless': { ratio: 0.35, note: '≥ 0.35' },
  postgres: { ratio: 0.1, note: '≥ 0.10' },
  'postgres-100': { ratio: 0.15, note: '≥ 0.15' },
  'postgres-2x': { note: `shared limit ${SHARED_LIMIT_PER_MINUTE}/min holds` },
};

/** One secret for every bench user: the server still decrypts and checks per request, and the
 * load generator computes one code per time step instead of one per request. */
const SECRET = new Secret({ size: 20 }).base32;
const totp = new TOTP({ secret: Secret.fromBase32(SECRET) });

interface Outcome {
  target: Target;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  status5xx: number;
  notVerified: number;
  /** server CPU time per measured request (µs): steadier than req/s on a shared machine */
  cpuUsPerRequest?: number;
  rssMb?: number;
  invariant?: string;
  invariantExact?: boolean;
  check?: { ok: boolean; text: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Everything started is stopped and dropped, even on Ctrl-C.
const cleanups: Array<() => Promise<void>> = [];
async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!().catch((err: Error) => console.error(`  cleanup: ${err.message}`));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
}

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(100);
  }
  throw new Error('server did not become healthy');
}

/** The V8 flags `npm start` runs the server with (package.json), so the bench runs it the same way. */
const START_FLAGS = /\bnode ((?:--\S+ )*)--import tsx\b/.exec((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start)?.[1]?.trim().split(/\s+/) ?? [];

function startServer(script: string, env: Record<string, string>): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', 'bench/results/profiles'] : [];
  const child = spawn(process.execPath, [...START_FLAGS, ...profile, '--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanups.push(() => stopServer(child));
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** [user+system CPU ms, resident MB] of a server process, from /proc (Linux). */
function usage(pid: number): { cpuMs: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14, 15)
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuMs: ticks * 10, rssMb: Math.round(Number(rss?.[1] ?? 0) / 1024) };
}

interface Seeded {
  apiKey: string;
  businessId: string;
}

/** One business with credit for every request and `users` enrolled users (managed mode). */
async function seedBusiness(ctx: AppContext, index: number, users: number, credits: number, rateLimit: number): Promise<Seeded> {
  // The owner is made through better-auth's own adapter, as a sign-in would make it.
  const authCtx = await ctx.auth.$context;
  const email = `bench${index}@example.com`;
  const user = (await authCtx.internalAdapter.findUserByEmail(email))?.user ?? (await authCtx.internalAdapter.createUser({ email, name: `Bench Owner ${index}` }, { method: 'bench' }));
  const { profile, apiKey } = await createBusiness(ctx, { id: user.id, email: user.email, firstName: 'Bench', lastName: 'Owner', profileImageUrl: null, role: 'user', isAdmin: false }, `Bench Co ${index}`);
  await setRateLimit(ctx.db, profile.id, rateLimit);
  await grantCredits(ctx.db, { businessIdOrEmail: profile.id, amountPaise: credits * 10, reason: 'benchmark' }, { userId: null, label: 'bench' });
  const now = new Date();
  const batch = 500;
  for (let start = 0; start < users; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(users, start + batch); i++) {
      const externalUserId = `bench_${i}`;
      rows.push({
        id: newId('enr'),
        businessId: profile.id,
        externalUserId,
        secretEnc: ctx.secrets.encrypt(SECRET, encryptionContext(profile.id, externalUserId)),
        algorithm: 'SHA1' as const,
        digits: 6,
        period: 30,
        purpose: null,
        livemode: true,
      });
    }
    await insertEnrolments(ctx.db, rows, now);
  }
  return { apiKey, businessId: profile.id };
}

type Body = () => { key: string; body: string };

function load(port: number, seconds: number, next: Body, connections: number, counts: { notVerified: number; byStatus: Map<number, number> }) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/v1/verify',
            setupRequest: (req) => {
              const { key, body } = next();
              return { ...req, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body };
            },
            onResponse: (status, body) => {
              counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
              if (status === 200 && !body.includes('"verified":true')) counts.notVerified++;
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

const newCounts = () => ({ notVerified: 0, byStatus: new Map<number, number>() });

function summarise(target: Target, results: autocannon.Result[], notVerified: number): Outcome {
  const status5xx = results
    .flatMap((r) => Object.entries(r.statusCodeStats ?? {}))
    .filter(([code]) => Number(code) >= 500)
    .reduce((sum, [, s]) => sum + (s as { count: number }).count, 0);
  return {
    target,
    requests: results.reduce((n, r) => n + r.requests.total, 0),
    rps: Math.round(results.reduce((n, r) => n + r.requests.average, 0)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0),
    status5xx,
    notVerified,
  };
}

async function freshDatabase(target: Target): Promise<string> {
  if (target.startsWith('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'sixdigit-bench-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return `sqlite:${join(dir, 'bench.db')}`;
  }
  const name = `sixdigit_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: PG_ADMIN_URL });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function runCeiling(port: number): Promise<Outcome> {
  const child = startServer('bench/ceiling-server.ts', { PORT: String(port), BENCH_SECRET: SECRET });
  await waitForHealth(port, child);
  let i = 0;
  const next: Body = () => ({ key: 'none', body: JSON.stringify({ user_id: `u${i++}`, totp_code: totp.generate() }) });
  await load(port, WARMUP, next, CONNECTIONS, newCounts());
  const before = usage(child.pid!);
  const counts = newCounts();
  const result = await load(port, DURATION, next, CONNECTIONS, counts);
  const after = usage(child.pid!);
  const outcome = summarise('ceiling', [result], counts.notVerified);
  outcome.cpuUsPerRequest = Math.round(((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, outcome.requests));
  outcome.rssMb = after.rssMb;
  await stopServer(child);
  return outcome;
}

async function runTarget(target: Target, port: number): Promise<Outcome> {
  const databaseUrl = await freshDatabase(target);
  const stateless = target === 'sqlite-stateless';
  const businesses = target === 'postgres-100' ? 100 : 1;
  const instances = target === 'postgres-2x' ? 2 : 1;
  const shared = target === 'postgres-2x';
  // Enough users that none is verified twice (replay protection forbids it in one time step).
  const users = stateless ? 0 : Number(process.env.BENCH_USERS ?? (target === 'sqlite' ? 400_000 : 200_000));
  const usersEach = Math.ceil(users / businesses);
  const redisPrefix = `sixdigit-bench-${Date.now()}:`;
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    APP_ENCRYPTION_KEY: ENCRYPTION_KEY,
    ADMIN_EMAIL: 'admin@example.com',
    HOST: '127.0.0.1',
    DATA_DIR: join(tmpdir(), 'sixdigit-bench-data'),
    ...(shared ? { REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {}),
  };
  if (shared) {
    cleanups.push(async () => {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${redisPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    });
  }
  const ctx = createContext(loadConfig({ ...env, PORT: String(port) }));
  cleanups.push(() => ctx.database.close());
  const seedStart = performance.now();
  await migrateToLatest(ctx);
  const seeded: Seeded[] = [];
  for (let b = 0; b < businesses; b++) {
    const credits = stateless ? 5_000_000 : usersEach;
    seeded.push(await seedBusiness(ctx, b, usersEach, credits, shared ? SHARED_LIMIT_PER_MINUTE : 100_000_000));
  }
  console.error(`  ${target}: seeded ${businesses} business(es), ${users} enrolled users in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const ports = Array.from({ length: instances }, (_, k) => port + k * 10);
  const children = ports.map((p) => startServer('server/src/main.ts', { ...env, PORT: String(p) }));
  for (const [k, child] of children.entries()) await waitForHealth(ports[k]!, child);

  let i = 0;
  const next: Body = stateless
    ? () => ({ key: seeded[0]!.apiKey, body: JSON.stringify({ secret: SECRET, token: totp.generate() }) })
    : () => {
        const n = i++;
        // Round-robin over the businesses, each user of each business once.
        return { key: seeded[n % businesses]!.apiKey, body: JSON.stringify({ user_id: `bench_${Math.floor(n / businesses) % usersEach}`, totp_code: totp.generate() }) };
      };
  const perInstance = Math.max(1, Math.floor(CONNECTIONS / instances));
  const warm = newCounts();
  await Promise.all(ports.map((p) => load(p, WARMUP, next, perInstance, warm)));
  const before = children.map((c) => usage(c.pid!));
  const counts = newCounts();
  const results = await Promise.all(ports.map((p) => load(p, DURATION, next, perInstance, counts)));
  const after = children.map((c) => usage(c.pid!));
  if (!stateless && i > users) console.error(`  ${target}: WARNING ran out of fresh users (${i} requests for ${users} users): replays counted`);
  const outcome = summarise(target, results, counts.notVerified);
  outcome.cpuUsPerRequest = Math.round((after.reduce((n, u, k) => n + u.cpuMs - before[k]!.cpuMs, 0) * 1000) / Math.max(1, outcome.requests));
  outcome.rssMb = Math.max(...after.map((u) => u.rssMb));
  // In-flight requests are finished by the graceful shutdown: the ledger is read after it.
  for (const child of children) await stopServer(child);

  let exact = true;
  let balance = 0;
  let credited = 0;
  let spent = 0;
  for (const s of seeded) {
    const totals = await ledgerTotals(ctx.db, s.businessId);
    exact &&= totals.balancePaise === totals.creditedPaise - totals.spentPaise && totals.balancePaise >= 0;
    balance += totals.balancePaise;
    credited += totals.creditedPaise;
    spent += totals.spentPaise;
  }
  outcome.invariantExact = exact;
  outcome.invariant = `${exact ? 'exact' : 'BROKEN'} (balance ${balance} = credited ${credited} − spent ${spent})`;
  if (shared) {
    // Every answer that was not 429 passed the shared limit (warm-up included: one window).
    const passed = [warm, counts].reduce((n, c) => n + [...c.byStatus].filter(([s]) => s !== 429).reduce((m, [, v]) => m + v, 0), 0);
    const limited = [warm, counts].reduce((n, c) => n + (c.byStatus.get(429) ?? 0), 0);
    const ok = passed <= SHARED_LIMIT_PER_MINUTE && limited > 0 && WARMUP + DURATION < 60;
    outcome.check = { ok, text: `${passed} passed the limit of ${SHARED_LIMIT_PER_MINUTE}/min over 2 instances, ${limited} answered 429` };
  }
  return outcome;
}

function verdict(o: Outcome, ceiling: Outcome | undefined): { pass: boolean; why: string } {
  const goal = GOALS[o.target];
  const misses: string[] = [];
  if (o.status5xx > 0) misses.push(`${o.status5xx} 5xx`);
  if (o.invariantExact === false) misses.push('invariant');
  if ((o.rssMb ?? 0) > MAX_RSS_MB) misses.push(`RSS > ${MAX_RSS_MB} MB`);
  if (goal?.ratio !== undefined && (!ceiling || o.rps / ceiling.rps < goal.ratio)) misses.push(`ratio < ${goal.ratio}`);
  if (goal?.p99 !== undefined && o.p99 > goal.p99) misses.push(`p99 > ${goal.p99} ms`);
  if (o.check && !o.check.ok) misses.push(o.check.text);
  return { pass: misses.length === 0, why: misses.join(', ') };
}

const outcomes: Outcome[] = [];
console.error(`bench: ${DURATION}s measured after ${WARMUP}s warm-up, ${CONNECTIONS} connections, targets ${TARGETS.join(', ')}`);
try {
  for (const [k, target] of TARGETS.entries()) {
    console.error(`- ${target}`);
    const port = 5600 + k;
    outcomes.push(target === 'ceiling' ? await runCeiling(port) : await runTarget(target, port));
    await cleanUp();
  }
} finally {
  await cleanUp();
}

const ceiling = outcomes.find((o) => o.target === 'ceiling');
console.log('\n| target | goal | req/s | ratio to ceiling | p50 ms | p99 ms | CPU µs/req | RSS MB | 5xx | errors | not verified | ledger invariant | result |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const o of outcomes) {
  const ratio = ceiling ? (o.rps / ceiling.rps).toFixed(2) : 'n/a';
  const { pass, why } = verdict(o, ceiling);
  const result = o.target === 'ceiling' ? '—' : pass ? 'PASS' : `FAIL (${why})`;
  const goal = o.target === 'ceiling' ? '—' : `${GOALS[o.target]?.note ?? ''}; RSS ≤ ${MAX_RSS_MB} MB`;
  const invariant = o.check ? `${o.invariant ?? '—'}; ${o.check.text}` : (o.invariant ?? '—');
  console.log(`| ${o.target} | ${goal} | ${o.rps} | ${ratio} | ${o.p50} | ${o.p99} | ${o.cpuUsPerRequest ?? '—'} | ${o.rssMb ?? '—'} | ${o.status5xx} | ${o.errors} | ${o.notVerified} | ${invariant} | ${result} |`);
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latest.json', JSON.stringify({ at: new Date().toISOString(), duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, outcomes }, null, 2));
