/**
 * Instructions per verification, counted by valgrind's callgrind: a figure that does not move
 * with the machine. `npx tsx bench/instructions.ts <dir> [<dir> …]`
 *
 * This machine's speed drifts by 15–50 % within minutes, so two runs of `npm run bench` cannot
 * tell a 5 % change, and even servers measured in alternate 3-s turns read pairs 0.8–1.45 apart
 * for the same code. Instruction counts repeat: each checkout (a `git worktree` with node_modules
 * linked will do) serves 3,000 managed-mode checks of a seeded SQLite database, in-process with
 * its client (bench/instructions-server.ts), all checkouts at once so that their timing (which
 * decides group sizes, JIT and GC) matches. Per check it prints:
 * - **mutator**: the instructions of the JavaScript, Node and SQLite that ran the checks — the
 *   figure to compare (the same code read within 0.2 % across runs of the same GC history, 2 % otherwise);
 * - **compiler**: V8's optimising compilers, which under valgrind never finish warming up;
 * - **gc**: the garbage collector (the window starts after a full collection, so a major GC
 *   does not land in one checkout's window and not in another's);
 * - **sqlite**: better-sqlite3's library (SQLite itself) alone.
 * Two yardsticks may be named instead of a checkout: `ceiling` (bench/ceiling-app.ts, the stack with
 * no storage) and `bare` (Node's HTTP server answering a fixed body, i.e. the client's share and
 * Node's HTTP). With both, each row also gets **× ceiling beyond Node's HTTP**: (mutator − bare) /
 * (ceiling − bare), what the server does on top of Node's HTTP against what the ceiling does. The
 * CPU goals compare whole processes in seconds, Node's HTTP and the kernel's share included, so
 * they read lower than this ratio for the same code.
 * What it cannot see: system calls (the socket writes, SQLite's reads and writes), cache misses and
 * the other threads' waits, which the wall-clock bench does see.
 *
 *   BENCH_INSTR_CHECKS=3000 BENCH_INSTR_WARM=1500 BENCH_INSTR_USERS=100000 BENCH_INSTR_IN_FLIGHT=50
 *   (fewer in flight: smaller groups, as in the open loop)
 *   BENCH_INSTR_DB=postgres: each checkout's server on its own copy of a seeded PostgreSQL database
 *   (127.0.0.1:5432, TEST_POSTGRES_URL) instead of SQLite. PostgreSQL's own work is in another
 *   process, outside the count: the figures are the Node process's (its JavaScript, pg's protocol).
 *   BENCH_INSTR_KEEP=<dir>: keep each checkout's callgrind file there, for callgrind_annotate.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Secret } from 'otpauth';
import { loadConfig } from '../server/src/config';
import { createContext, migrateToLatest } from '../server/src/context';
import { seedBusiness } from './seed';

/** Yardsticks, given by name instead of a checkout (bench/instructions-server.ts). */
const YARDSTICKS = new Set(['ceiling', 'bare']);
const dirs = process.argv.slice(2).map((d) => (YARDSTICKS.has(d) ? d : resolve(d)));
if (dirs.length === 0) {
  console.error('usage: npx tsx bench/instructions.ts <checkout> [<checkout> …]');
  process.exit(2);
}
const CHECKS = Number(process.env.BENCH_INSTR_CHECKS ?? 3_000);
const POSTGRES = process.env.BENCH_INSTR_DB === 'postgres';
const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pgPrefix = `sixdigit_instr_${process.pid}`;
/** A database's URL on the admin URL's server. */
const pgUrl = (name: string) => Object.assign(new URL(PG_ADMIN_URL), { pathname: `/${name}` }).toString();
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
const USERS = Number(process.env.BENCH_INSTR_USERS ?? 100_000);
const work = mkdtempSync(join(tmpdir(), 'sixdigit-bench-instr-'));
const env = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  APP_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
  ADMIN_EMAIL: 'admin@example.com',
  HOST: '127.0.0.1',
  PORT: '1',
  DATA_DIR: join(work, 'data'),
};

/** One business, credit for every check, USERS enrolled users (this checkout's schema). */
async function seed(file: string): Promise<{ apiKey: string; secret: string }> {
  const secret = new Secret({ size: 20 }).base32;
  if (POSTGRES) await admin(`create database ${pgPrefix}_seed`);
  const ctx = createContext(loadConfig({ ...env, DATABASE_URL: POSTGRES ? pgUrl(`${pgPrefix}_seed`) : `sqlite:${file}` }));
  await migrateToLatest(ctx);
  const { apiKey } = await seedBusiness(ctx, secret, 0, USERS, 10_000_000, 100_000_000);
  // Closing the last connection copies the WAL back into the file.
  await ctx.database.close();
  return { apiKey, secret };
}

