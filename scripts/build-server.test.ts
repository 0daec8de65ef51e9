import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../test/support/server-process';
import { bundleForNode, SERVER_ENTRY } from './build-server';

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

  beforeAll(async () => {
    await bundleForNode(SERVER_ENTRY, join(bundleDir, 'nested', 'main.js'));
    server = await startServerProcess({ DATABASE_URL: `file:${join(dataDir, 'bundle.db')}`, DATA_DIR: dataDir }, { bundle: join(bundleDir, 'nested', 'main.js') });
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

  it('signs a person in, creates a business and verifies a code in test mode', async () => {
    const signIn = await fetch(`${server!.url}/api/login/local`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ email: 'bundle@example.com', name: 'Bundle' }).toString(),
    });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(';')[0]!).filter((c) => !c.endsWith('=')).join('; ');
    const created = await fetch(`${server!.url}/api/business/create`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ companyName: 'Bundle Co' }),
    });
    expect(created.status).toBe(201);
    const { testApiKey } = (await created.json()) as { testApiKey: string };
    const api = (path: string, body: object) =>
      fetch(`${server!.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${testApiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const enrolled = await api('/api/v1/generate', { user_id: 'alice' });
    expect(enrolled.status).toBe(201);
    const wrong = await api('/api/v1/verify', { user_id: 'alice', totp_code: '000000' });
    expect(wrong.status).toBe(200);
    expect(await wrong.json()).toMatchObject({ verified: false });
  });
});
