/** Where the test suites find PostgreSQL and Redis, and whether they must be there. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** CI sets this: a missing service then fails the run instead of skipping its suites. */
export const SERVICES_REQUIRED = process.env.SIXDIGIT_REQUIRE_SERVICES === '1' || process.env.CI === 'true';
