/**
 * `npm run bench`: autocannon against POST /api/v1/verify (managed mode, valid codes, 50
 * connections) on SQLite and PostgreSQL, and a no-storage ceiling, in one run on one machine.
 * Each target runs as its own server process; this process only generates load.
 *
 *   BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_CONNECTIONS=50 BENCH_TARGETS=ceiling,sqlite,postgres
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { loadConfig } from '../server/src/config';
import { createContext, migrateToLatest, type AppContext } from '../server/src/context';
import { createBusiness } from '../server/src/features/business/service';
import { setRateLimit } from '../server/src/features/business/repo';
import { ledgerTotals } from '../server/src/features/credits/repo';
import { grantCredits } from '../server/src/features/credits/service';
import { insertEnrolments } from '../server/src/features/verify/repo';
import { encryptionContext } from '../server/src/features/verify/service';
import { newId } from '../server/src/lib/ids';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const TARGETS = (process.env.BENCH_TARGETS ?? 'ceiling,sqlite,postgres').split(',');
const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ENCRYPTION_KEY = Buffer.alloc(32, 9).toString('base64');
/** One secret for every bench user: the server still decrypts and checks per request, and the
 * load generator computes one code per time step instead of one per request. */
const SECRET = new Secret({ size: 20 }).base32;
const totp = new TOTP({ secret: Secret.fromBase32(SECRET) });

interface Outcome {
  target: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  status5xx: number;
  notVerified: number;
  invariant?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
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

function startServer(script: string, env: Record<string, string>): ChildProcess {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', 'bench/results/profiles'] : [];
  return spawn(process.execPath, [...profile, '--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** Managed-mode users, each verified once: replay protection forbids reusing (user, step). */
async function seed(ctx: AppContext, users: number): Promise<{ apiKey: string; businessId: string }> {
  await migrateToLatest(ctx);
  // The owner is made through better-auth's own adapter, as a sign-in would make it.
  const authCtx = await ctx.auth.$context;
  const user = (await authCtx.internalAdapter.findUserByEmail('bench@example.com'))?.user
    ?? (await authCtx.internalAdapter.createUser({ email: 'bench@example.com', name: 'Bench Owner' }, { method: 'bench' }));
  const { profile, apiKey } = await createBusiness(ctx, { id: user.id, email: user.email, firstName: 'Bench', lastName: 'Owner', profileImageUrl: null, role: 'user', isAdmin: false }, 'Bench Co');
  await setRateLimit(ctx.db, profile.id, 100_000_000);
  await grantCredits(ctx.db, { businessIdOrEmail: profile.id, amountPaise: users * 10, reason: 'benchmark' }, { userId: null, label: 'bench' });
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
      });
    }
    await insertEnrolments(ctx.db, rows, now);
  }
  return { apiKey, businessId: profile.id };
}

function load(port: number, apiKey: string, seconds: number, nextUser: () => string, notVerified: { n: number }) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}`,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/v1/verify',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: JSON.stringify({ user_id: nextUser(), totp_code: totp.generate() }) }),
            onResponse: (status, body) => {
              if (status === 200 && !body.includes('"verified":true')) notVerified.n++;
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    void instance;
  });
}

function summarise(target: string, result: autocannon.Result, notVerified: number): Outcome {
  const status5xx = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => Number(code) >= 500)
    .reduce((sum, [, s]) => sum + (s as { count: number }).count, 0);
  return {
    target,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    status5xx,
    notVerified,
  };
}

async function runTarget(target: string): Promise<Outcome> {
  const port = 5600 + TARGETS.indexOf(target);
  if (target === 'ceiling') {
    const child = startServer('bench/ceiling-server.ts', { PORT: String(port), BENCH_SECRET: SECRET });
    try {
      await waitForHealth(port, child);
      let i = 0;
      const none = { n: 0 };
      await load(port, 'none', WARMUP, () => `u${i++}`, none);
      const measured = { n: 0 };
      const result = await load(port, 'none', DURATION, () => `u${i++}`, measured);
      return summarise(target, result, measured.n);
    } finally {
      await stopServer(child);
    }
  }

  // Enough users that none is verified twice: generous for this machine's throughput.
  const users = Number(process.env.BENCH_USERS ?? (target === 'sqlite' ? 400_000 : 200_000));
  let databaseUrl: string;
  let cleanup: () => Promise<void>;
  if (target === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'sixdigit-bench-'));
    databaseUrl = `sqlite:${join(dir, 'bench.db')}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `sixdigit_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    cleanup = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    APP_ENCRYPTION_KEY: ENCRYPTION_KEY,
    ADMIN_EMAIL: 'admin@example.com',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(tmpdir(), 'sixdigit-bench-data'),
  };
  const ctx = createContext(loadConfig(env));
  try {
    const seedStart = performance.now();
    const { apiKey, businessId } = await seed(ctx, users);
    console.error(`  ${target}: seeded ${users} enrolled users in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
    const child = startServer('server/src/main.ts', env);
    try {
      await waitForHealth(port, child);
      let i = 0;
      const nextUser = () => `bench_${i++ % users}`;
      await load(port, apiKey, WARMUP, nextUser, { n: 0 });
      const measured = { n: 0 };
      const result = await load(port, apiKey, DURATION, nextUser, measured);
      if (i > users) console.error(`  ${target}: WARNING ran out of fresh users (${i} requests for ${users} users): replays counted`);
      const outcome = summarise(target, result, measured.n);
      // Requests still in flight when the load stops are finished by the graceful shutdown,
      // so the ledger is read only after the server has exited.
      await stopServer(child);
      const totals = await ledgerTotals(ctx.db, businessId);
      const exact = totals.balancePaise === totals.creditedPaise - totals.spentPaise;
      outcome.invariant = `${exact ? 'exact' : 'BROKEN'} (balance ${totals.balancePaise} = credited ${totals.creditedPaise} − spent ${totals.spentPaise})`;
      return outcome;
    } finally {
      await stopServer(child);
    }
  } finally {
    await ctx.database.close();
    await cleanup();
  }
}

const outcomes: Outcome[] = [];
console.error(`bench: ${DURATION}s measured after ${WARMUP}s warm-up, ${CONNECTIONS} connections, targets ${TARGETS.join(', ')}`);
for (const target of TARGETS) {
  console.error(`- ${target}`);
  outcomes.push(await runTarget(target));
}
const ceiling = outcomes.find((o) => o.target === 'ceiling');
console.log('\n| target | req/s | ratio to ceiling | p50 ms | p99 ms | 5xx | errors | not verified | ledger invariant |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const o of outcomes) {
  const ratio = ceiling ? (o.rps / ceiling.rps).toFixed(2) : 'n/a';
  console.log(`| ${o.target} | ${o.rps} | ${ratio} | ${o.p50} | ${o.p99} | ${o.status5xx} | ${o.errors} | ${o.notVerified} | ${o.invariant ?? '—'} |`);
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latest.json', JSON.stringify({ at: new Date().toISOString(), duration: DURATION, connections: CONNECTIONS, outcomes }, null, 2));
