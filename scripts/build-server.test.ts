import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, signInOver, startServerProcess, type ServerProcess } from '../test/support/server-process';
import { Secret, TOTP } from 'otpauth';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { grantCredits } from '../server/src/features/credits/service';
import { buildServer } from './build-server';

/**
 * The bundle `npm start` runs (dist/server/main.js) is the server the tests run through tsx, built
 * by the same function. What bundling can break is what a module finds from where its code sits:
 * the blog's articles, Luna's documentation, packages resolved from node_modules. This bundle sits
 * one folder deeper than dist/server, so a path counted with `..` from the code breaks here too.
 */
describe('the server bundle (scripts/build-server.ts)', () => {
  const bundleDir = mkdtempSync(join('dist', '.test-bundle-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'sixdigit-bundle-'));
  let server: ServerProcess | undefined;

  const databaseUrl = `file:${join(dataDir, 'bundle.db')}`;

  beforeAll(async () => {
    await buildServer(join(bundleDir, 'nested'));
    server = await startServerProcess({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir }, { bundle: join(bundleDir, 'nested', 'main.js') });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(bundleDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs without the TypeScript loader and is ready', async () => {
    const cmdline = server!.process.spawnargs.join(' ');
    expect(cmdline).not.toContain('tsx');
    expect((await fetch(`${server!.url}/readyz`)).status).toBe(200);
  });

  it('serves the blog from content/blog at the repository root', async () => {
    const feed = await fetch(`${server!.url}/blog/feed.xml`);
    expect(feed.status).toBe(200);
    const xml = await feed.text();
    expect(xml).toContain('/blog/implementing-totp-api');
  });

  it('answers Luna from docs/product at the repository root', async () => {
    const res = await fetch(`${server!.url}/api/luna/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ message: 'How do I verify a TOTP code with the API?' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { response: string }).response).toContain('/api/v1/verify');
  });

  /** A signed-in person's new business on `base`: its two keys. */
  async function newBusiness(base: string, email: string): Promise<{ apiKey: string; testApiKey: string }> {
    const cookie = await signInOver(base, email, 'Bundle');
    const created = await client(base)('POST', '/api/business/create', { cookie, body: { companyName: 'Bundle Co' } });
    expect(created.status).toBe(201);
    return { apiKey: String(created.json.apiKey), testApiKey: String(created.json.testApiKey) };
  }

  const api = (base: string, key: string, path: string, body: object) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('signs a person in, creates a business and verifies a code in test mode', async () => {
    const { testApiKey } = await newBusiness(server!.url, 'bundle@example.com');
    const enrolled = await api(server!.url, testApiKey, '/api/v1/generate', { user_id: 'alice' });
    expect(enrolled.status).toBe(201);
    const wrong = await api(server!.url, testApiKey, '/api/v1/verify', { user_id: 'alice', totp_code: '000000' });
    expect(wrong.status).toBe(200);
    expect(await wrong.json()).toMatchObject({ verified: false });
  });

  // The writer thread's module is bundled beside main.js and loaded without tsx. Were it missing
  // or broken, the thread would stop with a SIXDIGIT_SQLITE_WRITER warning and its group would go
  // the careful way: the answer alone would not tell.
  it('writes live checks on the SQLite writer thread (SQLITE_WRITER=thread) from its own bundle', async () => {
    expect(existsSync(join(bundleDir, 'nested', 'sqlite-writer.worker.js'))).toBe(true);
    const threaded = await startServerProcess(
      { DATABASE_URL: `file:${join(dataDir, 'thread.db')}`, DATA_DIR: dataDir, SQLITE_WRITER: 'thread' },
      { bundle: join(bundleDir, 'nested', 'main.js') },
    );
    try {
      const { apiKey } = await newBusiness(threaded.url, 'thread@example.com');
      const ctx = createContext(loadConfig({ ...process.env, DATABASE_URL: `file:${join(dataDir, 'thread.db')}`, DATA_DIR: dataDir }));
      try {
        await grantCredits(ctx.db, { businessIdOrEmail: 'thread@example.com', amountPaise: 1_000, reason: 'bundle test' }, { userId: null, label: 'test' });
      } finally {
        await ctx.database.close();
      }
      const enrolled = await api(threaded.url, apiKey, '/api/v1/generate', { user_id: 'bob' });
      expect(enrolled.status).toBe(201);
      const { secret } = (await enrolled.json()) as { secret: string };
      const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
      const verified = await api(threaded.url, apiKey, '/api/v1/verify', { user_id: 'bob', totp_code: code });
      expect(await verified.json()).toMatchObject({ verified: true, balance: '9.90' });
      const replayed = await api(threaded.url, apiKey, '/api/v1/verify', { user_id: 'bob', totp_code: code });
      expect(await replayed.json()).toMatchObject({ verified: false, status: 'replayed' });
      expect(threaded.output()).not.toContain('SIXDIGIT_SQLITE_WRITER');
    } finally {
      await threaded.stop();
    }
  }, 60_000);
});
