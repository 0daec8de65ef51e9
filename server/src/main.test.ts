import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'sixdigit-main-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', DATA_DIR: dataDir, WEB_DIST_DIR: join(dataDir, 'no-web'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe('the server process', () => {
  it('starts on a fresh data folder, answers, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const server = start({ PORT: String(port), HOST: '127.0.0.1' });
    let ready = false;
    for (let i = 0; i < 150 && !ready; i++) {
      await new Promise((r) => setTimeout(r, 100));
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    }
    expect(ready).toBe(true);
    // No secrets to invent: the development key was made once, readable by the owner only.
    expect(statSync(join(dataDir, 'encryption.key')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'sixdigit.db')).isFile()).toBe(true);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 30_000);

  it('refuses to start in production without an identity provider, naming the variable', async () => {
    const server = start({ NODE_ENV: 'production', PORT: '0' });
    expect(await server.exited).toBe(78);
    expect(server.output()).toContain('OIDC_CLIENT_ID');
    expect(server.output()).toContain('APP_ENCRYPTION_KEY');
  }, 30_000);

  it('refuses a bad value with a message naming the variable', async () => {
    const server = start({ PORT: 'http' });
    expect(await server.exited).toBe(78);
    expect(server.output()).toMatch(/PORT:/);
  }, 30_000);
});
