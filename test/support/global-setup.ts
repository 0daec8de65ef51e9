import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { phpProblem } from './php';
import { SERVICES_REQUIRED, TEST_POSTGRES_URL, TEST_REDIS_URL } from './services';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAvailable: boolean;
    redisAvailable: boolean;
  }
}

async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisReachable(): Promise<string | null> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    redis.disconnect();
  }
}

/**
 * Probes PostgreSQL and Redis once per run. In CI (or with SIXDIGIT_REQUIRE_SERVICES=1) a missing
 * service fails the run; on a laptop the suites that need it are skipped, and this says so loudly.
 */
export default async function setup(project: TestProject) {
  const [pgProblem, redisProblem] = await Promise.all([postgresReachable(), redisReachable()]);
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const chromiumProblem = existsSync(chromiumPath) ? null : `not installed (apt-get install chromium)`;
  const phpMissing = phpProblem();
  const missing = [
    pgProblem && `PostgreSQL at ${TEST_POSTGRES_URL}: ${pgProblem}`,
    redisProblem && `Redis at ${TEST_REDIS_URL}: ${redisProblem}`,
    chromiumProblem && `Chromium at ${chromiumPath}: ${chromiumProblem} — the browser (e2e) suites did NOT run`,
    phpMissing && `php: ${phpMissing} — the PHP code samples (common/samples) were NOT run`,
  ].filter(Boolean) as string[];
  if (missing.length > 0) {
    if (SERVICES_REQUIRED) {
      throw new Error(`Required test services are unreachable:\n  - ${missing.join('\n  - ')}`);
    }
    const bar = '!'.repeat(78);
    console.warn(
      `\n${bar}\n  SKIPPING SUITES: these services are unreachable, so the tests that need them are skipped.\n` +
        missing.map((m) => `  - ${m}`).join('\n') +
        `\n  PostgreSQL-dialect suites and Redis-backed rate-limit suites did NOT run.\n` +
        `  Start the services (or set TEST_POSTGRES_URL / TEST_REDIS_URL) to run everything.\n${bar}\n`,
    );
  }
  project.provide('postgresAvailable', pgProblem === null);
  project.provide('redisAvailable', redisProblem === null);
}
