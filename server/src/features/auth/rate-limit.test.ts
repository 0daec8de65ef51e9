import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/support/db';
import { TEST_REDIS_URL } from '../../../../test/support/services';

const LOGIN_LIMIT_PER_MINUTE = 30;

describe('sign-in rate limit (in memory, one instance)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it(`allows ${LOGIN_LIMIT_PER_MINUTE} sign-in starts a minute, then answers 429 rate_limited with Retry-After`, async () => {
    for (let i = 0; i < LOGIN_LIMIT_PER_MINUTE; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/api/login' })).statusCode).toBe(200);
    }
    const limited = await t.app.inject({ method: 'GET', url: '/api/login' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe.skipIf(!inject('redisAvailable'))('sign-in rate limit shared through Redis by two instances', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:` };
    [a, b] = await Promise.all([createTestApp('sqlite', env), createTestApp('sqlite', env)]);
  });
  afterAll(async () => Promise.all([a?.close(), b?.close()]));

  it('counts requests to either instance against one budget', async () => {
    const half = LOGIN_LIMIT_PER_MINUTE / 2;
    for (let i = 0; i < half; i++) expect((await a.app.inject({ method: 'GET', url: '/api/login' })).statusCode).toBe(200);
    for (let i = 0; i < half; i++) expect((await b.app.inject({ method: 'GET', url: '/api/login' })).statusCode).toBe(200);
    expect((await a.app.inject({ method: 'GET', url: '/api/login' })).statusCode).toBe(429);
    expect((await b.app.inject({ method: 'GET', url: '/api/login' })).statusCode).toBe(429);
  });
});
