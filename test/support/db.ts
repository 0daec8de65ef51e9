import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { loadConfig, type Config } from '../../server/src/config';
import { createContext, migrateToLatest, type AppContext } from '../../server/src/context';
import { openDatabase, type Db } from '../../server/src/db';
import type { Dialect } from '../../server/src/db/types';
import { checkAnswersAgainstDocument } from './openapi-contract';
import { TEST_POSTGRES_URL } from './services';

export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

/**
 * Runs a suite once per database engine. The PostgreSQL run is skipped only when the global
 * setup found PostgreSQL unreachable outside CI (and it says so loudly); in CI it fails instead.
 */
export function describeEachDialect(name: string, body: (dialect: Dialect) => void): void {
  for (const dialect of DIALECTS) {
    const unavailable = dialect === 'postgres' && !inject('postgresAvailable');
    describe.skipIf(unavailable)(`${name} [${dialect}]`, () => body(dialect));
  }
}

export interface TestDatabase {
  config: Config['database'];
  open(): Db;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL database per call. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'sixdigit-test-'));
    const config = { kind: 'sqlite' as const, file: join(dir, 'test.db') };
    return { config, open: () => openDatabase(config), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `sixdigit_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const config = { kind: 'postgres' as const, url: url.toString() };
  return {
    config,
    open: () => openDatabase(config),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      // pg's Pool.end() resolves before its sockets have closed. Wait for them (up to 2 s) rather
      // than kill them: a client killed while closing raises an unhandled 57P01 in the test run.
      for (let i = 0; i < 100; i++) {
        const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    APP_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    ADMIN_EMAIL: 'admin@example.com',
    PUBLIC_URL: 'http://localhost:5000',
    DATA_DIR: join(tmpdir(), 'sixdigit-test-data'),
    WEB_DIST_DIR: join(tmpdir(), 'sixdigit-no-web-build'),
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  close(): Promise<void>;
}

/** A migrated database of the given engine and an app built over it (not listening). */
export async function createTestApp(dialect: Dialect, env: Record<string, string | undefined> = {}): Promise<TestApp> {
  const database = await createTestDatabase(dialect);
  const config = { ...testConfig(env), database: database.config };
  const ctx = createContext(config, database.open());
  await migrateToLatest(ctx);
  const app = await buildApp(ctx);
  // Every /api/v1 answer a test produces is checked against the served OpenAPI document.
  checkAnswersAgainstDocument(app);
  return {
    app,
    ctx,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

let signInClient = 0;

/**
 * Signs in through the local development sign-in and returns the session cookie header. Each call
 * comes from its own address (198.18.0.0/15, the benchmarking range): test users are different
 * people, and a suite that signs in dozens of them must not meet the per-address sign-in limit,
 * which `auth/rate-limit.test.ts` tests on its own.
 */
export async function signIn(app: FastifyInstance, email: string, name = 'Test User'): Promise<string> {
  signInClient += 1;
  const res = await app.inject({
    method: 'POST',
    url: '/api/login/local',
    remoteAddress: `198.18.${(signInClient >> 8) & 255}.${signInClient & 255}`,
    payload: new URLSearchParams({ email, name }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
  });
  if (res.statusCode !== 303) throw new Error(`local sign-in failed: ${res.statusCode} ${res.body}`);
  const cookies = res.cookies.map((c) => `${c.name}=${c.value}`);
  return cookies.join('; ');
}