function run(command: string, args: string[], cwd?: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => (code === 0 ? done(out) : fail(new Error(`${command} exited ${code}: ${err.split('\n').filter((l) => !l.startsWith('==')).slice(-5).join('\n')}`))));
  });
}

// Functions of V8's compilers and of its garbage collector, by name (callgrind_annotate's symbols).
const COMPILER = /compiler::|maglev|Maglev|turboshaft|Turboshaft|OptimizingCompile|interpreter::Bytecode|Parser|Scanner|Compiler::|CodeGenerator|Assembler|RegisterAllocator|InstructionSelector|LiveRange|Zone::/;
const GC = /Scaveng|Marking|Sweep|Heap::|Evacuat|MarkCompact|Concurrent|GCTracer|MemoryAllocator|PageAllocator|RememberedSet|SlotSet|heap::base|cppgc|MinorMS|ArrayBufferSweeper|Compactor|WeakObjects|BodyDescriptor/;

async function split(outFile: string): Promise<{ total: number; compiler: number; gc: number; sqlite: number }> {
  const text = await run('callgrind_annotate', ['--inclusive=no', '--threshold=100', outFile]);
  const sum = { total: 0, compiler: 0, gc: 0, sqlite: 0 };
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!m || m[2]!.includes('PROGRAM TOTALS')) continue;
    const n = Number(m[1]!.replaceAll(',', ''));
    sum.total += n;
    if (COMPILER.test(m[2]!)) sum.compiler += n;
    else if (GC.test(m[2]!)) sum.gc += n;
    if (m[2]!.includes('better_sqlite3')) sum.sqlite += n;
  }
  return sum;
}

try {
  const seeded = join(work, 'seed.db');
  const { apiKey, secret } = await seed(seeded);
  const seedFile = join(work, 'seed.json');
  writeFileSync(seedFile, JSON.stringify({ apiKey, secret, env }));
  const nodeFlags = ['--max-semi-space-size=8', '--expose-gc', '--import', 'tsx'];
  const results = await Promise.all(
    dirs.map(async (dir, k) => {
      const outFile = join(work, `callgrind.${k}`);
      const database = POSTGRES && !YARDSTICKS.has(dir) ? `${pgPrefix}_${k}` : null;
      if (database) await admin(`create database ${database} template ${pgPrefix}_seed`);
      await run('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${outFile}`, process.execPath, ...nodeFlags, 'bench/instructions-server.ts', dir, seeded, seedFile, join(work, `${k}.db`), ...(database ? [pgUrl(database)] : [])], process.cwd());
      if (process.env.BENCH_INSTR_KEEP) await run('cp', [outFile, join(process.env.BENCH_INSTR_KEEP, `callgrind.${k}`)]);
      return { dir, ...(await split(outFile)) };
    }),
  );
  const k = (n: number) => `${(n / CHECKS / 1000).toFixed(1)}k`;
  const mutator = (r: (typeof results)[number]) => r.total - r.compiler - r.gc;
  const bare = results.find((r) => r.dir === 'bare');
  const ceiling = results.find((r) => r.dir === 'ceiling');
  const ratio = (r: (typeof results)[number]) => (bare && ceiling ? ((mutator(r) - mutator(bare)) / (mutator(ceiling) - mutator(bare))).toFixed(2) : '—');
  console.log(`instructions per check (${POSTGRES ? 'PostgreSQL, ' : ''}${CHECKS} checks, ${USERS} users, ${process.env.BENCH_INSTR_IN_FLIGHT ?? 50} in flight; server and client)`);
  console.log('| checkout | mutator | × ceiling beyond Node\'s HTTP | compiler | gc | total | sqlite |\n|---|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.dir} | ${k(mutator(r))} | ${ratio(r)} | ${k(r.compiler)} | ${k(r.gc)} | ${k(r.total)} | ${k(r.sqlite)} |`);
} finally {
  rmSync(work, { recursive: true, force: true });
  if (POSTGRES) {
    for (const k of ['seed', ...dirs.keys()]) await admin(`drop database if exists ${pgPrefix}_${k} with (force)`).catch(() => {});
  }
}
